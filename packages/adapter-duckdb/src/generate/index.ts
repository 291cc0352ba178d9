// The scale generator: synthetic OpenAlex snapshots of any size in the legacy layout (`oqlkit generate`).

export type * from './generate-progress.ts'
export {
  GENERATE_MANIFEST_FILE,
  GenerateError,
  type GenerateErrorCode,
  type GenerateOptions,
  generateSnapshot,
  MAX_GENERATED_WORKS,
} from './generate-snapshot.ts'
export { OPENALEX_TOTALS, type PoolSizes, poolSizes } from './generation-plan.ts'
