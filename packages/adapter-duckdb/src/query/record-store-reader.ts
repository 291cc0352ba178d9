// Reads records from a catalog's record stores by position: one positioned read and one decompression per
// record, whatever the size of the table. File handles and dictionaries are opened on first use and kept.
import { type FileHandle, open, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { CatalogEntity } from '../catalog/catalog-entities.ts'
import type { CatalogManifest, CatalogRecordStore } from '../catalog/catalog-layout.ts'
import { isCatalogRelativePath } from '../catalog/catalog-manifest-reader.ts'
import { checkRecordCodecId, type RecordCodec, recordCodecOf } from '../catalog/record-codec.ts'

/** Where a record is: the `record_offset` and `record_bytes` columns of its row. */
export interface RecordLocation {
  readonly offset: number
  readonly bytes: number
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

  /** The records (UTF-8 JSON bytes) at these locations, in the same order. */
  async read(entity: CatalogEntity, locations: readonly RecordLocation[]): Promise<Uint8Array[]> {
    if (locations.length === 0) return []
    const { file, codec } = await this.#store(entity)
    return Promise.all(
      locations.map(async ({ offset, bytes }) => {
        const buffer = Buffer.allocUnsafe(bytes)
        const { bytesRead } = await file.read(buffer, 0, bytes, offset)
        if (bytesRead !== bytes)
          throw new Error(
            `The record store of ${entity} is shorter than catalog.json says (offset ${offset})`,
          )
        return codec.decode(buffer)
      }),
    )
  }

  async close(): Promise<void> {
    const opened = [...this.#open.values()]
    this.#open.clear()
    for (const store of await Promise.allSettled(opened))
      if (store.status === 'fulfilled') await store.value.file.close()
  }
}
