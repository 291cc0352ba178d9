// The ingest's worker thread: reads one part file at a time (or the records of the catalog being updated),
// parses each record once, and writes two files per task: the records compressed for the record store (a
// segment, concatenated into the entity's store once every task is done) and one JSON line per record with
// every value the catalog derives from it (record-extractor.ts), which DuckDB loads in parallel. The main
// thread only schedules tasks and runs DuckDB, so parsing and compression use every core.
import { closeSync, openSync, readSync, writeSync } from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import type { CatalogEntity } from '../catalog/catalog-entities.ts'
import { catalogEntityInfo } from '../catalog/catalog-entities.ts'
import { RecordCodec } from '../catalog/record-codec.ts'
import { IngestError, type IngestErrorContext } from './ingest-error.ts'
import { readTextLines } from './line-reader.ts'
import type { RecordExtractionSpec } from './record-extraction-spec.ts'
import { type RecordExtractor, recordExtractorOf } from './record-extractor.ts'
import { parseSnapshotLine } from './snapshot-line-parser.ts'

interface TaskBase {
  /** The task's number: its segment's place in the entity's record store. */
  readonly index: number
  readonly entity: CatalogEntity
  readonly segmentPath: string
  readonly rowsPath: string
  readonly dictionary: Uint8Array
  /** The `seq` of the task's first record; the rest follow in reading order. */
  readonly seqBase: number
}

export interface PartTask extends TaskBase {
  readonly kind: 'part'
  /** The file read (a JSON Lines conversion for a Parquet part). */
  readonly path: string
  /** The file errors name (the part as the snapshot has it). */
  readonly reportPath: string
  readonly partitionDate: string | null
}

/** The records of the catalog being updated, read from its record store in store order. */
export interface PreviousTask extends TaskBase {
  readonly kind: 'previous'
  readonly storePath: string
  readonly offsets: Float64Array
  readonly lengths: Int32Array
  /**
   * Each record's partition date, as an index into `dates`: a catalog holds a few hundred distinct dates,
   * and a string per record would cost hundreds of megabytes at 10M records.
   */
  readonly dateIndexes: Uint16Array
  readonly dates: readonly (string | null)[]
}

export type ParseTask = PartTask | PreviousTask

export type ParseReply =
  | { readonly kind: 'progress'; readonly index: number; readonly records: number }
  | {
      readonly kind: 'done'
      readonly index: number
      readonly records: number
      readonly rewritten: number
      readonly segmentBytes: number
      /** The longest row line written, in bytes (DuckDB's reader is sized by it). */
      readonly longestRow: number
    }
  | {
      readonly kind: 'failed'
      readonly index: number
      readonly error: IngestErrorContext | { message: string }
    }

export interface ParseWorkerData {
  readonly specs: Readonly<Record<CatalogEntity, RecordExtractionSpec>>
}

const PROGRESS_EVERY = 5_000
/** Bytes gathered before a write: large writes, bounded memory. */
const FLUSH_BYTES = 4 << 20

/** Appends to a file through a buffer of pending chunks. */
class BufferedFile {
  readonly #fd: number
  #pending: Buffer[] = []
  #pendingBytes = 0
  written = 0

  constructor(path: string) {
    this.#fd = openSync(path, 'w')
  }

  write(chunk: Buffer): void {
    this.#pending.push(chunk)
    this.#pendingBytes += chunk.length
    this.written += chunk.length
    if (this.#pendingBytes >= FLUSH_BYTES) this.flush()
  }

  flush(): void {
    if (this.#pendingBytes === 0) return
    const joined = Buffer.concat(this.#pending, this.#pendingBytes)
    let at = 0
    while (at < joined.length) at += writeSync(this.#fd, joined, at)
    this.#pending = []
    this.#pendingBytes = 0
  }

  close(): void {
    this.flush()
    closeSync(this.#fd)
  }
}

const { specs } = workerData as ParseWorkerData
const extractors = new Map<CatalogEntity, RecordExtractor>()
const extractorOf = (entity: CatalogEntity): RecordExtractor => {
  let extractor = extractors.get(entity)
  if (extractor === undefined) {
    extractor = recordExtractorOf(specs[entity])
    extractors.set(entity, extractor)
  }
  return extractor
}

interface StagedValues {
  readonly seq: number
  readonly id: string
  readonly openalexId: string
  readonly partitionDate: string | null
  readonly updatedDate: string | null
  readonly record: Record<string, unknown>
}

async function run(task: ParseTask): Promise<ParseReply> {
  const extract = extractorOf(task.entity)
  const codec = new RecordCodec(Buffer.from(task.dictionary))
  const segment = new BufferedFile(task.segmentPath)
  const rows = new BufferedFile(task.rowsPath)
  let records = 0
  let rewritten = 0
  let longestRow = 0
  const stage = (values: StagedValues, blob: Buffer) => {
    const row = {
      seq: values.seq,
      id: values.id,
      openalex_id: values.openalexId,
      partition_date: values.partitionDate,
      updated_date: values.updatedDate,
      record_part: task.index,
      record_offset: segment.written,
      record_bytes: blob.length,
      ...extract(values.record),
    }
    segment.write(blob)
    const line = Buffer.from(`${JSON.stringify(row)}\n`)
    if (line.length > longestRow) longestRow = line.length
    rows.write(line)
    records++
    if (records % PROGRESS_EVERY === 0)
      parentPort!.postMessage({ kind: 'progress', index: task.index, records })
  }
  try {
    if (task.kind === 'part') {
      const info = catalogEntityInfo(task.entity)!
      for await (const { lineNumber, text } of readTextLines(task.path)) {
        const parsed = parseSnapshotLine(info, text, task.reportPath, lineNumber)
        if (parsed === null) continue
        if (parsed instanceof IngestError) throw parsed
        if (parsed.rewritten) rewritten++
        stage(
          {
            seq: task.seqBase + records,
            id: parsed.id,
            openalexId: parsed.openalexId,
            partitionDate: task.partitionDate,
            updatedDate: parsed.updatedDate,
            record: parsed.record,
          },
          codec.encode(parsed.text),
        )
      }
    } else {
      const info = catalogEntityInfo(task.entity)!
      const store = openSync(task.storePath, 'r')
      try {
        for (let row = 0; row < task.offsets.length; row++) {
          const blob = Buffer.allocUnsafe(task.lengths[row]!)
          if (readSync(store, blob, 0, blob.length, task.offsets[row]!) !== blob.length)
            throw new Error(`the record store ${task.storePath} is shorter than its catalog says`)
          const text = Buffer.from(codec.decode(blob)).toString('utf8')
          const parsed = parseSnapshotLine(info, text, task.storePath, row + 1)
          if (parsed === null || parsed instanceof IngestError)
            throw new Error(`record ${row + 1} of ${task.storePath} is not a record of ${task.entity}`)
          // The record's bytes are kept as they are: the catalog being updated wrote them with this dictionary.
          stage(
            {
              seq: task.seqBase + records,
              id: parsed.id,
              openalexId: parsed.openalexId,
              partitionDate: task.dates[task.dateIndexes[row]!] ?? null,
              updatedDate: parsed.updatedDate,
              record: parsed.record,
            },
            blob,
          )
        }
      } finally {
        closeSync(store)
      }
    }
  } catch (error) {
    segment.close()
    rows.close()
    if (error instanceof IngestError)
      return {
        kind: 'failed',
        index: task.index,
        error: {
          code: error.code,
          file: error.file,
          detail: error.detail,
          ...(error.line === undefined ? {} : { line: error.line }),
        },
      }
    return { kind: 'failed', index: task.index, error: { message: (error as Error).message } }
  }
  segment.close()
  rows.close()
  return { kind: 'done', index: task.index, records, rewritten, segmentBytes: segment.written, longestRow }
}

parentPort!.on('message', (task: ParseTask) => {
  run(task).then(
    (reply) => parentPort!.postMessage(reply),
    (error: unknown) =>
      parentPort!.postMessage({ kind: 'failed', index: task.index, error: { message: String(error) } }),
  )
})
