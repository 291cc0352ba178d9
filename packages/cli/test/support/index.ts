// @oqlkit/cli's test fixtures, for the scripts of the repository (`@oqlkit/cli/test-support`, an export of the
// source condition only: it is never published): a server shut down under load.
export { type ShutdownRun, sigtermUnderLoad } from './shutdown-under-load.ts'
