// Parses snapshot part files, on whichever thread runs it: a parse worker (part-parse-worker.ts), or the
// main thread for a snapshot too small to be worth a worker's start (part-parse-pool.ts). It reads one part
// file at a time, parses each record once, and writes two files per task: the records compressed for the
// record store (a segment, concatenated into the entity's store once every task is done) and one JSON line
// per record with every value the catalog derives from it (record-extractor.ts), which DuckDB loads. A JSON
// Lines part is read as lines (gunzipped here); a Parquet part as its rows' JSON text, through a DuckDB of
// the parser's own (parquet-row-reader.ts).
import { isUtf8 } from 'node:buffer'
import { closeSync, openSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import type { CatalogEntity } from '@oqlkit/catalog/records'
import { catalogEntityInfo, type RecordCodecId, recordCodecOf } from '@oqlkit/catalog/records'
import { IngestError, type IngestErrorContext } from '../ingest-error.ts'
import { readTextLines, type TextLine } from './line-reader.ts'
import type { ParquetRowReader } from './parquet-row-reader.ts'
import type { RecordExtractionSpec } from './record-extraction-spec.ts'
import { type ExtractedValues, type RecordExtractor, recordExtractorOf } from './record-extractor.ts'
import { parseSnapshotLine } from './snapshot-line-parser.ts'

/** One part file to parse. */
export interface ParseTask {
  /** The task's number: its segment's place in the entity's record store. */
  readonly index: number
  readonly entity: CatalogEntity
  readonly segmentPath: string
  readonly rowsPath: string
  /** How the entity's records are compressed (recordCodecOf). */
  readonly codec: RecordCodecId
  readonly dictionary: Uint8Array
  /** The `seq` of the task's first record; the rest follow in reading order. */
  readonly seqBase: number
  /** The part file, as the snapshot has it (errors name it). */
  readonly path: string
  readonly format: 'jsonl' | 'parquet'
  readonly partitionDate: string | null
}

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

/**
 * The pool's last message to a worker: finish the record in hand, close the files, and exit. The pool asks
 * rather than terminates because Node 20 aborts the whole process when a worker is terminated between
 * creating a zlib handle and initialising it, and the deflate record codec creates one per record.
 */
export interface StopRequest {
  readonly kind: 'stop'
}

export interface ParseWorkerData {
  readonly specs: Readonly<Record<CatalogEntity, RecordExtractionSpec>>
  /** The DuckDB `memory_limit` of the worker's Parquet reader, opened on its first Parquet part. */
  readonly parquetMemoryLimit: string
  /** Where those readers spill, if they must: each in a folder of its own below it. */
  readonly parquetTempDirectory: string
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

export interface StagedValues {
  readonly seq: number
  readonly id: string
  readonly openalexId: string
  readonly partitionDate: string | null
  readonly updatedDate: string | null
  readonly record: Record<string, unknown>
}

/** Where a record lies in the entity's record store: its segment (the task's number), offset and length. */
interface RecordPlace {
  readonly part: number
  readonly offset: number
  readonly bytes: number
}

/**
 * The staged row's JSON line: the record's own columns, then the values extracted from it (whose names
 * never repeat these). Written out rather than spread into one object first: the copy of the hundred-odd
 * extracted values made a row twice as costly to write (~25 µs a work).
 */
export function stagedRowLine(values: StagedValues, place: RecordPlace, extracted: ExtractedValues): string {
  const rest = JSON.stringify(extracted)
  const head =
    `{"seq":${values.seq},"id":${JSON.stringify(values.id)},"openalex_id":${JSON.stringify(values.openalexId)}` +
    `,"partition_date":${JSON.stringify(values.partitionDate)},"updated_date":${JSON.stringify(values.updatedDate)}` +
    `,"record_part":${place.part},"record_offset":${place.offset},"record_bytes":${place.bytes}`
  return `${head}${rest === '{}' ? '}' : `,${rest.slice(1)}`}\n`
}

export type ParseDone = Extract<ParseReply, { kind: 'done' }>

export interface ParseListener {
  /**
   * What a task costs (its compressed bytes, say): the costliest start first, so that a big part does not
   * start last and run alone while the other workers wait (longest-processing-time-first). The results and
   * the files are the same in any order.
   */
  readonly cost?: (task: ParseTask) => number
  /** Records read so far by a running task. */
  readonly onProgress?: (task: ParseTask, records: number) => void
  /**
   * Called as each task finishes. When it returns a promise (the task's rows being loaded, say), the pool
   * resolves only once that has settled too, and its rejection fails the pool like a worker's error.
   */
  readonly onDone?: (task: ParseTask, done: ParseDone) => void | Promise<void>
  /** How each worker thread ended: 0 when it stopped as asked, 1 when it had to be terminated. */
  readonly onWorkerExit?: (exitCode: number) => void
}

/** How a parse ends: done, or failed (progress is told along the way, not returned). */
export type ParseOutcome = Exclude<ParseReply, { kind: 'progress' }>

/** The error a failed parse describes: the input's `IngestError`, or the machine's failure. */
export const errorOfFailedParse = ({ error }: Extract<ParseReply, { kind: 'failed' }>): Error =>
  'code' in error ? new IngestError(error) : new Error(error.message)

/** What a running parse tells and asks. */
export interface ParseHooks {
  readonly onProgress?: (records: number) => void
  readonly stopRequested?: () => boolean
}

/** The parser of one thread: its record extractors and its Parquet reader are made once and reused. */
export class PartParser {
  readonly #data: ParseWorkerData
  /** The folder name of its Parquet reader's spill directory, unique among the run's parsers. */
  readonly #readerName: string
  readonly #extractors = new Map<CatalogEntity, RecordExtractor>()
  #parquetReader: Promise<ParquetRowReader> | undefined

  constructor(data: ParseWorkerData, readerName: string) {
    this.#data = data
    this.#readerName = readerName
  }

  /**
   * Parses one task's part file into its segment and rows files. Never throws: a failure is the reply.
   * `onProgress` hears the records read every few thousand; `stopRequested` is asked between records, and a
   * part stopped short is abandoned with the run.
   */
  async parse(task: ParseTask, hooks: ParseHooks = {}): Promise<ParseOutcome> {
    try {
      return await this.#parse(task, hooks)
    } catch (error) {
      return { kind: 'failed', index: task.index, error: { message: String(error) } }
    }
  }

  /** Closes the Parquet reader, if a Parquet part opened one. */
  async close(): Promise<void> {
    const reader = this.#parquetReader
    this.#parquetReader = undefined
    if (reader !== undefined) await reader.then((opened) => opened.close()).catch(() => {})
  }

  async #recordsOf(task: ParseTask): Promise<AsyncIterable<TextLine>> {
    if (task.format === 'jsonl') return readTextLines(task.path)
    // Loaded on the first Parquet part: the reader brings DuckDB and the catalog's SQL, which a worker that
    // parses JSON Lines never needs (they were most of its start-up).
    this.#parquetReader ??= import('./parquet-row-reader.ts').then(({ ParquetRowReader }) =>
      ParquetRowReader.open(
        this.#data.parquetMemoryLimit,
        join(this.#data.parquetTempDirectory, this.#readerName),
      ),
    )
    return (await this.#parquetReader).rows(task.path)
  }

  #extractorOf(entity: CatalogEntity): RecordExtractor {
    let extractor = this.#extractors.get(entity)
    if (extractor === undefined) {
      extractor = recordExtractorOf(this.#data.specs[entity])
      this.#extractors.set(entity, extractor)
    }
    return extractor
  }

  async #parse(task: ParseTask, hooks: ParseHooks): Promise<ParseOutcome> {
    const extract = this.#extractorOf(task.entity)
    const codec = recordCodecOf(task.codec, Buffer.from(task.dictionary))
    const segment = new BufferedFile(task.segmentPath)
    const rows = new BufferedFile(task.rowsPath)
    let records = 0
    let rewritten = 0
    let longestRow = 0
    const stage = (values: StagedValues, blob: Buffer) => {
      const line = Buffer.from(
        stagedRowLine(
          values,
          { part: task.index, offset: segment.written, bytes: blob.length },
          extract(values.record),
        ),
      )
      segment.write(blob)
      if (line.length > longestRow) longestRow = line.length
      rows.write(line)
      records++
      if (records % PROGRESS_EVERY === 0) hooks.onProgress?.(records)
    }
    try {
      const info = catalogEntityInfo(task.entity)!
      for await (const { lineNumber, text, bytes } of await this.#recordsOf(task)) {
        // Stop requests arrive between the file's chunks; the unread rest is abandoned with the pool's run.
        if (hooks.stopRequested?.() === true) break
        const parsed = parseSnapshotLine(info, text, task.path, lineNumber)
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
          // The line's own bytes when they are the text's (not rewritten, valid UTF-8: a decoder replaces an
          // invalid sequence, which the stored record must too): encoding 16 KB again cost a work ~20 µs.
          codec.encode(!parsed.rewritten && bytes !== undefined && isUtf8(bytes) ? bytes : parsed.text),
        )
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
}
