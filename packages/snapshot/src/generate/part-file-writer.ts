// Streams the records of one entity into legacy-layout part files:
//   <dataDir>/<entity>/updated_date=YYYY-MM-DD/part_NNN.gz   gzipped JSON Lines, at most recordsPerPart lines
//   <dataDir>/<entity>/manifest                              written by finish(), in the format of
//                                                            sample/legacy-snapshot-writer.ts
// Unlike that writer (which holds an entity in memory and gzips at level 9), lines are gzipped as they come,
// by zlib on libuv's thread pool, so compression runs on another core while the next records are built.
// Output is deterministic: the same lines in the same order give the same bytes (the gzip header's mtime
// and OS byte are pinned after the stream closes; deflate's output does not depend on how its input is cut
// into writes, so lines given as strings or as UTF-8 bytes from a worker thread give the same file).
import {
  closeSync,
  createWriteStream,
  mkdirSync,
  openSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { createGzip, type Gzip } from 'node:zlib'
import {
  renderManifest,
  SNAPSHOT_URL_PREFIX,
  type WrittenEntity,
  type WrittenPart,
} from '../sample/legacy-snapshot-writer.ts'

/** Bytes gathered before they go to zlib in one write. */
const CHUNK_BYTES = 4 << 20
/**
 * Chunks handed to zlib and not yet compressed, per part. Waiting for 'drain' instead would wait until zlib
 * is idle, and the record building and the compression would take turns instead of overlapping.
 */
const CHUNKS_IN_FLIGHT = 3
/** UTF-8 needs at most 3 bytes per UTF-16 code unit. */
const MAX_UTF8_PER_UNIT = 3
const NEWLINE = 0x0a
/**
 * zlib's hash table at its largest (memLevel 9, 256 kB more per open part): 4% more throughput than the
 * default 8 at the same size on generated works. Measured on 96 MB of them (node:zlib, one core, median of 9):
 *   level 1  126 MB/s  4.88x   (the default: the generator is CPU-bound and gzip is 25-30% of its CPU)
 *   level 2  119 MB/s  5.03x   3% smaller files for 6% more gzip time
 *   level 3  104 MB/s  5.19x   6% smaller files for 21% more gzip time
 *   (level 6, zlib's default: 48 MB/s, 5.99x)
 * At 10M works (176 GB of JSON) level 1 is about 23 min of CPU for 36 GB, level 3 about 28 min for 34 GB.
 */
const GZIP_MEM_LEVEL = 9
/** zlib output per callback: larger than the 16 kB default, so a 4 MB chunk's output takes 4 calls, not 50. */
const GZIP_CHUNK_BYTES = 256 << 10
const GZIP_MTIME_OFFSET = 4
const GZIP_OS_OFFSET = 9
const GZIP_OS_UNIX = 3

export interface PartWriterOptions {
  readonly recordsPerPart: number
  readonly gzipLevel: number
}

interface OpenPart {
  readonly path: string
  readonly gzip: Gzip
  readonly done: Promise<void>
  records: number
  buffer: Buffer
  used: number
  readonly inFlight: Array<Promise<void>>
}

export class EntityPartWriter {
  readonly entity: string
  readonly #dataDir: string
  readonly #options: PartWriterOptions
  readonly #open = new Map<string, OpenPart>()
  readonly #nextIndex = new Map<string, number>()
  readonly #parts: WrittenPart[] = []
  /**
   * Chunks zlib is done with, for the next ones: a new 4 MB buffer per chunk is outside memory V8 accounts
   * for with a full garbage collection every few chunks.
   */
  readonly #spareChunks: Buffer[] = []

  constructor(dataDir: string, entity: string, options: PartWriterOptions) {
    this.entity = entity
    this.#dataDir = dataDir
    this.#options = options
  }

  /**
   * Adds one record (a JSON line without its newline) to the partition of `date` (`YYYY-MM-DD`). Returns a
   * promise only when the caller must wait (zlib's buffer is full, or a part file is being finished).
   */
  write(date: string, line: string): Promise<void> | undefined {
    const part = this.#open.get(date) ?? this.#openPart(date)
    const worst = line.length * MAX_UTF8_PER_UNIT + 1
    let waiting: Promise<void> | undefined
    if (part.used + worst > part.buffer.length) {
      waiting = this.#flush(part)
      if (worst > part.buffer.length) part.buffer = Buffer.allocUnsafe(worst)
    }
    part.used += part.buffer.write(line, part.used)
    part.buffer[part.used++] = NEWLINE
    return this.#counted(date, part, waiting)
  }

  /** Like write(), for a record already encoded as UTF-8, its newline included. */
  writeEncoded(date: string, record: Uint8Array): Promise<void> | undefined {
    const part = this.#open.get(date) ?? this.#openPart(date)
    let waiting: Promise<void> | undefined
    if (part.used + record.length > part.buffer.length) {
      waiting = this.#flush(part)
      if (record.length > part.buffer.length) part.buffer = Buffer.allocUnsafe(record.length)
    }
    part.buffer.set(record, part.used)
    part.used += record.length
    return this.#counted(date, part, waiting)
  }

  #counted(date: string, part: OpenPart, waiting: Promise<void> | undefined): Promise<void> | undefined {
    part.records++
    if (part.records === this.#options.recordsPerPart) {
      const closing = this.#closePart(date, part)
      // Both are awaited together: chained with then, a flush that failed would leave the close's own
      // failure with no handler.
      return waiting === undefined ? closing : Promise.all([waiting, closing]).then(() => {})
    }
    return waiting
  }

  /** Closes every open part and writes the manifest. */
  async finish(): Promise<WrittenEntity> {
    for (const [date, part] of [...this.#open.entries()]) await this.#closePart(date, part)
    mkdirSync(join(this.#dataDir, this.entity), { recursive: true })
    const parts = [...this.#parts].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    const written: WrittenEntity = {
      entity: this.entity,
      parts,
      recordCount: parts.reduce((sum, part) => sum + part.recordCount, 0),
      contentLength: parts.reduce((sum, part) => sum + part.contentLength, 0),
    }
    writeFileSync(join(this.#dataDir, this.entity, 'manifest'), renderManifest(written))
    return written
  }

  #openPart(date: string): OpenPart {
    const index = this.#nextIndex.get(date) ?? 0
    this.#nextIndex.set(date, index + 1)
    const path = `${this.entity}/updated_date=${date}/part_${String(index).padStart(3, '0')}.gz`
    mkdirSync(join(this.#dataDir, this.entity, `updated_date=${date}`), { recursive: true })
    const gzip = createGzip({
      level: this.#options.gzipLevel,
      memLevel: GZIP_MEM_LEVEL,
      chunkSize: GZIP_CHUNK_BYTES,
    })
    const done = pipeline(gzip, createWriteStream(join(this.#dataDir, ...path.split('/'))))
    // pipeline's promise is awaited in #closePart; until then a failure must not go unhandled.
    done.catch(() => undefined)
    const part: OpenPart = {
      path,
      gzip,
      done,
      records: 0,
      buffer: this.#chunk(),
      used: 0,
      inFlight: [],
    }
    this.#open.set(date, part)
    return part
  }

  /** Hands the buffered bytes to zlib; waits only when too many chunks are still being compressed. */
  async #flush(part: OpenPart): Promise<void> {
    if (part.used === 0) return
    const full = part.buffer
    const chunk = full.subarray(0, part.used)
    part.buffer = this.#chunk()
    part.used = 0
    const compressed = new Promise<void>((resolve, reject) => {
      part.gzip.write(chunk, (error) => {
        if (error) return reject(error)
        // zlib has read the chunk (its output is in buffers of its own): reuse it. A larger one, made
        // for an outsized record, is left to the collector.
        if (full.length === CHUNK_BYTES) this.#spareChunks.push(full)
        resolve()
      })
    })
    // Awaited below or at close; until then a failure must not count as unhandled.
    compressed.catch(() => undefined)
    part.inFlight.push(compressed)
    if (part.inFlight.length > CHUNKS_IN_FLIGHT) await part.inFlight.shift()
  }

  #chunk(): Buffer {
    return this.#spareChunks.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES)
  }

  async #closePart(date: string, part: OpenPart): Promise<void> {
    this.#open.delete(date)
    await this.#flush(part)
    await Promise.all(part.inFlight.splice(0))
    part.gzip.end()
    await part.done
    const file = join(this.#dataDir, ...part.path.split('/'))
    pinGzipHeader(file)
    this.#parts.push({
      path: part.path,
      url: SNAPSHOT_URL_PREFIX + part.path,
      contentLength: statSync(file).size,
      recordCount: part.records,
    })
  }
}

/** zlib writes mtime 0 but its build's OS byte; pin both so every platform writes the same bytes. */
function pinGzipHeader(file: string): void {
  const fd = openSync(file, 'r+')
  try {
    writeSync(fd, new Uint8Array(4), 0, 4, GZIP_MTIME_OFFSET)
    writeSync(fd, new Uint8Array([GZIP_OS_UNIX]), 0, 1, GZIP_OS_OFFSET)
  } finally {
    closeSync(fd)
  }
}
