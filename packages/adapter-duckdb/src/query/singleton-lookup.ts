// Singletons: one entity by its id or an external id, with merged and deleted ids answered as such. Looked
// up in the order the catalog README gives: the entity table, then merged ids, then deleted ids.

import {
  type CatalogEntityInfo,
  catalogEntityInfoOf,
  foundRecord,
  lookUpMany,
  MISSING_RECORD,
  normalizeExternalId,
  quoteIdentifier,
  shortOpenAlexId,
} from '@oqlkit/catalog'
import type { ExternalIdScheme, LookupKey, LookupOptions, LookupResult, StorageAdapter } from '@oqlkit/engine'
import {
  DELETED_IDS_VIEW,
  EXTERNAL_IDS_VIEW,
  entityView,
  MERGED_IDS_VIEW,
  narrowEntityTable,
} from './catalog-views.ts'
import type { DuckDbConnectionLike } from './duckdb-driver.ts'
import { RECORD_LOCATION_COLUMNS, type RecordFetcher } from './record-fetcher.ts'

// The entity names of the engine (`@oqlkit/oqo-schema`'s EntityType), without depending on that package.
type EntityType = Parameters<StorageAdapter['findById']>[0]

/** What a singleton is looked up in: the connection, how records are read, and how the catalog is served. */
export interface SingletonSource {
  readonly db: DuckDbConnectionLike
  readonly fetchRecords: RecordFetcher
  /** Ids and record locations are read from the indexed narrow tables. */
  readonly narrowTables: boolean
  /**
   * The external ids carry the record's location (a serving database's do, `readExternalIdLocations`), which
   * is read at once instead of looking the id up again.
   */
  readonly locatedExternalIds: boolean
}

// Vocabulary codes are matched case-insensitively (`us` finds `US`); letter ids are stored upper-case.
const idPredicate = (info: CatalogEntityInfo): string =>
  info.idKind === 'letter' ? '"id" = ?' : 'lower("id") = lower(?)'

/** The relation a lookup reads ids and record locations from: the indexed narrow table when there is one. */
const rowsOf = (info: CatalogEntityInfo, narrowTables: boolean): string =>
  narrowTables ? narrowEntityTable(info.entity) : entityView(info.entity)

async function lookupShortId(
  { db, fetchRecords, narrowTables }: SingletonSource,
  info: CatalogEntityInfo,
  short: string,
): Promise<LookupResult> {
  const rows = await db.all(
    `SELECT ${RECORD_LOCATION_COLUMNS('e')} FROM ${rowsOf(info, narrowTables)} AS e WHERE ${idPredicate(info)} LIMIT 1`,
    [short],
  )
  if (rows.length > 0) {
    const [bytes] = await fetchRecords(info.entity, rows)
    return foundRecord(bytes!)
  }
  const merged = await db.all(
    `SELECT new_id FROM ${quoteIdentifier(MERGED_IDS_VIEW)} WHERE entity = ? AND old_id = ? ORDER BY new_id LIMIT 1`,
    [info.entity, short],
  )
  if (merged[0] !== undefined) return { status: 'merged', id: String(merged[0].new_id) }
  const deleted = await db.all(
    `SELECT 1 AS deleted FROM ${quoteIdentifier(DELETED_IDS_VIEW)} WHERE entity = ? AND id = ? LIMIT 1`,
    [info.entity, short],
  )
  return deleted.length > 0 ? { status: 'deleted' } : MISSING_RECORD
}

/** One entity by its OpenAlex id in any form and case (`W123`, `w123`, `https://openalex.org/W123`). */
export async function findEntityById(
  source: SingletonSource,
  entity: EntityType,
  id: string,
): Promise<LookupResult> {
  const info = catalogEntityInfoOf(entity)
  const short = info === undefined ? undefined : shortOpenAlexId(info, id)
  if (info === undefined || short === undefined) return MISSING_RECORD
  return lookupShortId(source, info, short)
}

/** One entity by an external id (DOI, ORCID, ROR, ISSN, PMID, PMCID, MAG, Wikidata) in URL or bare form. */
export async function findEntityByExternalId(
  source: SingletonSource,
  entity: EntityType,
  scheme: ExternalIdScheme,
  value: string,
): Promise<LookupResult> {
  const info = catalogEntityInfoOf(entity)
  const normalised = normalizeExternalId(scheme, value)
  if (info === undefined || normalised === undefined) return MISSING_RECORD
  // The value alone in SQL: DuckDB uses the index on it only for a lone equality (0.55 ms at 1M works; with
  // the entity and scheme beside it, a scan of every row: 10.6 ms). The few rows of one value are sorted here.
  const location = source.locatedExternalIds ? `, ${RECORD_LOCATION_COLUMNS('x')}` : ''
  const rows = await source.db.all(
    `SELECT x.entity, x.scheme, x.id${location} FROM ${quoteIdentifier(EXTERNAL_IDS_VIEW)} AS x WHERE x.value = ?`,
    [normalised],
  )
  // Several records can state one external id (duplicates upstream); the lowest id answers, every time.
  const [first] = rows
    .filter((row) => row.entity === info.entity && row.scheme === scheme)
    .sort((a, b) => (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0))
  if (first === undefined) return MISSING_RECORD
  if (source.locatedExternalIds && first.__ro !== null && first.__ro !== undefined) {
    const [bytes] = await source.fetchRecords(info.entity, [first])
    return foundRecord(bytes!)
  }
  return lookupShortId(source, info, String(first.id))
}

/**
 * A list of values as one parameter: JSON text, read back as a VARCHAR[] in the statement. Ten thousand `?`
 * placeholders would each be bound and the statement prepared anew for every length.
 */
const VALUES_SQL = 'SELECT unnest(from_json(?, \'["VARCHAR"]\')) AS v'

/**
 * Many entities at once, one result per key in the keys' order: as `findEntityById` and
 * `findEntityByExternalId` answer each, in a statement per step for them all (`lookUpMany`) and one read of
 * the records.
 */
export async function findEntities(
  source: SingletonSource,
  entity: EntityType,
  keys: readonly LookupKey[],
  options: LookupOptions = {},
): Promise<LookupResult[]> {
  const info = catalogEntityInfoOf(entity)
  if (info === undefined) return keys.map(() => MISSING_RECORD)
  const { db } = source
  const list = (values: readonly string[]) => JSON.stringify(values)
  return lookUpMany(
    info,
    keys,
    {
      idsOfExternal: async (values) =>
        (
          await db.all(
            `SELECT x.scheme, x.value, min(x.id) AS id FROM ${quoteIdentifier(EXTERNAL_IDS_VIEW)} AS x
           WHERE x.value IN (${VALUES_SQL}) AND x.entity = ? GROUP BY x.scheme, x.value`,
            [list(values), info.entity],
          )
        ).map((row) => ({ scheme: String(row.scheme), value: String(row.value), id: String(row.id) })),
      records: async (ids, wanted) => {
        const rows = await db.all(
          info.idKind === 'letter'
            ? `SELECT ${RECORD_LOCATION_COLUMNS('e')} FROM ${rowsOf(info, source.narrowTables)} AS e WHERE e."id" IN (${VALUES_SQL})`
            : `SELECT ${RECORD_LOCATION_COLUMNS('e')} FROM ${rowsOf(info, source.narrowTables)} AS e WHERE lower(e."id") IN (SELECT lower(v) FROM (${VALUES_SQL}))`,
          [list(ids)],
        )
        const records = await source.fetchRecords(info.entity, rows, wanted)
        return rows.map((row, at) => ({ id: String(row.__id), bytes: records[at]! }))
      },
      // The entity table's ids alone (letter ids only: lookUpMany asks for no other).
      heldIds: async (ids) =>
        (
          await db.all(
            `SELECT e."id" FROM ${rowsOf(info, source.narrowTables)} AS e WHERE e."id" IN (${VALUES_SQL})`,
            [list(ids)],
          )
        ).map((row) => String(row.id)),
      mergedInto: async (ids) =>
        (
          await db.all(
            `SELECT old_id, min(new_id) AS new_id FROM ${quoteIdentifier(MERGED_IDS_VIEW)}
           WHERE entity = ? AND old_id IN (${VALUES_SQL}) GROUP BY old_id`,
            [info.entity, list(ids)],
          )
        ).map((row) => ({ oldId: String(row.old_id), newId: String(row.new_id) })),
      deleted: async (ids) =>
        (
          await db.all(
            `SELECT DISTINCT id FROM ${quoteIdentifier(DELETED_IDS_VIEW)} WHERE entity = ? AND id IN (${VALUES_SQL})`,
            [info.entity, list(ids)],
          )
        ).map((row) => String(row.id)),
    },
    options,
  )
}

/** A uniformly drawn entity of the table. */
export async function findRandomEntity(source: SingletonSource, entity: EntityType): Promise<LookupResult> {
  const info = catalogEntityInfoOf(entity)
  if (info === undefined) return MISSING_RECORD
  // Draw the id first: sampling whole rows would decompress every record of the table.
  const rows = await source.db.all(
    `SELECT "id" FROM ${rowsOf(info, source.narrowTables)} USING SAMPLE reservoir(1 ROWS)`,
  )
  const row = rows[0]
  return row === undefined ? MISSING_RECORD : lookupShortId(source, info, String(row.id))
}
