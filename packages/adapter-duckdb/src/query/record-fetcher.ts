// How the adapter gets the records of rows it has chosen: rows carry `__id`, `__ro` and `__rb` (the record's
// id, offset and length in the record store). Two ways to read them, one contract: from the record store by
// position (a catalog on disk), or by id from the entity view's `record` column (a connection without the
// catalog's files, as in tests with a fake database).
import type { CatalogEntity, RecordParts, RecordStoreReader } from '@oqlkit/catalog'
import { paramList, raw, sql, toStatement } from '@oqlkit/catalog'
import { entityView } from './catalog-views.ts'
import type { DuckDbConnectionLike, DuckDbRow } from './duckdb-driver.ts'

/** The records (UTF-8 JSON bytes) of the rows, in the rows' order (a work's abstract `null` where not `wanted`). */
export type RecordFetcher = (
  entity: CatalogEntity,
  rows: readonly DuckDbRow[],
  wanted?: RecordParts,
) => Promise<Uint8Array[]>

/** The columns a statement selects so that its rows can be fetched (`e` is the entity's alias). */
export const RECORD_LOCATION_COLUMNS = (alias: string): string =>
  `${alias}."id" AS __id, ${alias}.record_offset AS __ro, ${alias}.record_bytes AS __rb`

export const storeRecordFetcher =
  (reader: RecordStoreReader): RecordFetcher =>
  (entity, rows, wanted) =>
    reader.read(
      entity,
      rows.map((row) => ({ offset: Number(row.__ro), bytes: Number(row.__rb) })),
      wanted,
    )

export const sqlRecordFetcher =
  (db: DuckDbConnectionLike): RecordFetcher =>
  async (entity, rows) => {
    if (rows.length === 0) return []
    const ids = rows.map((row) => String(row.__id))
    const statement = toStatement(
      sql`SELECT "id" AS __id, record AS __record FROM ${raw(entityView(entity))} WHERE "id" IN (${paramList(ids)})`,
    )
    const found = new Map(
      (await db.all(statement.sql, statement.params)).map((row) => [String(row.__id), String(row.__record)]),
    )
    return ids.map((id) => {
      const text = found.get(id)
      if (text === undefined) throw new Error(`The record of ${id} vanished between two statements`)
      return utf8.encode(text)
    })
  }

const utf8 = new TextEncoder()
const utf8Decoder = new TextDecoder()

/** A stored record's bytes as the object they write. */
export const parseJsonBytes = (bytes: Uint8Array): unknown => JSON.parse(utf8Decoder.decode(bytes))
