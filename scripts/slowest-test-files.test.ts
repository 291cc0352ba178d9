// The end-of-run report .ci/run prints: the slowest test files of a vitest JSON report, the run's duration,
// and a loud line past the budget; and the reporter that gives each file its whole time.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  cpuLines,
  fileTimes,
  minutesAndSeconds,
  parseCpuRecords,
  summaryLines,
} from './slowest-test-files.ts'

const REPO = resolve(import.meta.dirname, '..')
const FIXTURE = join(import.meta.dirname, 'fixtures/vitest-report.json')
const report = JSON.parse(readFileSync(FIXTURE, 'utf8')) as unknown

describe('fileTimes', () => {
  it("takes a file's duration when the report gives one, else the span of its tests, the slowest first", () => {
    const times = fileTimes(report, '/repo')
    expect(times).toHaveLength(12)
    expect(times.slice(0, 3)).toEqual([
      { file: 'packages/oql/test/plain-span.test.ts', seconds: 130.5, tests: 1, status: 'passed' },
      { file: 'packages/http/test/openapi-responses.test.ts', seconds: 111.917, tests: 3, status: 'passed' },
      { file: 'packages/cli/test/serve-metering.test.ts', seconds: 94.107, tests: 3, status: 'passed' },
    ])
    expect(times.at(-1)?.file).toBe('packages/http/test/compat-client-calls.test.ts')
  })

  it('refuses what is not a vitest report', () => {
    expect(() => fileTimes({ files: [] }, '/repo')).toThrow(/not a vitest JSON report/)
  })
})

describe('minutesAndSeconds', () => {
  it('writes minutes and two-digit seconds, seconds alone under a minute', () => {
    expect(minutesAndSeconds(751)).toBe('12m31s')
    expect(minutesAndSeconds(600)).toBe('10m00s')
    expect(minutesAndSeconds(59.6)).toBe('1m00s')
    expect(minutesAndSeconds(42)).toBe('42s')
  })
})

describe('summaryLines', () => {
  const summary = (runSeconds?: number) =>
    summaryLines({
      report,
      root: '/repo',
      budgetSeconds: 600,
      count: 10,
      ...(runSeconds === undefined ? {} : { runSeconds }),
    })

  it('lists the ten slowest files with their seconds, and marks a file that failed', () => {
    const lines = summary(420)
    expect(lines[0]).toBe('vitest: 12 files, 34 tests, 8m16s of file time in all (files run in parallel).')
    expect(lines[1]).toBe('The 10 slowest test files:')
    const listed = lines.slice(2, 12)
    expect(listed[0]).toBe('  130.5 s  packages/oql/test/plain-span.test.ts (1 test)')
    expect(listed[4]).toBe('   29.7 s  packages/http/test/query-execute.test.ts (3 tests, failed)')
    expect(listed[9]).toBe('    5.8 s  packages/http/test/collections-filters.test.ts (3 tests)')
    expect(lines.join('\n')).not.toContain('collections-api')
    expect(lines.slice(12)).toEqual(['.ci/run took 7m00s.'])
  })

  it('adds a loud line when the run took longer than the budget, and only then', () => {
    expect(summary(751).slice(-2)).toEqual([
      '.ci/run took 12m31s.',
      '!!! .ci/run took 12m31s: over the 10-minute budget',
    ])
    expect(summary(600).join('\n')).not.toContain('!!!')
    expect(summary(601).at(-1)).toBe('!!! .ci/run took 10m01s: over the 10-minute budget')
  })

  it('says so when there is no report, and still gives the duration and the loud line', () => {
    expect(
      summaryLines({ report: undefined, root: '/repo', runSeconds: 900, budgetSeconds: 600, count: 10 }),
    ).toEqual([
      'No vitest report: the run stopped before the tests finished.',
      '.ci/run took 15m00s.',
      '!!! .ci/run took 15m00s: over the 10-minute budget',
    ])
  })
})

describe('cpuLines', () => {
  const records = parseCpuRecords(
    [
      '{"file":"/repo/packages/a.test.ts","ownSeconds":12.5,"childSeconds":0}',
      '{"file":"/repo/packages/b.test.ts","ownSeconds":3,"childSeconds":40.25}',
      '{"file":"/repo/packages/c.test.ts","own',
      '{"file":"/repo/packages/d.test.ts","ownSeconds":1,"childSeconds":0.01}',
      '',
    ].join('\n'),
  )

  it('reads one record a line and skips a line cut short', () => {
    expect(records.map((record) => record.file)).toEqual([
      '/repo/packages/a.test.ts',
      '/repo/packages/b.test.ts',
      '/repo/packages/d.test.ts',
    ])
  })

  it("lists the costliest files by their own and their children's CPU, with the total", () => {
    expect(cpuLines(records, '/repo', 2)).toEqual([
      "CPU: 57s in the test files (their workers' and child processes'); the 2 costliest:",
      '  43.3 s  packages/b.test.ts (40.3 s in child processes)',
      '  12.5 s  packages/a.test.ts',
    ])
    expect(cpuLines([], '/repo', 10)).toEqual([])
  })

  it('come before the run time in the summary', () => {
    const lines = summaryLines({
      report,
      root: '/repo',
      budgetSeconds: 600,
      count: 1,
      cpu: records,
      runSeconds: 60,
    })
    expect(lines.slice(-3)).toEqual([
      "CPU: 57s in the test files (their workers' and child processes'); the 1 costliest:",
      '  43.3 s  packages/b.test.ts (40.3 s in child processes)',
      '.ci/run took 1m00s.',
    ])
  })
})

describe('the command', () => {
  const run = (args: readonly string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'scripts/slowest-test-files.ts'), ...args], {
      cwd: REPO,
      encoding: 'utf8',
    })

  it('prints the summary of a report file as .ci/run calls it', () => {
    const result = run([FIXTURE, '--run-seconds', '751', '--count', '3'])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      'vitest: 12 files, 34 tests, 8m16s of file time in all (files run in parallel).',
      'The 3 slowest test files:',
      '  130.5 s  /repo/packages/oql/test/plain-span.test.ts (1 test)',
      '  111.9 s  /repo/packages/http/test/openapi-responses.test.ts (3 tests)',
      '   94.1 s  /repo/packages/cli/test/serve-metering.test.ts (3 tests)',
      '.ci/run took 12m31s.',
      '!!! .ci/run took 12m31s: over the 10-minute budget',
    ])
  })

  it('reports a missing report file instead of failing, and refuses a bad number', () => {
    const missing = run([join(tmpdir(), 'oqlkit-no-such-report.json'), '--run-seconds', '30'])
    expect(missing.status).toBe(0)
    expect(missing.stdout).toBe(
      'No vitest report: the run stopped before the tests finished.\n.ci/run took 30s.\n',
    )
    const bad = run([FIXTURE, '--run-seconds', 'soon'])
    expect(bad.status).not.toBe(0)
    expect(bad.stderr).toContain('--run-seconds needs a number, not soon')
  })
})

// The reporter .ci/run's vitest writes the report with: a file's duration includes its beforeAll, which the
// span of its tests leaves out.
describe('TimedJsonReporter', () => {
  it('gives each file the time of its hooks and imports too, not the span of its tests alone', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-timed-report-'))
    try {
      writeFileSync(
        join(scratch, 'slow-setup.test.ts'),
        [
          "import { beforeAll, expect, it } from 'vitest'",
          'beforeAll(() => new Promise((done) => setTimeout(done, 700)))',
          "it('is quick itself', () => expect(1).toBe(1))",
          '',
        ].join('\n'),
      )
      const reporter = join(REPO, 'scripts/timed-json-reporter.ts')
      writeFileSync(
        join(scratch, 'vitest.config.ts'),
        [
          `import { TimedJsonReporter } from ${JSON.stringify(reporter)}`,
          `const outputFile = ${JSON.stringify(join(scratch, 'report.json'))}`,
          "export default { test: { reporters: ['default', new TimedJsonReporter({ outputFile })] } }",
          '',
        ].join('\n'),
      )
      const vitest = spawnSync(
        process.execPath,
        [join(REPO, 'node_modules/vitest/vitest.mjs'), 'run', '--root', scratch],
        { cwd: scratch, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
      )
      expect(vitest.status, vitest.stderr + vitest.stdout).toBe(0)
      const written = JSON.parse(readFileSync(join(scratch, 'report.json'), 'utf8')) as {
        testResults: { name: string; duration: number; startTime: number; endTime: number }[]
      }
      const [file] = written.testResults
      expect(file?.name).toBe(join(scratch, 'slow-setup.test.ts'))
      expect(file?.duration).toBeGreaterThanOrEqual(700)
      expect((file?.endTime ?? 0) - (file?.startTime ?? 0)).toBeLessThan(700)
      expect(fileTimes(written, scratch)[0]).toMatchObject({ file: 'slow-setup.test.ts', tests: 1 })
      expect(fileTimes(written, scratch)[0]?.seconds).toBeGreaterThanOrEqual(0.7)
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  })
})
