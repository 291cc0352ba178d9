// Singletons on ClickHouse: one entity by its OpenAlex id (then merged ids, then deleted ids, in the order the
// catalog README gives), by an external id, or at random. Every value is a query parameter; table names come
// from the catalog's entity list. Records come back as RowBinary: the stored JSON bytes, passed on as they are.
import type { ClickHouseClient } from '@clickhouse/client'
import {
  type CatalogEntityInfo,
  catalogEntityInfoOf,
  foundRecord,
  lookUpMany,
  MISSING_RECORD,
  normalizeExternalId,
  shortOpenAlexId,
} from '@oqlkit/catalog'
import type { ExternalIdScheme, LookupKey, LookupResult, QueryOptions, StorageAdapter } from '@oqlkit/engine'
import { selectStringRows } from './clickhouse-driver.ts'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import { entityTableName, recordsTableName } from './clickhouse-schema.ts'

type EntityType = Parameters<StorageAdapter['findById']>[0]

/** The served version's database, and the client that reaches it. */
export interface SingletonSource {
  readonly client: ClickHouseClient
  readonly database: string
}

const table = (source: SingletonSource, name: string) =>
  `${quoteIdentifier(source.database)}.${quoteIdentifier(name)}`

/**
 * The values of a query whose columns are non-null Strings, by RowBinary (no escaping either way; a
 * Nullable column would put a null flag before each value, so queries select `assumeNotNull` of those). A
 * fired signal stops the request and rejects with the engine's `QueryInterruptedError`.
 */
const stringRows = async (
  source: SingletonSource,
  query: string,
  params: Record<string, unknown>,
  columns: number,
  options?: QueryOptions,
): Promise<Uint8Array[][]> => {
  const signal = options?.signal
  return selectStringRows(source.client, query, columns, {
    params,
    ...(signal === undefined ? {} : { signal }),
  })
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

const lookupShortId = async (
  source: SingletonSource,
  info: CatalogEntityInfo,
  short: string,
  options?: QueryOptions,
): Promise<LookupResult> => {
  // Vocabulary codes match without case (`us` finds `US`); letter ids are stored upper-case, and an
  // equality on the key reads one granule of the records table.
  const predicate = info.idKind === 'letter' ? 'id = {id:String}' : 'lower(id) = lower({id:String})'
  const [record] = await stringRows(
    source,
    `SELECT record FROM ${table(source, recordsTableName(info.entity))} WHERE ${predicate} LIMIT 1`,
    { id: short },
    1,
    options,
  )
  if (record !== undefined) return foundRecord(record[0]!)
  const [merged] = await stringRows(
    source,
    `SELECT assumeNotNull(new_id) FROM ${table(source, 'merged_ids')} WHERE entity = {entity:String} AND old_id = {id:String} AND new_id IS NOT NULL ORDER BY new_id LIMIT 1`,
    { entity: info.entity, id: short },
    1,
    options,
  )
  if (merged !== undefined) return { status: 'merged', id: text(merged[0]!) }
  const [deleted] = await stringRows(
    source,
    `SELECT id FROM ${table(source, 'deleted_ids')} WHERE entity = {entity:String} AND id = {id:String} LIMIT 1`,
    { entity: info.entity, id: short },
    1,
    options,
  )
  return deleted === undefined ? MISSING_RECORD : { status: 'deleted' }
}

/** One entity by its OpenAlex id in any form and case (`W123`, `w123`, `https://openalex.org/W123`). */
export const findEntityById = async (
  source: SingletonSource,
  entity: EntityType,
  id: string,
  options?: QueryOptions,
): Promise<LookupResult> => {
  const info = catalogEntityInfoOf(entity)
  const short = info === undefined ? undefined : shortOpenAlexId(info, id)
  if (info === undefined || short === undefined) return MISSING_RECORD
  return lookupShortId(source, info, short, options)
}

/** One entity by an external id in URL or bare form; of several records stating it, the lowest id answers. */
export const findEntityByExternalId = async (
  source: SingletonSource,
  entity: EntityType,
  scheme: ExternalIdScheme,
  value: string,
  options?: QueryOptions,
): Promise<LookupResult> => {
  const info = catalogEntityInfoOf(entity)
  const normalised = normalizeExternalId(scheme, value)
  if (info === undefined || normalised === undefined) return MISSING_RECORD
  const [first] = await stringRows(
    source,
    `SELECT assumeNotNull(id) AS id FROM ${table(source, 'external_ids')} WHERE scheme = {scheme:String} AND value = {value:String} AND entity = {entity:String} AND id IS NOT NULL ORDER BY id LIMIT 1`,
    { scheme, value: normalised, entity: info.entity },
    1,
    options,
  )
  return first === undefined ? MISSING_RECORD : lookupShortId(source, info, text(first[0]!), options)
}

/** Many entities at once, one result per key in order: a statement per step for them all (`lookUpMany`). */
export const findEntities = async (
  source: SingletonSource,
  entity: EntityType,
  keys: readonly LookupKey[],
  options?: QueryOptions,
): Promise<LookupResult[]> => {
  const info = catalogEntityInfoOf(entity)
  if (info === undefined) return keys.map(() => MISSING_RECORD)
  const rows = (query: string, params: Record<string, unknown>, columns: number) =>
    stringRows(source, query, { entity: info.entity, ...params }, columns, options)
  return lookUpMany(info, keys, {
    // Parameters travel in the URL: 1,000 DOIs are some 40 KB of it, far from a server's 1 MiB.
    maxValues: 1000,
    idsOfExternal: async (values) =>
      (
        await rows(
          `SELECT scheme, value, assumeNotNull(min(id)) FROM ${table(source, 'external_ids')} WHERE entity = {entity:String} AND value IN {values:Array(String)} AND id IS NOT NULL GROUP BY scheme, value`,
          { values },
          3,
        )
      ).map(([scheme, value, id]) => ({ scheme: text(scheme!), value: text(value!), id: text(id!) })),
    records: async (ids) =>
      (
        await rows(
          `SELECT id, record FROM ${table(source, recordsTableName(info.entity))} WHERE ${info.idKind === 'letter' ? 'id IN {ids:Array(String)}' : 'lower(id) IN arrayMap(x -> lower(x), {ids:Array(String)})'}`,
          { ids },
          2,
        )
      ).map(([id, record]) => ({ id: text(id!), bytes: record! })),
    mergedInto: async (ids) =>
      (
        await rows(
          `SELECT old_id, assumeNotNull(min(new_id)) FROM ${table(source, 'merged_ids')} WHERE entity = {entity:String} AND old_id IN {ids:Array(String)} AND new_id IS NOT NULL GROUP BY old_id`,
          { ids },
          2,
        )
      ).map(([oldId, newId]) => ({ oldId: text(oldId!), newId: text(newId!) })),
    deleted: async (ids) =>
      (
        await rows(
          `SELECT DISTINCT id FROM ${table(source, 'deleted_ids')} WHERE entity = {entity:String} AND id IN {ids:Array(String)}`,
          { ids },
          1,
        )
      ).map(([id]) => text(id!)),
  })
}

/** A uniformly drawn entity: a random position among the rows, then the id there. */
export const findRandomEntity = async (
  source: SingletonSource,
  entity: EntityType,
  options?: QueryOptions,
): Promise<LookupResult> => {
  const info = catalogEntityInfoOf(entity)
  if (info === undefined) return MISSING_RECORD
  const rows = table(source, entityTableName(info.entity))
  // count() of a MergeTree table is read from its parts' metadata; the offset reads ids only up to the row.
  const [counted] = await stringRows(source, `SELECT toString(count()) FROM ${rows}`, {}, 1, options)
  const count = Number(text(counted![0]!))
  if (count === 0) return MISSING_RECORD
  const [drawn] = await stringRows(
    source,
    `SELECT id FROM ${rows} LIMIT 1 OFFSET {offset:UInt64}`,
    { offset: Math.floor(Math.random() * count) },
    1,
    options,
  )
  return drawn === undefined ? MISSING_RECORD : lookupShortId(source, info, text(drawn[0]!), options)
}
