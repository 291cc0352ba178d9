// Prints the slowest files of a vitest JSON report, the files that cost the most CPU (when the run recorded it,
// scripts/test-cpu-recorder.ts), and how long the whole run took against its budget:
//   node --import tsx scripts/slowest-test-files.ts <report.json> [--run-seconds N] [--budget-seconds 600] [--count 10]
//     [--write-seconds scripts/test-file-seconds.json]
// With --write-seconds it also writes every file of 3 s or more with its seconds, slowest first: the table vitest
// starts the slowest files by (scripts/slow-first-sequencer.ts).
// .ci/run calls it at its end, so that a suite drifting past its ten minutes is seen in every CI log; over
// the budget it prints a loud line, not a failure (a loaded machine must not block a landing).
// A file's time is the `duration` scripts/timed-json-reporter.ts adds (hooks and imports included); in a
// plain vitest report, which lacks it, the span from the file's first test's start to its last one's end.
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { pathToFileURL } from 'node:url'

interface ReportedFile {
  readonly name: string
  readonly status?: string
  readonly startTime?: number
  readonly endTime?: number
  readonly duration?: number
  readonly assertionResults?: readonly unknown[]
}

interface Report {
  readonly numTotalTests?: number
  readonly testResults: readonly ReportedFile[]
}

export interface FileTime {
  /** The file's path, relative to the root given when it lies under it. */
  readonly file: string
  readonly seconds: number
  readonly tests: number
  readonly status: string
}

const isReport = (value: unknown): value is Report =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as { testResults?: unknown }).testResults)

/** Every file of the report with its seconds, the slowest first. */
export function fileTimes(report: unknown, root: string): FileTime[] {
  if (!isReport(report)) throw new Error('not a vitest JSON report: it has no testResults list')
  return report.testResults
    .map((entry) => {
      const span = (entry.endTime ?? 0) - (entry.startTime ?? 0)
      const milliseconds = entry.duration ?? Math.max(0, span)
      return {
        file: entry.name.startsWith(`${root}/`) ? relative(root, entry.name) : entry.name,
        seconds: milliseconds / 1000,
        tests: entry.assertionResults?.length ?? 0,
        status: entry.status ?? 'unknown',
      }
    })
    .sort((a, b) => b.seconds - a.seconds || a.file.localeCompare(b.file))
}

/** 751 → `12m31s`, 42 → `42s`. */
export function minutesAndSeconds(seconds: number): string {
  const whole = Math.round(seconds)
  const minutes = Math.floor(whole / 60)
  return minutes === 0 ? `${whole}s` : `${minutes}m${String(whole % 60).padStart(2, '0')}s`
}

/** A test file's CPU seconds as scripts/test-cpu-recorder.ts records them (one JSON line per file). */
export interface FileCpu {
  readonly file: string
  readonly ownSeconds: number
  readonly childSeconds: number
}

/** The records of a CPU record file's text; a line that is not one (a run killed mid-write) is skipped. */
export function parseCpuRecords(text: string): FileCpu[] {
  return text.split('\n').flatMap((line) => {
    try {
      const value = JSON.parse(line) as Partial<FileCpu>
      return typeof value.file === 'string' &&
        typeof value.ownSeconds === 'number' &&
        typeof value.childSeconds === 'number'
        ? [{ file: value.file, ownSeconds: value.ownSeconds, childSeconds: value.childSeconds }]
        : []
    } catch {
      return []
    }
  })
}

/** The CPU the files took in all, and the `count` that took most, the costliest first. */
export function cpuLines(records: readonly FileCpu[], root: string, count: number): string[] {
  if (records.length === 0) return []
  const cost = (record: FileCpu) => record.ownSeconds + record.childSeconds
  const total = records.reduce((sum, record) => sum + cost(record), 0)
  const costliest = [...records]
    .sort((a, b) => cost(b) - cost(a) || a.file.localeCompare(b.file))
    .slice(0, count)
  const width = Math.max(...costliest.map((record) => cost(record).toFixed(1).length))
  return [
    `CPU: ${minutesAndSeconds(total)} in the test files (their workers' and child processes'); the ${costliest.length} costliest:`,
    ...costliest.map(
      (record) =>
        `  ${cost(record).toFixed(1).padStart(width)} s  ${record.file.startsWith(`${root}/`) ? relative(root, record.file) : record.file}${record.childSeconds >= 0.05 ? ` (${record.childSeconds.toFixed(1)} s in child processes)` : ''}`,
    ),
  ]
}

export interface RunSummary {
  /** The parsed report, or undefined when the run stopped before vitest wrote one. */
  readonly report: unknown
  readonly root: string
  /** How long the whole run took, when known. */
  readonly runSeconds?: number
  readonly budgetSeconds: number
  readonly count: number
  /** Each file's CPU, when the run recorded it. */
  readonly cpu?: readonly FileCpu[]
}

/** The lines printed at the end of a run. */
export function summaryLines({ report, root, runSeconds, budgetSeconds, count, cpu }: RunSummary): string[] {
  const lines: string[] = []
  if (report === undefined) lines.push('No vitest report: the run stopped before the tests finished.')
  else {
    const times = fileTimes(report, root)
    const total = times.reduce((sum, time) => sum + time.seconds, 0)
    const tests = times.reduce((sum, time) => sum + time.tests, 0)
    lines.push(
      `vitest: ${times.length} files, ${tests} tests, ${minutesAndSeconds(total)} of file time in all (files run in parallel).`,
    )
    lines.push(`The ${Math.min(count, times.length)} slowest test files:`)
    const width = Math.max(0, ...times.slice(0, count).map((time) => time.seconds.toFixed(1).length))
    for (const time of times.slice(0, count))
      lines.push(
        `  ${time.seconds.toFixed(1).padStart(width)} s  ${time.file} (${time.tests} test${time.tests === 1 ? '' : 's'}${time.status === 'passed' ? '' : `, ${time.status}`})`,
      )
  }
  lines.push(...cpuLines(cpu ?? [], root, count))
  if (runSeconds !== undefined) {
    lines.push(`.ci/run took ${minutesAndSeconds(runSeconds)}.`)
    const budget = budgetSeconds % 60 === 0 ? `${budgetSeconds / 60}-minute` : `${budgetSeconds}-second`
    if (runSeconds > budgetSeconds)
      lines.push(`!!! .ci/run took ${minutesAndSeconds(runSeconds)}: over the ${budget} budget`)
  }
  return lines
}

const numberOption = (args: readonly string[], name: string): number | undefined => {
  const at = args.indexOf(name)
  if (at === -1) return undefined
  const value = Number(args[at + 1])
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} needs a number, not ${args[at + 1]}`)
  return value
}

function main(args: readonly string[]): void {
  const path = args[0]
  if (path === undefined || path.startsWith('--'))
    throw new Error(
      'usage: slowest-test-files.ts <report.json> [--run-seconds N] [--budget-seconds 600] [--count 10] [--write-seconds FILE]',
    )
  const runSeconds = numberOption(args, '--run-seconds')
  // Where vitest.config.ts has scripts/test-cpu-recorder.ts write each file's CPU.
  const cpuPath = `${path}.cpu.jsonl`
  const lines = summaryLines({
    cpu: existsSync(cpuPath) ? parseCpuRecords(readFileSync(cpuPath, 'utf8')) : [],
    report: existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as unknown) : undefined,
    root: process.cwd(),
    ...(runSeconds === undefined ? {} : { runSeconds }),
    budgetSeconds: numberOption(args, '--budget-seconds') ?? 600,
    count: numberOption(args, '--count') ?? 10,
  })
  process.stdout.write(`${lines.join('\n')}\n`)
  const secondsAt = args.indexOf('--write-seconds')
  const secondsPath = secondsAt === -1 ? undefined : args[secondsAt + 1]
  if (secondsAt !== -1 && secondsPath === undefined) throw new Error('--write-seconds needs a file')
  if (secondsPath !== undefined && existsSync(path)) {
    const times = fileTimes(JSON.parse(readFileSync(path, 'utf8')) as unknown, process.cwd())
      .filter((time) => time.seconds >= 3)
      .sort((a, b) => b.seconds - a.seconds)
    const table = Object.fromEntries(times.map((time) => [time.file, Math.round(time.seconds * 10) / 10]))
    writeFileSync(secondsPath, `${JSON.stringify(table, null, 2)}\n`)
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href)
  main(process.argv.slice(2))
