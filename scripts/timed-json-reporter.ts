// vitest's JSON reporter, each file's entry given `duration`: the milliseconds the file held its worker, from
// importing it through its last afterAll. The plain report's per-file startTime/endTime span the tests alone,
// so a catalog ingested in beforeAll, often most of a file's time, would not show in it.
// vitest.config.ts uses it when OQLKIT_TEST_REPORT names the report's path (.ci/run sets it); then
// scripts/slowest-test-files.ts reads the report.
import { JsonReporter, type TestModule } from 'vitest/node'

/** The milliseconds a test module took in all: setting up, importing (collecting), then its hooks and tests. */
export const moduleMilliseconds = (module: TestModule): number => {
  const times = module.diagnostic()
  return (
    times.environmentSetupDuration +
    times.prepareDuration +
    times.collectDuration +
    times.setupDuration +
    times.duration
  )
}

export class TimedJsonReporter extends JsonReporter {
  readonly #durations = new Map<string, number>()

  override async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    for (const module of testModules) this.#durations.set(module.moduleId, moduleMilliseconds(module))
    await super.onTestRunEnd(testModules)
  }

  override async writeReport(report: string): Promise<void> {
    const parsed = JSON.parse(report) as { testResults?: { name: string; duration?: number }[] }
    for (const file of parsed.testResults ?? []) {
      const duration = this.#durations.get(file.name)
      if (duration !== undefined) file.duration = Math.round(duration)
    }
    await super.writeReport(JSON.stringify(parsed))
  }
}
