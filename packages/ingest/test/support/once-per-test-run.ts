// Work a whole test run shares, done once: the first test process to need it does it under a lock in a folder
// named after the run (the vitest main process, every worker's parent, and the run's own id), and the others
// wait for what it leaves. The shared sample catalog, the build of dist/ and the sample's ClickHouse load are
// each done so. The pid alone does not name a run: pids wrap (at 32,768 on this machine, within a session), and
// a later run given an ended run's pid would take that run's leftovers (a stale dist/, an old catalog) as its
// own; `vitest.config.ts` gives each run an id, OQLKIT_TEST_RUN.
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface OncePerTestRun {
  /** Names the run's folder, `${prefix}${vitest's pid}` under the OS temporary folder. */
  readonly prefix: string
  /** The file `work` leaves, last, when it is done: its presence is what the waiting processes wait for. */
  readonly doneFile: string
  /** How long a process waits for another to finish the work. */
  readonly waitMs: number
  /** What the waiting processes are told if the work was not done in time. */
  readonly what: string
  /** Does the work in the run's folder; it writes `doneFile` only when it has all succeeded. */
  readonly work: (root: string) => Promise<void>
}

/** Whether a process of this pid is running (signal 0 tests for it without sending anything). */
export const isProcessRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** This run's name: the vitest main process and the id vitest.config.ts gives the run. */
const runName = (): string => `${process.ppid}-${process.env.OQLKIT_TEST_RUN ?? ''}`

/**
 * Folders of `prefix` left by runs that have ended (vitest stops its workers with a signal: none cleans up):
 * of a process no longer running, or of an earlier run whose pid this run's got.
 */
const removeLeftovers = (prefix: string): void => {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(prefix)) continue
    const run = name.slice(prefix.length)
    const pid = Number(run.split('-')[0])
    if (!Number.isInteger(pid) || run === runName()) continue
    if (pid === process.ppid || !isProcessRunning(pid))
      rmSync(join(tmpdir(), name), { recursive: true, force: true })
  }
}

/** The run's folder once `work` is done in it, by this process or another. */
export async function oncePerTestRun(options: OncePerTestRun): Promise<string> {
  const root = join(tmpdir(), `${options.prefix}${runName()}`)
  const done = join(root, options.doneFile)
  const lock = join(root, 'lock')
  mkdirSync(root, { recursive: true })
  for (let waited = 0; waited <= options.waitMs; waited += 250) {
    if (existsSync(done)) return root
    try {
      mkdirSync(lock)
    } catch {
      // Another process is at it.
      await pause(250)
      continue
    }
    try {
      // Another process may have finished between the check above and taking the lock: its work stands.
      if (existsSync(done)) return root
      removeLeftovers(options.prefix)
      await options.work(root)
    } finally {
      // Released either way: after a failure, a waiting process tries itself (and reports its own error).
      rmSync(lock, { recursive: true, force: true })
    }
  }
  throw new Error(`${options.what} in ${root} was not done within ${options.waitMs / 1000} s`)
}
