// What `oqlkit ingest` shows while it works: the records read of those the manifests state, the rate, the
// parse's time left, and that it resumed; the build's step by name.
import type { IngestProgress } from '@oqlkit/ingest'
import { describe, expect, it } from 'vitest'
import { describeProgress, formatDuration } from '../src/commands/ingest-command.ts'

const event = (fields: Partial<IngestProgress>): IngestProgress => ({
  phase: 'read',
  filesDone: 3,
  filesTotal: 10,
  bytesDone: 300,
  bytesTotal: 1_000,
  recordsRead: 69_626,
  recordsTotal: 171_785,
  recordsPerSecond: null,
  parseSecondsLeft: null,
  partsStaged: 3,
  partsResumed: 0,
  entity: 'works',
  file: '/snapshot/works/part_000.gz',
  step: null,
  stepsDone: 0,
  stepsTotal: 40,
  ...fields,
})

describe('the ingest progress label', () => {
  it('says how far the parse is, how fast, and how long it has left', () => {
    expect(describeProgress(event({}))).toStrictEqual([300, 1_000, 'read 69,626 of 171,785 records (works)'])
    expect(describeProgress(event({ recordsPerSecond: 1_650.4, parseSecondsLeft: 61.9 }))[2]).toBe(
      'read 69,626 of 171,785 records (works), 1,650/s, parse 1 min 02 s left',
    )
    expect(describeProgress(event({ recordsPerSecond: 900, parseSecondsLeft: 30, partsResumed: 2 }))[2]).toBe(
      'read 69,626 of 171,785 records (works), 900/s, parse 30 s left, resumed after 2 files',
    )
    expect(describeProgress(event({ recordsTotal: null, recordsPerSecond: 10 }))[2]).toBe(
      'read 69,626 records (works), 10/s',
    )
  })

  it('names the build step, counted in steps', () => {
    expect(
      describeProgress(
        event({ phase: 'build', step: 'entities/works.parquet', stepsDone: 21, entity: null }),
      ),
    ).toStrictEqual([21, 40, 'building entities/works.parquet'])
  })

  it('writes durations as a person reads them', () => {
    expect(formatDuration(0.4)).toBe('0 s')
    expect(formatDuration(59.6)).toBe('1 min 00 s')
    expect(formatDuration(185)).toBe('3 min 05 s')
    expect(formatDuration(7_620)).toBe('2 h 07 min')
  })
})
