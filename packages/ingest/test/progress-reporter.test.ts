// The ingest's progress states the parse's rate and the time it has left, counted from this run's own parse
// (a resumed run's parts are not parsed again and must not inflate the rate). A clock given by the test
// stands in for the time that passes.

import { catalogEntityInfo } from '@oqlkit/catalog'
import { describe, expect, it } from 'vitest'
import type { IngestProgress } from '../src/ingest-progress.ts'
import type { SnapshotPart, SnapshotPlan } from '../src/plan/snapshot-plan.ts'
import { ProgressReporter } from '../src/progress-reporter.ts'

const part = (name: string, expectedRecords: number | null): SnapshotPart => ({
  entity: catalogEntityInfo('works')!,
  path: `/snapshot/works/${name}`,
  relativePath: `works/${name}`,
  format: 'jsonl',
  partitionDate: '2025-01-01',
  bytes: 1_000,
  expectedRecords,
  manifestPath: '/snapshot/works/manifest',
  manifestLine: undefined,
})

const planOf = (parts: SnapshotPart[]): SnapshotPlan => ({
  layout: 'legacy',
  snapshotDir: '/snapshot',
  root: '/snapshot',
  parts,
  idFiles: [],
  warnings: [],
})

function reporterWithClock(plan: SnapshotPlan) {
  let now = 0
  const events: IngestProgress[] = []
  const reporter = new ProgressReporter(
    plan,
    (event) => events.push(event),
    () => now,
  )
  return { reporter, events, at: (ms: number) => (now = ms) }
}

describe('ingest progress while parsing (a test clock)', () => {
  it('states the records a second and the parse time left, once it has parsed a while', () => {
    const { reporter, events, at } = reporterWithClock(planOf([part('a', 3_000), part('b', 1_000)]))
    reporter.parsing()
    at(1_000)
    reporter.reading('/snapshot/works/a', 'works', 500)
    expect(events.at(-1)).toMatchObject({
      recordsTotal: 4_000,
      recordsPerSecond: null,
      parseSecondsLeft: null,
    })
    at(4_000)
    reporter.reading('/snapshot/works/a', 'works', 1_000)
    expect(events.at(-1)).toMatchObject({ recordsPerSecond: 250, parseSecondsLeft: 12 })
    // Outside the parse there is no rate: the build's steps are not records.
    reporter.building('entities/works.parquet', 0, 10)
    expect(events.at(-1)).toMatchObject({ recordsPerSecond: null, parseSecondsLeft: null })
  })

  it('counts the rate from this run: parts a stopped run parsed are not this run’s speed', () => {
    const { reporter, events, at } = reporterWithClock(planOf([part('a', 3_000), part('b', 1_000)]))
    reporter.resumed(1_000, 3_000)
    expect(events.at(-1)).toMatchObject({ recordsRead: 3_000, partsResumed: 1, recordsPerSecond: null })
    at(10_000)
    reporter.parsing()
    at(14_000)
    reporter.reading('/snapshot/works/b', 'works', 3_500)
    expect(events.at(-1)).toMatchObject({ recordsPerSecond: 125, parseSecondsLeft: 4 })
  })

  it('leaves the time unsaid when a manifest does not state a part’s records', () => {
    const { reporter, events, at } = reporterWithClock(planOf([part('a', 3_000), part('b', null)]))
    reporter.parsing()
    at(5_000)
    reporter.reading('/snapshot/works/a', 'works', 1_000)
    expect(events.at(-1)).toMatchObject({ recordsTotal: null, recordsPerSecond: 200, parseSecondsLeft: null })
  })
})
