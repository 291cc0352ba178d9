// A vitest setup file (it runs in the workers, before each test file): when OQLKIT_TEST_CPU names a file, it
// appends one JSON line per test file with the CPU seconds the file cost — its worker's own (threads included:
// the parse workers, DuckDB's and chdb's threads) and its worker's child processes' (a served `oqlkit`, the zstd
// command, Chromium) as Linux counts them for children that have exited. The suite is CPU-bound on two cores:
// a file's wall time says how long it waited as much as what it cost, its CPU says what removing it would save.
// scripts/slowest-test-files.ts prints the files that cost the most. Set up by vitest.config.ts with
// OQLKIT_TEST_REPORT (.ci/run).
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { afterAll, expect } from 'vitest'

/** Linux's clock ticks per second for /proc's CPU times (USER_HZ: 100 on every Linux architecture node runs on). */
const TICKS_PER_SECOND = 100

/** CPU seconds of the exited, waited-for children of this process, from /proc (0 where there is none). */
function childrenSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8')
    // Fields after the command's closing parenthesis start at field 3 (state); cutime and cstime are 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND
  } catch {
    return 0
  }
}

const ownSeconds = (): number => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1e6
}

const out = process.env.OQLKIT_TEST_CPU
if (out !== undefined && out !== '') {
  const startOwn = ownSeconds()
  const startChildren = childrenSeconds()
  afterAll(() => {
    const record = {
      file: expect.getState().testPath ?? 'unknown',
      ownSeconds: Math.round((ownSeconds() - startOwn) * 100) / 100,
      childSeconds: Math.round((childrenSeconds() - startChildren) * 100) / 100,
    }
    // The report's folder is made by the reporter only at the end of the run.
    mkdirSync(dirname(out), { recursive: true })
    appendFileSync(out, `${JSON.stringify(record)}\n`)
  })
}
