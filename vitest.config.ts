import { randomUUID } from 'node:crypto'
import { defineConfig } from 'vitest/config'
import { SlowFirstSequencer } from './scripts/slow-first-sequencer.ts'
import { TimedJsonReporter } from './scripts/timed-json-reporter.ts'

// OQLKIT_TEST_REPORT names a JSON report to write beside the usual output, each file with its whole time;
// .ci/run sets it and prints the slowest files from it (scripts/slowest-test-files.ts).
const report = process.env.OQLKIT_TEST_REPORT
// Beside it, each file's CPU seconds (scripts/test-cpu-recorder.ts), unless OQLKIT_TEST_CPU names another file.
const cpuRecord = process.env.OQLKIT_TEST_CPU ?? (report === undefined ? undefined : `${report}.cpu.jsonl`)

// Tests import sibling packages by name and resolve them to their TypeScript source through the
// `@oqlkit/source` export condition, so no build step stands between an edit and a test run.
export default defineConfig({
  resolve: { conditions: ['@oqlkit/source'] },
  ssr: { resolve: { conditions: ['@oqlkit/source'] } },
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'scripts/**/*.test.ts',
      'bench/**/*.test.ts',
    ],
    ...(report ? { reporters: ['default', new TimedJsonReporter({ outputFile: report })] } : {}),
    ...(cpuRecord === undefined ? {} : { setupFiles: ['scripts/test-cpu-recorder.ts'] }),
    env: {
      // The run's id: with the vitest process's pid, it names the folders of what a run builds once and shares
      // between its workers (the sample catalog, dist/, the ClickHouse load; ingest's `oncePerTestRun`).
      OQLKIT_TEST_RUN: randomUUID().slice(0, 8),
      // One DuckDB thread where a test names none: three files run at once on two cores, and DuckDB's own
      // threads only contended. Five DuckDB-heavy files took 95 s of CPU and 52 s of wall clock so, against
      // 109 s and 58 s with DuckDB's default of every core. The tests that name their threads (the ranged
      // sort's build, the vectors' thread counts) still run DuckDB on two.
      OQLKIT_DUCKDB_THREADS: '1',
      ...(cpuRecord === undefined ? {} : { OQLKIT_TEST_CPU: cpuRecord }),
    },
    // The slowest files first (scripts/slow-first-sequencer.ts): a slow file started last is the run's tail.
    sequence: { sequencer: SlowFirstSequencer },
    restoreMocks: true,
    // One module graph per worker, not one per file: importing the packages (arktype's scopes, DuckDB's
    // binding, h3, the registries) took 2-3 s a file, 61 of 134 s for oql's and engine's tests; without
    // isolation 6 of 44 s. A file that changes process-wide state puts it back in its afterAll.
    isolate: false,
    // Vitest's default is one worker fewer than the cores: one worker on this 2-core machine, which left a
    // core to the child processes and DuckDB's threads only. Three, one more than the cores, fill the time a
    // worker waits on a child process, a socket or a timer: the suite took 633 s of wall clock against 760 s
    // with two on the same 2-core machine, and 20.0 against 22.0 minutes of CPU (all 227 files passing).
    maxWorkers: 3,
    // A bound on a hang, not a speed check (benchmarks check speed). Tests that ingest a small snapshot two
    // or three times took over 30 s each with two workers on this 2-core machine under load.
    testTimeout: 120_000,
    // Ingests and catalog builds run in beforeAll; on a loaded 2-core machine they take tens of seconds.
    hookTimeout: 120_000,
  },
})
