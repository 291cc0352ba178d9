// Reads records from a catalog's record stores by position: a positioned read per run of nearby records and
// one decompression per record, whatever the size of the table. File handles and dictionaries are opened on first use and kept.
import { type FileHandle, open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import type { CatalogEntity } from '../layout/catalog-entities.ts'
import type { CatalogManifest, CatalogRecordStore } from '../layout/catalog-layout.ts'
import { isCatalogRelativePath } from '../layout/catalog-manifest-reader.ts'
import { checkRecordCodecId, type RecordCodec, type RecordParts, recordCodecOf } from './record-codec.ts'

/** Where a record is: the `record_offset` and `record_bytes` columns of its row. */
export interface RecordLocation {
  readonly offset: number
  readonly bytes: number
}

/**
 * Records decompressed between two turns of the event loop: a page of a list (25) is one slice; a record
 * decompresses in about 50 µs on an idle core, so a slice holds the main thread a few ms.
 */
const DECODE_SLICE_RECORDS = 50

/** The largest gap between two records that one read spans rather than two reads (bytes read for nothing). */
const SPAN_GAP_BYTES = 16 * 1024

/** The most one read takes, however close the records lie. */
const SPAN_MAX_BYTES = 4 * 1024 * 1024

/** One positioned read and the records (indexes into the locations) that lie in it. */
interface ReadSpan {
  readonly offset: number
  bytes: number
  readonly records: number[]
}

/** The locations grouped into reads: by offset, a record joining the read before it when it lies close. */
const spansOf = (locations: readonly RecordLocation[]): ReadSpan[] => {
  const order = locations.map((_, index) => index).sort((a, b) => locations[a]!.offset - locations[b]!.offset)
  const spans: ReadSpan[] = []
  let span: ReadSpan | undefined
  for (const index of order) {
    const { offset, bytes } = locations[index]!
    const end = offset + bytes
    if (
      span !== undefined &&
      offset - (span.offset + span.bytes) <= SPAN_GAP_BYTES &&
      end - span.offset <= SPAN_MAX_BYTES
    ) {
      span.bytes = Math.max(span.bytes, end - span.offset)
      span.records.push(index)
    } else {
      span = { offset, bytes, records: [index] }
      spans.push(span)
    }
  }
  return spans
}

interface OpenStore {
  readonly file: FileHandle
  readonly codec: RecordCodec
}

export class RecordStoreReader {
  readonly #catalogDir: string
  readonly #stores: ReadonlyMap<CatalogEntity, CatalogRecordStore>
  readonly #open = new Map<CatalogEntity, Promise<OpenStore>>()

  constructor(catalogDir: string, manifest: CatalogManifest) {
    this.#catalogDir = catalogDir
    const stores = new Map<CatalogEntity, CatalogRecordStore>()
    for (const [entity, table] of Object.entries(manifest.entities) as [
      CatalogEntity,
      CatalogManifest['entities'][CatalogEntity],
    ][]) {
      const store = table.recordStore
      // A codec this version cannot read is refused at open, not at the first request for the records.
      checkRecordCodecId(store.codec, store.file)
      if (!isCatalogRelativePath(store.file) || !isCatalogRelativePath(store.dictionary))
        throw new Error(`catalog.json names a record store outside the catalog: ${store.file}`)
      stores.set(entity, store)
    }
    this.#stores = stores
  }

  #store(entity: CatalogEntity): Promise<OpenStore> {
    let opened = this.#open.get(entity)
    if (opened === undefined) {
      const store = this.#stores.get(entity)
      if (store === undefined)
        return Promise.reject(new Error(`The catalog has no record store for ${entity}`))
      const path = (relative: string) => join(this.#catalogDir, ...relative.split('/'))
      opened = Promise.all([open(path(store.file), 'r'), readFile(path(store.dictionary))]).then(
        ([file, dictionary]) => ({
          file,
          codec: recordCodecOf(checkRecordCodecId(store.codec, store.file), dictionary),
        }),
      )
      // A failed open is not cached: the next request tries again.
      opened.catch(() => this.#open.delete(entity))
      this.#open.set(entity, opened)
    }
    return opened
  }

  /**
   * The records (UTF-8 JSON bytes) at these locations, in the same order. Records that lie close together in
   * the store are read with one positioned read (an export's batch of 1,000 is mostly one run of the file:
   * a read per record was a third of its main-thread time); a large batch is decompressed a slice at a time,
   * with a turn of the event loop between slices, so that decompressing it never holds the main thread for
   * more than a slice while other requests wait.
   */
  async read(
    entity: CatalogEntity,
    locations: readonly RecordLocation[],
    wanted?: RecordParts,
  ): Promise<Uint8Array[]> {
    if (locations.length === 0) return []
    const { file, codec } = await this.#store(entity)
    const compressed: Uint8Array[] = new Array(locations.length)
    await Promise.all(
      spansOf(locations).map(async (span) => {
        const buffer = Buffer.allocUnsafe(span.bytes)
        const { bytesRead } = await file.read(buffer, 0, span.bytes, span.offset)
        if (bytesRead !== span.bytes)
          throw new Error(
            `The record store of ${entity} is shorter than catalog.json says (offset ${span.offset})`,
          )
        for (const index of span.records) {
          const { offset, bytes } = locations[index]!
          compressed[index] = buffer.subarray(offset - span.offset, offset - span.offset + bytes)
        }
      }),
    )
    const records: Uint8Array[] = new Array(locations.length)
    for (let start = 0; start < compressed.length; start += DECODE_SLICE_RECORDS) {
      if (start > 0) await nextTurn()
      const end = Math.min(compressed.length, start + DECODE_SLICE_RECORDS)
      for (let index = start; index < end; index++) records[index] = codec.decode(compressed[index]!, wanted)
    }
    return records
  }

  async close(): Promise<void> {
    const opened = [...this.#open.values()]
    this.#open.clear()
    for (const store of await Promise.allSettled(opened))
      if (store.status === 'fulfilled') await store.value.file.close()
  }
}
