// The built `oqlkit` command for tests that run it as a process: `bin/oqlkit.js` over `dist/`, as a user runs
// it, brought up to date with the source once per test run (`builtWorkspace`). The CLI tests start about
// thirty servers; from the build each costs about half the CPU it costs from the source through tsx.
import { resolve } from 'node:path'
import { builtWorkspace } from '@oqlkit/ingest/test-support'

/** The command's wrapper, as npm links it for users. */
export const BUILT_CLI = resolve(import.meta.dirname, '../../bin/oqlkit.js')

/** `BUILT_CLI`, once `dist/` holds this run's source. */
export async function builtCli(): Promise<string> {
  await builtWorkspace()
  return BUILT_CLI
}
