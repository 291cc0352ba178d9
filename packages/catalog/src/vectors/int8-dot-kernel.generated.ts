// Generated from int8-dot-kernel.wat by scripts/generate-artifacts.ts with wabt. Do not edit: run
// `npm run generate`. A test fails when this file drifts from its source.
export const INT8_DOT_KERNEL_BASE64 =
  'AGFzbQEAAAABCQFgBX9/f39/AAISAQZrZXJuZWwGbWVtb3J5AgABAwIBAAcLAQdkb3RSb3dzAAAKxQEBwgEDA38CewF/IAAhBSAEIQogBCABQQJ0aiEGAkADQCAKIAZPDQH9DAAAAAAAAAAAAAAAAAAAAAAhCEEAIQcCQANAIAcgAk8NASAFIAdq/QAEACEJIAggCf2HASADIAdBAXRq/QAEAP26Af2uASEIIAggCf2IASADIAdBAXRq/QAEEP26Af2uASEIIAdBEGohBwwACwsgCiAI/RsAIAj9GwFqIAj9GwIgCP0bA2pqNgIAIAUgAmohBSAKQQRqIQoMAAsLCw=='
