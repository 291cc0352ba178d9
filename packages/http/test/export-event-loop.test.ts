// An export gives the event loop turns while it parses and encodes a batch: a batch of 1,000 records is read
// and written a slice of 100 at a time, with other work (timers, sockets, other requests) run between slices,
// and the text is the same as the whole batch encoded at once.
import type { EntityRecord, QueryPlan, RowBatch, RowsResult } from '@oqlkit/engine'
import { csvEncoder, jsonArrayEncoder, jsonLinesEncoder, type RowTextEncoder } from '@oqlkit/http'
import { describe, expect, it } from 'vitest'
import { EXPORT_SLICE_MS, EXPORT_SLICE_ROWS, SliceSizer } from '../src/export/event-loop-slices.ts'
import { readExportBatch } from '../src/export/export-batch-reader.ts'
import { textExportBody } from '../src/export/row-export-body.ts'

const ROWS = 1000

/** Records whose top-level fields vary past the first slice, as real records of one entity may. */
const recordsOf = (count: number): EntityRecord[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `https://openalex.org/W${index}`,
    title: `Work "${index}", a title`,
    cited_by_count: index,
    ...(index === 500 ? { late_field: true } : {}),
  }))

const emptyRest = async function* (): AsyncGenerator<RowBatch, void, undefined> {}

/** Counts the turns of the event loop from now until `stop`, which says how many there were. */
const countEventLoopTurns = () => {
  let turns = 0
  let counting = true
  const tick = () => {
    if (!counting) return
    turns++
    setImmediate(tick)
  }
  setImmediate(tick)
  return {
    stop: () => {
      counting = false
      return turns
    },
  }
}

/** Reads an export body whole, counting its chunks and the turns of the event loop taken while it was read. */
const readBody = async (encoder: RowTextEncoder, rows: readonly EntityRecord[], stored = false) => {
  const encoded = new TextEncoder()
  const first: RowBatch = stored
    ? {
        count: rows.length,
        jsonBytes: rows.map((row) => encoded.encode(JSON.stringify(row))),
        get rows(): readonly EntityRecord[] {
          throw new Error('the rows of stored bytes were parsed')
        },
      }
    : { count: rows.length, rows }
  const body = textExportBody(
    {
      first,
      rest: emptyRest(),
      stop: new AbortController(),
      idleMs: 60_000,
      onEnd: () => {},
    },
    encoder,
  )
  const turns = countEventLoopTurns()
  const reader = body.getReader()
  let text = ''
  let chunks = 0
  const decoder = new TextDecoder()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks++
    text += decoder.decode(value, { stream: true })
  }
  return { text, chunks, turns: turns.stop() }
}

describe('an export body', () => {
  it.each([
    ['jsonl', jsonLinesEncoder],
    ['json', jsonArrayEncoder],
  ] as const)(
    'writes stored records as %s from their bytes, without parsing them, to the same text',
    async (_format, encoderOf) => {
      for (const count of [0, 1, ROWS]) {
        const rows = recordsOf(count)
        const sent = await readBody(encoderOf(), rows, true)
        const whole = encoderOf()
        expect(sent.text, `${count} rows`).toBe(whole.rows(rows) + whole.end())
      }
    },
  )

  it.each([
    ['jsonl', jsonLinesEncoder],
    ['json', jsonArrayEncoder],
    ['csv', () => csvEncoder(null)],
  ] as const)(
    'encodes a batch of 1,000 %s rows a slice at a time, giving the event loop turns between slices, to the same text',
    async (_format, encoderOf) => {
      const rows = recordsOf(ROWS)
      const sliced = await readBody(encoderOf(), rows)
      const whole = encoderOf()
      expect(sliced.text).toBe(whole.rows(rows) + whole.end())
      expect(sliced.chunks).toBeGreaterThanOrEqual(ROWS / EXPORT_SLICE_ROWS)
      // Other work ran while the batch was encoded: a turn of the event loop before each slice but the first.
      expect(sliced.turns).toBeGreaterThanOrEqual(ROWS / EXPORT_SLICE_ROWS - 1)
    },
  )

  it('writes the CSV columns of the whole first batch, not of its first slice', async () => {
    const { text } = await readBody(csvEncoder(null), recordsOf(ROWS))
    expect(text.split('\n')[0]).toBe('id,title,cited_by_count,late_field')
  })

  it('still opens and closes an empty export', async () => {
    expect((await readBody(jsonArrayEncoder(), [])).text).toBe('[]\n')
    expect((await readBody(csvEncoder(['id', 'title']), [])).text).toBe('id,title\n')
  })
})

describe('the size of a slice', () => {
  it('fits about EXPORT_SLICE_MS of work, from 1 row to EXPORT_SLICE_ROWS', () => {
    const sizer = new SliceSizer()
    expect(sizer.rows).toBe(EXPORT_SLICE_ROWS)
    // A slow machine: 100 rows took ten times the budget, so the next slice takes a tenth as many.
    sizer.took(100, EXPORT_SLICE_MS * 10)
    expect(sizer.rows).toBe(10)
    sizer.took(10, EXPORT_SLICE_MS * 1000)
    expect(sizer.rows).toBe(1)
    // Fast again: never more than EXPORT_SLICE_ROWS.
    sizer.took(1, 0)
    expect(sizer.rows).toBe(EXPORT_SLICE_ROWS)
    sizer.took(0, 1000)
    expect(sizer.rows).toBe(EXPORT_SLICE_ROWS)
  })
})

describe('reading a batch', () => {
  const plan = {} as QueryPlan

  it('parses stored JSON bytes a slice at a time, without the all-at-once getter', async () => {
    const records = recordsOf(ROWS)
    const encoder = new TextEncoder()
    let gotten = 0
    const result: RowsResult = {
      count: ROWS,
      rowsJsonBytes: records.map((record) => encoder.encode(JSON.stringify(record))),
      get rows() {
        gotten++
        return records
      },
      nextAfter: ['next'],
    }
    const counting = countEventLoopTurns()
    const read = await readExportBatch({ queryRows: async () => result }, plan, {})
    const turns = counting.stop()
    expect(gotten).toBe(0)
    expect(read.rows).toEqual(records)
    expect([read.count, read.nextAfter]).toEqual([ROWS, ['next']])
    expect(turns).toBeGreaterThanOrEqual(ROWS / EXPORT_SLICE_ROWS - 1)
  })

  it('keeps rows an adapter has already made', async () => {
    const result: RowsResult = { count: 1, rows: recordsOf(1), nextAfter: null }
    expect(await readExportBatch({ queryRows: async () => result }, plan, {})).toBe(result)
  })
})
