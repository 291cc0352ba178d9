// Many entities at once (`StorageAdapter.findMany`), the same on every storage: each key's id (an OpenAlex id
// read as a singleton's is, or an external id's record, the lowest of several), then the records of those
// ids, then the merged and deleted ids of those not found, each step one statement for every key. An adapter
// gives the statements (`BulkLookupSteps`); the order of the answer and what each key gets are decided here.
import type { LookupKey, LookupOptions, LookupResult } from '@oqlkit/engine'
import type { CatalogEntityInfo } from '../layout/catalog-entities.ts'
import { normalizeExternalId } from '../layout/external-id-schemes.ts'
import { OPENALEX_ID_BASE, shortOpenAlexId } from '../layout/openalex-id-normalizer.ts'
import { foundRecord, MISSING_RECORD } from './lookup-results.ts'
import type { RecordParts } from './record-codec.ts'

/** The statements of a bulk lookup of one entity, each over a list of values. */
export interface BulkLookupSteps {
  /** The lowest id of the entity's records stating each value (normalised), whatever its scheme. */
  idsOfExternal(values: readonly string[]): Promise<readonly { scheme: string; value: string; id: string }[]>
  /**
   * The records of these ids (vocabulary codes matched without case), as stored, each with its id; a work's
   * abstract may be `null` when `wanted.abstract` is false.
   */
  records(ids: readonly string[], wanted: RecordParts): Promise<readonly { id: string; bytes: Uint8Array }[]>
  /**
   * Those of these ids (of an entity whose ids are a letter and a number) that have a record, without reading
   * it: a lookup that wants ids alone (`fields` of `id` only). Optional: without it the records are read.
   */
  heldIds?(ids: readonly string[]): Promise<readonly string[]>
  /** The id each of these was merged into, for those that were. */
  mergedInto(ids: readonly string[]): Promise<readonly { oldId: string; newId: string }[]>
  /** Those of these ids that were deleted. */
  deleted(ids: readonly string[]): Promise<readonly string[]>
  /**
   * The most values one statement takes (default: all of them): ClickHouse's client sends parameters in the
   * URL, which a server caps (`http_max_uri_size`, 1 MiB by default).
   */
  readonly maxValues?: number
}

/** A step over `values`, a statement per `size` of them, the rows of all. */
const inChunks = async <T>(
  values: readonly string[],
  size: number,
  step: (chunk: readonly string[]) => Promise<readonly T[]>,
): Promise<T[]> => {
  const rows: T[] = []
  for (let at = 0; at < values.length; at += size) rows.push(...(await step(values.slice(at, at + size))))
  return rows
}

const utf8 = new TextEncoder()

/** A record of its id alone: `{"id":"https://openalex.org/W123"}`, as a stored record's id reads. */
const idOnlyRecord = (shortId: string): Uint8Array =>
  utf8.encode(`{"id":${JSON.stringify(`${OPENALEX_ID_BASE}${shortId}`)}}`)

/** One result per key, in the keys' order: found, merged, deleted or missing, as a single lookup answers. */
export async function lookUpMany(
  info: CatalogEntityInfo,
  keys: readonly LookupKey[],
  steps: BulkLookupSteps,
  options: Pick<LookupOptions, 'fields'> = {},
): Promise<LookupResult[]> {
  const results: LookupResult[] = keys.map(() => MISSING_RECORD)
  const size = Math.max(1, steps.maxValues ?? Number.MAX_SAFE_INTEGER)
  const each = <T>(values: readonly string[], step: (chunk: readonly string[]) => Promise<readonly T[]>) =>
    inChunks(values, size, step)
  const shortIds: (string | undefined)[] = keys.map((key) =>
    key.kind === 'openalex' ? shortOpenAlexId(info, key.id) : undefined,
  )
  // The keys of each external id, by scheme and normalised value.
  const externals = new Map<string, number[]>()
  const externalKey = (scheme: string, value: string) => `${scheme}\u0000${value}`
  const values = new Set<string>()
  keys.forEach((key, at) => {
    if (key.kind !== 'external') return
    const value = normalizeExternalId(key.scheme, key.value)
    if (value === undefined) return
    values.add(value)
    const text = externalKey(key.scheme, value)
    externals.set(text, [...(externals.get(text) ?? []), at])
  })
  if (values.size > 0)
    for (const row of await each([...values], (chunk) => steps.idsOfExternal(chunk)))
      for (const at of externals.get(externalKey(row.scheme, row.value)) ?? []) shortIds[at] = row.id

  const fold = (id: string) => (info.idKind === 'letter' ? id : id.toLowerCase())
  const wanted = [...new Set(shortIds.filter((id): id is string => id !== undefined))]
  if (wanted.length === 0) return results
  const { heldIds } = steps
  const { fields } = options
  const idsOnly = fields?.every((field) => field === 'id') === true
  const parts: RecordParts = { abstract: fields === undefined || fields.includes('abstract_inverted_index') }
  // Ids alone, where a record's id is the OpenAlex URL of its short id: each found entity is that id, unread.
  const found =
    idsOnly && heldIds !== undefined && info.idKind === 'letter'
      ? (await each(wanted, (chunk) => heldIds.call(steps, chunk))).map((id) => ({
          id,
          bytes: idOnlyRecord(id),
        }))
      : await each(wanted, (chunk) => steps.records(chunk, parts))
  const recordOf = new Map(found.map((row) => [fold(row.id), row.bytes]))
  const unfound = wanted.filter((id) => !recordOf.has(fold(id)))
  const merged = new Map(
    (await each(unfound, (chunk) => steps.mergedInto(chunk))).map((row) => [row.oldId, row.newId]),
  )
  const rest = unfound.filter((id) => !merged.has(id))
  const deleted = new Set(await each(rest, (chunk) => steps.deleted(chunk)))
  shortIds.forEach((id, at) => {
    if (id === undefined) return
    const record = recordOf.get(fold(id))
    const newId = merged.get(id)
    results[at] =
      record !== undefined
        ? foundRecord(record)
        : newId !== undefined
          ? { status: 'merged', id: newId }
          : deleted.has(id)
            ? { status: 'deleted' }
            : MISSING_RECORD
  })
  return results
}
