// The built `oqlkit` command for tests that run it as a process: `bin/oqlkit.js` over `dist/`, as a user runs
// it, brought up to date with the source once per test run. A server started from the TypeScript source
// through tsx's loader took 4.6-6.8 s of CPU to answer its first request, from the build 3.0-3.5 s (load 8),
// and the CLI tests start about thirty.
//
// The first file of a run to need it runs `tsc -b` (incremental: about two seconds when nothing changed)
// under a lock named after the vitest main process; the other files wait for it. `npm ci` has built
// everything already, so in CI the build only confirms it.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const REPO = resolve(import.meta.dirname, '../../../..')
/** The command's wrapper, as npm links it for users. */
export const BUILT_CLI = resolve(REPO, 'packages/cli/bin/oqlkit.js')

/** How long a file waits for another to finish the build. */
const BUILD_WAIT_MS = 180_000

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

let built: Promise<string> | undefined

/** `BUILT_CLI`, once `dist/` holds this run's source. */
export function builtCli(): Promise<string> {
  built ??= buildOncePerRun()
  return built
}

async function buildOncePerRun(): Promise<string> {
  const root = join(tmpdir(), `oqlkit-cli-build-${process.ppid}`)
  const done = join(root, 'done')
  const lock = join(root, 'lock')
  mkdirSync(root, { recursive: true })
  for (let waited = 0; waited <= BUILD_WAIT_MS; waited += 250) {
    if (existsSync(done)) return BUILT_CLI
    try {
      mkdirSync(lock)
    } catch {
      // Another file is building.
      await pause(250)
      continue
    }
    try {
      const result = spawnSync(
        process.execPath,
        [resolve(REPO, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
        { cwd: REPO, encoding: 'utf8' },
      )
      if (result.status !== 0)
        throw new Error(
          `the CLI tests run the built command, and \`tsc -b tsconfig.build.json\` failed:\n${result.stdout}${result.stderr}`,
        )
      writeFileSync(done, '')
      return BUILT_CLI
    } finally {
      // Released either way: after a failed build, a waiting file tries itself and reports the error.
      rmSync(lock, { recursive: true, force: true })
    }
  }
  throw new Error(`the CLI was not built within ${BUILD_WAIT_MS / 1000} s (lock ${lock})`)
}
