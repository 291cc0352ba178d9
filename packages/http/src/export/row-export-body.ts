import { createReadStream } from 'node:fs'
import { mkdtemp, open, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { type EntityRecord, type RowBatch, RowShapes, type ShapedColumn } from '@oqlkit/engine'
import type { EntityType } from '@oqlkit/oqo-schema'
import { SliceSizer, yieldToEventLoop } from './event-loop-slices.ts'
import { registryShapesOf } from './registry-column-shapes.ts'
import type { RowTextEncoder } from './row-text-encoder.ts'

/**
 * Writes JSON Lines to Parquet (`writeJsonLinesAsParquet` of the DuckDB adapter, given by the server), with
 * the columns' types when they are given (`columns`, in order; every row's values fit them).
 */
export type ParquetWriter = (
  source: string,
  target: string,
  rows: number,
  options: {
    readonly signal?: AbortSignal
    readonly emptyColumns?: readonly string[]
    readonly columns?: readonly ShapedColumn[]
    /** Where the converter may spill what outgrows its memory. */
    readonly tempDirectory?: string
  },
) => Promise<void>

/** How an export's body ended: every row sent, failed on the server's side, or cancelled by the client. */
export type ExportEnd =
  | { readonly kind: 'done'; readonly rows: number }
  | { readonly kind: 'failed'; readonly rows: number; readonly error: unknown }
  | { readonly kind: 'cancelled'; readonly rows: number }

export interface ExportBodyParts {
  /** The batch already read (it gave the count and the price), then the rest of the stream. */
  readonly first: RowBatch
  readonly rest: AsyncGenerator<RowBatch, void, undefined>
  /** Fired when the client goes away or stops reading: interrupts the storage call running. */
  readonly stop: AbortController
  /** The longest the body waits for the client to ask for more before it gives up (ms). */
  readonly idleMs: number
  /** Called once, when the body ends however it ends. */
  readonly onEnd: (end: ExportEnd) => void
}

/**
 * A pull stream over batches: a batch is read only when the client has taken the text of the last one, so a
 * slow client holds one batch, never the result. A client that goes away cancels it: the storage call running
 * is interrupted and no more are made. A client that stops reading for `idleMs` is given up on the same way.
 * `produce` adds the next chunk (and counts the rows it holds), and says when that was the last; it must add
 * something unless it is done, since a pull that adds nothing is not called again.
 */
const pullBody = (
  parts: ExportBodyParts,
  produce: (
    controller: ReadableStreamDefaultController<Uint8Array>,
    sent: (rows: number) => void,
  ) => Promise<'more' | 'done'>,
  cleanup: () => Promise<void> = async () => {},
): ReadableStream<Uint8Array> => {
  let ended = false
  let rows = 0
  let idle: ReturnType<typeof setTimeout> | undefined
  const finish = (end: ExportEnd) => {
    clearTimeout(idle)
    if (ended) return
    ended = true
    parts.stop.abort()
    parts.rest.return().catch(() => {})
    cleanup().catch(() => {})
    parts.onEnd(end)
  }
  const sent = (count: number) => {
    rows += count
  }
  const waitForReader = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    idle = setTimeout(() => {
      controller.error(new Error(`the client read nothing for ${parts.idleMs / 1000} s`))
      finish({ kind: 'cancelled', rows })
    }, parts.idleMs)
  }
  return new ReadableStream<Uint8Array>(
    {
      // A body nobody starts reading is given up on as one whose reader stopped.
      start: (controller) => waitForReader(controller),
      pull: async (controller) => {
        clearTimeout(idle)
        try {
          if ((await produce(controller, sent)) === 'done') {
            controller.close()
            finish({ kind: 'done', rows })
            return
          }
        } catch (error) {
          if (ended) return
          controller.error(error)
          finish({ kind: 'failed', rows, error })
          return
        }
        waitForReader(controller)
      },
      cancel: () => finish({ kind: 'cancelled', rows }),
    },
    { highWaterMark: 0 },
  )
}

/** The batches of an export in order: the one already read, then the rest. */
const batchesOf = async function* (parts: ExportBodyParts): AsyncGenerator<RowBatch, void, undefined> {
  yield parts.first
  yield* parts.rest
}

/**
 * The body of a CSV, JSON Lines or JSON export: each batch encoded as text when the client asks for it, a slice
 * a pull (at most `EXPORT_SLICE_ROWS` rows, about `EXPORT_SLICE_MS` of work), with a turn of the event loop
 * before each slice but the first. Encoding a batch of 1,000 records at once held the main thread for tens to
 * hundreds of ms, during which no other request was answered and no deadline fired; a slice holds it for a few.
 */
export const textExportBody = (
  parts: ExportBodyParts,
  encoder: RowTextEncoder,
): ReadableStream<Uint8Array> => {
  const bytes = new TextEncoder()
  const batches = batchesOf(parts)
  /** The batch being encoded, and where its next slice starts; undefined when the next batch is to be read. */
  let batch: readonly EntityRecord[] | undefined
  let from = 0
  let begun = false
  let slices = 0
  const sizer = new SliceSizer()
  // A pull that enqueues nothing is not called again: each one encodes slices until it has text to send.
  return pullBody(parts, async (controller, sent) => {
    for (;;) {
      if (batch === undefined) {
        const next = await batches.next()
        if (next.done === true) {
          const end = encoder.end()
          if (end !== '') controller.enqueue(bytes.encode(end))
          return 'done'
        }
        // Stored records a JSON form writes as they are: one chunk, no parse, no stringify, so no slices.
        const stored = next.value.jsonBytes
        if (stored !== undefined && encoder.jsonRecords !== undefined) {
          begun = true
          sent(stored.length)
          if (stored.length === 0) continue
          controller.enqueue(encoder.jsonRecords(stored))
          return 'more'
        }
        batch = next.value.rows
        from = 0
        if (!begun) encoder.begin?.(batch)
        begun = true
      }
      if (slices++ > 0) await yieldToEventLoop()
      // An empty batch (an empty result's only one) is one empty slice: it may still open the document.
      const began = performance.now()
      const slice = batch.slice(from, from + sizer.rows)
      from += slice.length
      if (from >= batch.length) batch = undefined
      const text = encoder.rows(slice)
      sizer.took(slice.length, performance.now() - began)
      sent(slice.length)
      if (text !== '') {
        controller.enqueue(bytes.encode(text))
        return 'more'
      }
    }
  })
}

/**
 * The body of a Parquet export. Parquet is written whole (its footer indexes the file), so the rows are first
 * streamed to a JSON Lines file in a folder of its own, one batch at a time, then converted, then sent; the
 * folder is removed however the body ends (the converter spills into it too). As each batch is written, the
 * columns' types are learnt from its rows, starting from those the registry gives `entity`'s fields
 * (`registryShapesOf`), so the converter reads the file once with declared types rather than reading it whole
 * to infer them, and a field keeps its registry type where every value is null. `select` names the columns, in
 * order, also those of an empty result.
 */
export const parquetExportBody = (
  parts: ExportBodyParts,
  writeParquet: ParquetWriter,
  select: readonly string[] | null,
  entity: EntityType,
): ReadableStream<Uint8Array> => {
  let folder: string | undefined
  let file: AsyncIterator<Buffer> | undefined
  let sentRows = 0
  return pullBody(
    parts,
    async (controller, sent) => {
      if (file === undefined) {
        folder = await mkdtemp(join(tmpdir(), 'oqlkit-export-'))
        const source = join(folder, 'rows.jsonl')
        const target = join(folder, 'rows.parquet')
        const out = await open(source, 'w')
        const shapes = new RowShapes(select ?? [], registryShapesOf(entity))
        let rows = 0
        try {
          for await (const batch of batchesOf(parts)) {
            if (batch.rows.length === 0) continue
            shapes.add(batch.rows)
            await out.write(batch.rows.map((row) => `${JSON.stringify(row)}\n`).join(''))
            rows += batch.rows.length
          }
        } finally {
          await out.close()
        }
        const columns = shapes.columns()
        await writeParquet(source, target, rows, {
          signal: parts.stop.signal,
          ...(select === null ? {} : { emptyColumns: select }),
          ...(columns.length === 0 ? {} : { columns }),
          tempDirectory: join(folder, 'spill'),
        })
        sentRows = rows
        file = (createReadStream(target) as Readable)[Symbol.asyncIterator]()
      }
      const chunk = await file.next()
      if (chunk.done === true) {
        sent(sentRows)
        return 'done'
      }
      controller.enqueue(new Uint8Array(chunk.value))
      return 'more'
    },
    async () => {
      await file?.return?.()
      if (folder !== undefined) await rm(folder, { recursive: true, force: true })
    },
  )
}
