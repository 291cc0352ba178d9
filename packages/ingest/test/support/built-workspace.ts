// The workspace's built JavaScript (every package's dist/), for tests that run it in a process of its own,
// as users run it: `oqlkit` itself (the CLI's tests) or an ingest that is killed mid-run. A process started
// from the TypeScript source through tsx's loader costs about twice the CPU of one started from the build
// (an ingest's child: 7.2 against 3.9 s; a server answering its first request: 4.6-6.8 against 3.0-3.5 s).
//
// The first file of a run to need it runs `tsc -b` (incremental: about two seconds when nothing changed)
// under a lock named after the vitest main process; the other files wait for it. `npm ci` has built
// everything already, so in CI the build only confirms it.
import { spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { oncePerTestRun } from './once-per-test-run.ts'

const REPO = resolve(import.meta.dirname, '../../../..')

/** How long a file waits for another to finish the build. */
const BUILD_WAIT_MS = 180_000

let built: Promise<void> | undefined

/** Resolves once every package's `dist/` holds this run's source. */
export function builtWorkspace(): Promise<void> {
  built ??= buildOncePerRun()
  return built
}

async function buildOncePerRun(): Promise<void> {
  await oncePerTestRun({
    prefix: 'oqlkit-build-',
    doneFile: 'done',
    waitMs: BUILD_WAIT_MS,
    what: 'the build of the packages',
    work: async (root) => {
      const result = spawnSync(
        process.execPath,
        [resolve(REPO, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
        { cwd: REPO, encoding: 'utf8' },
      )
      if (result.status !== 0)
        throw new Error(
          `the test runs the built packages, and \`tsc -b tsconfig.build.json\` failed:\n${result.stdout}${result.stderr}`,
        )
      writeFileSync(join(root, 'done'), '')
    },
  })
}
