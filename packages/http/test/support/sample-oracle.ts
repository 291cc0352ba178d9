// The expected side of the contract tests: the bundled sample snapshot read straight from its part files
// with node:zlib, kept in memory, and asked with plain JavaScript. It deliberately imports nothing of the
// code under test (no adapter, engine or OQL code), so a test that compares the API with it compares two
// independent readings of the same records.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'

export { SAMPLE_SNAPSHOT_DIR }

export const ID_BASE = 'https://openalex.org/'

/** The 21 entity paths of the API (`GET /{entities}`). */
export const ENTITY_PATHS = [
  'works',
  'authors',
  'sources',
  'institutions',
  'topics',
  'keywords',
  'publishers',
  'funders',
  'awards',
  'domains',
  'fields',
  'subfields',
  'sdgs',
  'countries',
  'continents',
  'languages',
  'work-types',
  'source-types',
  'institution-types',
  'licenses',
  'concepts',
] as const

export type EntityPath = (typeof ENTITY_PATHS)[number]

export type SampleRecord = Readonly<Record<string, unknown>>

interface LoadedEntity {
  readonly records: readonly SampleRecord[]
  readonly byKey: ReadonlyMap<string, SampleRecord>
}

/** `https://openalex.org/W12` → `W12`; `https://openalex.org/source-types/book%20series` → `book series`. */
export function shortId(id: unknown): string {
  const text = String(id)
  const slash = text.lastIndexOf('/')
  const last = slash === -1 ? text : text.slice(slash + 1)
  try {
    return decodeURIComponent(last)
  } catch {
    return last
  }
}

/** The key an id is compared by: its last path segment, without case. */
export const idKey = (id: unknown): string => shortId(id).toLowerCase()

const partitionDate = (folder: string): string => folder.slice('updated_date='.length)

function readMergedIds(entity: string): Map<string, { into: string; date: string }> {
  const merged = new Map<string, { into: string; date: string }>()
  const dir = join(SAMPLE_SNAPSHOT_DIR, 'merged_ids', entity)
  if (!existsSync(dir)) return merged
  for (const name of readdirSync(dir).sort()) {
    const file = join(dir, name)
    if (!statSync(file).isFile()) continue
    const bytes = readFileSync(file)
    const text = name.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8')
    for (const line of text.split('\n').slice(1)) {
      const [date, id, into] = line.trim().split(',')
      if (date && id && into) merged.set(id.toUpperCase(), { into: into.toUpperCase(), date })
    }
  }
  return merged
}

function readDeletedIds(entity: string): Map<string, string> {
  const deleted = new Map<string, string>()
  for (const name of ['deleted_ids.csv', 'deleted_ids.csv.gz']) {
    const file = join(SAMPLE_SNAPSHOT_DIR, entity, name)
    if (!existsSync(file)) continue
    const bytes = readFileSync(file)
    const text = name.endsWith('.gz') ? gunzipSync(bytes).toString('utf8') : bytes.toString('utf8')
    for (const line of text.split('\n').slice(1)) {
      const [id, date] = line.trim().split(',')
      if (id && date) deleted.set(shortId(id).toUpperCase(), date)
    }
  }
  return deleted
}

function loadEntity(entity: string): LoadedEntity {
  const dir = join(SAMPLE_SNAPSHOT_DIR, entity)
  // Newest partition wins, as the snapshot format states a record lives in the partition of its latest update.
  const newest = new Map<string, { record: SampleRecord; partition: string }>()
  if (existsSync(dir)) {
    for (const folder of readdirSync(dir)
      .filter((name) => name.startsWith('updated_date='))
      .sort()) {
      for (const part of readdirSync(join(dir, folder)).sort()) {
        const text = gunzipSync(readFileSync(join(dir, folder, part))).toString('utf8')
        for (const line of text.split('\n')) {
          if (line.trim() === '') continue
          // Records copied from search pages carry a stale relevance_score; it is not part of the entity.
          const { relevance_score: _stale, ...record } = JSON.parse(line) as Record<string, unknown>
          const key = idKey(record.id)
          const previous = newest.get(key)
          if (!previous || previous.partition <= partitionDate(folder))
            newest.set(key, { record, partition: partitionDate(folder) })
        }
      }
    }
  }
  // A merged or deleted id is not served, unless its record was published again after the merge/deletion.
  const merged = readMergedIds(entity)
  const deleted = readDeletedIds(entity)
  const records: SampleRecord[] = []
  const byKey = new Map<string, SampleRecord>()
  for (const [key, { record, partition }] of newest) {
    const short = shortId(record.id).toUpperCase()
    const merge = merged.get(short)
    const deletion = deleted.get(short)
    if (merge && partition <= merge.date) continue
    if (deletion && partition <= deletion) continue
    records.push(record)
    byKey.set(key, record)
  }
  return { records, byKey }
}

const cache = new Map<string, LoadedEntity>()
let mergedCache: Map<string, Map<string, { into: string; date: string }>> | undefined

function entity(name: string): LoadedEntity {
  let loaded = cache.get(name)
  if (!loaded) {
    loaded = loadEntity(name)
    cache.set(name, loaded)
  }
  return loaded
}

/** Every record the API serves for an entity path (merged and deleted ids removed). */
export const records = (name: string): readonly SampleRecord[] => entity(name).records

/** One served record by its id in any form the id's last segment survives (`W1`, `w1`, the full URL). */
export const byId = (name: string, id: string): SampleRecord | undefined => entity(name).byKey.get(idKey(id))

/** The surviving id an old id was merged into (chains followed), or undefined. */
export function mergedInto(name: string, id: string): string | undefined {
  mergedCache ??= new Map()
  let merged = mergedCache.get(name)
  if (!merged) {
    merged = readMergedIds(name)
    mergedCache.set(name, merged)
  }
  let target = merged.get(id.toUpperCase())?.into
  if (target === undefined) return undefined
  const seen = new Set<string>()
  while (merged.has(target) && !seen.has(target)) {
    seen.add(target)
    target = merged.get(target)!.into
  }
  return target
}

/** Every merged old id of an entity, with its merge target. */
export function mergedIds(name: string): { oldId: string; into: string }[] {
  return [...readMergedIds(name).keys()].map((oldId) => ({ oldId, into: mergedInto(name, oldId)! }))
}

/**
 * Every value at a dotted path, arrays flattened at each step: `authorships.institutions.id` of a work is
 * the ids of all institutions of all authorships. Null and undefined leaves are dropped.
 */
export function valuesAt(record: unknown, path: string): unknown[] {
  let current: unknown[] = [record]
  for (const step of path.split('.')) {
    const next: unknown[] = []
    for (const value of current) {
      const items = Array.isArray(value) ? value : [value]
      for (const item of items) {
        if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
          const child = (item as Record<string, unknown>)[step]
          if (child !== undefined && child !== null) next.push(child)
        }
      }
    }
    current = next
  }
  return current.flatMap((value) => (Array.isArray(value) ? value : [value])).filter((v) => v !== null)
}

/** Whether any record of the entity has a value at the path (so the path is how the records state the field). */
export const pathExists = (name: string, path: string): boolean =>
  records(name).some((record) => valuesAt(record, path).length > 0)

export const where = (name: string, predicate: (record: SampleRecord) => boolean): SampleRecord[] =>
  records(name).filter(predicate)

export const countWhere = (name: string, predicate: (record: SampleRecord) => boolean): number =>
  where(name, predicate).length

/** Short ids (`W123`), sorted, for set comparisons. */
export const idSet = (rows: readonly { readonly id?: unknown }[] | readonly SampleRecord[]): string[] =>
  rows.map((row) => shortId((row as { id?: unknown }).id).toUpperCase()).sort()

/**
 * Group counts over records: each record counts once per distinct key the `keys` function gives it; a record
 * with no key counts in `unknownKey` when given.
 */
export function groupCounts(
  rows: readonly SampleRecord[],
  keys: (record: SampleRecord) => readonly unknown[],
  unknownKey?: string,
): Map<string, number> {
  const counts = new Map<string, number>()
  for (const record of rows) {
    const distinct = new Set(keys(record).map((key) => idKey(key)))
    if (distinct.size === 0 && unknownKey !== undefined) distinct.add(unknownKey)
    for (const key of distinct) counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  return counts
}

/** Values by frequency over the records (most frequent first, ties by key), for choosing test inputs. */
export function valueFrequencies(rows: readonly SampleRecord[], path: string): [string, number][] {
  return [...groupCounts(rows, (record) => valuesAt(record, path)).entries()].sort(
    (a, b) => b[1] - a[1] || a[0].localeCompare(b[0]),
  )
}

/** The words of a text, lower-cased, split on anything that is not a letter or digit. */
export const words = (text: unknown): string[] =>
  typeof text === 'string'
    ? text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
    : []

/** A work's abstract as text, rebuilt from its inverted index. */
export function abstractText(work: SampleRecord): string {
  const index = work.abstract_inverted_index
  if (index === null || typeof index !== 'object') return ''
  const positioned: [number, string][] = []
  for (const [word, positions] of Object.entries(index as Record<string, number[]>))
    for (const position of positions) positioned.push([position, word])
  return positioned
    .sort((a, b) => a[0] - b[0])
    .map(([, word]) => word)
    .join(' ')
}

/** The text the API's default search reads per entity (api reference §2.2), lower-cased. */
export function searchableText(name: string, record: SampleRecord): string {
  const parts: unknown[] = [record.display_name]
  const add = (path: string) => parts.push(...valuesAt(record, path))
  switch (name) {
    case 'works':
      parts.push(record.title, abstractText(record))
      break
    case 'authors':
      add('display_name_alternatives')
      break
    case 'institutions':
      add('display_name_alternatives')
      add('display_name_acronyms')
      break
    case 'sources':
      add('alternate_titles')
      add('abbreviated_title')
      break
    case 'publishers':
      add('alternate_titles')
      break
    case 'funders':
      add('alternate_titles')
      add('description')
      break
    case 'topics':
      add('description')
      add('keywords')
      break
    case 'concepts':
    case 'awards':
      add('description')
      break
  }
  return parts
    .filter((part) => typeof part === 'string')
    .join(' \n ')
    .toLowerCase()
}

const EXTERNAL_PREFIXES = [
  /^https?:\/\/(dx\.)?doi\.org\//,
  /^doi:/,
  /^https?:\/\/orcid\.org\//,
  /^https?:\/\/ror\.org\//,
  /^https?:\/\/pubmed\.ncbi\.nlm\.nih\.gov\//,
  /^https?:\/\/www\.ncbi\.nlm\.nih\.gov\/pmc\/articles\//,
  /^https?:\/\/(www\.)?wikidata\.org\/(wiki|entity)\//,
  /^wikidata:/,
]

/** An external id without URL prefix and case (`https://doi.org/10.1/X` → `10.1/x`; `PMC12` → `12`). */
export function normalizeExternal(scheme: string, value: unknown): string {
  let text = String(value).trim().toLowerCase()
  for (const prefix of EXTERNAL_PREFIXES) text = text.replace(prefix, '')
  text = text.replace(/\/$/, '')
  if (scheme === 'pmcid') text = text.replace(/^pmc/, '')
  return text
}

/** Where the records state each external id scheme (top-level field and `ids.<scheme>`). */
const EXTERNAL_PATHS: Readonly<Record<string, readonly string[]>> = {
  doi: ['doi', 'ids.doi'],
  orcid: ['orcid', 'ids.orcid'],
  ror: ['ror', 'ids.ror'],
  issn: ['issn', 'issn_l', 'ids.issn', 'ids.issn_l'],
  pmid: ['ids.pmid'],
  pmcid: ['ids.pmcid'],
  mag: ['ids.mag'],
  wikidata: ['wikidata', 'ids.wikidata'],
}

/** The external ids of one record for a scheme, normalised. */
export const externalIds = (record: SampleRecord, scheme: string): string[] => [
  ...new Set(
    (EXTERNAL_PATHS[scheme] ?? [])
      .flatMap((path) => valuesAt(record, path))
      .map((v) => normalizeExternal(scheme, v)),
  ),
]

/** The records of an entity an external id names. */
export const byExternalId = (name: string, scheme: string, value: string): SampleRecord[] =>
  where(name, (record) => externalIds(record, scheme).includes(normalizeExternal(scheme, value)))

/** The first record (in id order) that satisfies a predicate; throws when the sample has none. */
export function pick(name: string, predicate: (record: SampleRecord) => boolean, what: string): SampleRecord {
  const found = where(name, predicate).sort((a, b) => String(a.id).localeCompare(String(b.id)))[0]
  if (!found) throw new Error(`the sample has no ${name} record that ${what}`)
  return found
}
