// One snapshot record into the rows of the PostgreSQL baseline's tables (see postgres-tables.ts for the
// layout and the columns' order). Pure: the loader streams records through it into COPY.
import type { CopyValue } from './copy-text-encoder.ts'

type JsonObject = { readonly [key: string]: unknown }
export type TableRows = Record<string, CopyValue[][]>

const objectOf = (value: unknown): JsonObject | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonObject) : undefined
const arrayOf = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : [])
const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null)
const numberOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null
const integerOf = (value: unknown): number | null => {
  const number = numberOf(value)
  return number === null ? null : Math.trunc(number)
}
const booleanOf = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null)
/** A MAG id as the scripts keep it (bigint); anything else is dropped rather than failing the COPY. */
const magOf = (value: unknown): number | null => {
  const text = typeof value === 'number' ? String(value) : textOf(value)
  return text !== null && /^\d{1,18}$/.test(text) ? Number(text) : null
}

const locationRow = (workId: string, value: unknown): CopyValue[] | undefined => {
  const location = objectOf(value)
  if (location === undefined) return undefined
  return [
    workId,
    textOf(objectOf(location.source)?.id),
    textOf(location.landing_page_url),
    textOf(location.pdf_url),
    booleanOf(location.is_oa),
    textOf(location.version),
    textOf(location.license),
  ]
}

/** Rows of `ids` pairs, once each in the order first seen (the tables' keys are the pair). */
const distinctPairs = (workId: string, ids: readonly (string | null)[]): CopyValue[][] =>
  [...new Set(ids.filter((id): id is string => id !== null))].map((id) => [workId, id])

export function flattenWork(record: JsonObject): TableRows {
  const id = textOf(record.id)
  if (id === null) throw new Error('a work record without an id')
  const ids = objectOf(record.ids) ?? {}
  const openAccess = objectOf(record.open_access) ?? {}
  const biblio = objectOf(record.biblio)

  const authorships: CopyValue[][] = []
  for (const entry of arrayOf(record.authorships)) {
    const authorship = objectOf(entry)
    if (authorship === undefined) continue
    const authorId = textOf(objectOf(authorship.author)?.id)
    const position = textOf(authorship.author_position)
    const rawAffiliation = textOf(arrayOf(authorship.raw_affiliation_strings)[0]) ?? null
    const institutions = arrayOf(authorship.institutions)
      .map((institution) => textOf(objectOf(institution)?.id))
      .filter((institutionId): institutionId is string => institutionId !== null)
    if (institutions.length === 0) authorships.push([id, position, authorId, null, rawAffiliation])
    for (const institutionId of new Set(institutions))
      authorships.push([id, position, authorId, institutionId, rawAffiliation])
  }

  const scored = (entries: unknown): CopyValue[][] => {
    const seen = new Set<string>()
    const rows: CopyValue[][] = []
    for (const entry of arrayOf(entries)) {
      const item = objectOf(entry)
      const itemId = textOf(item?.id)
      if (itemId === null || seen.has(itemId)) continue
      seen.add(itemId)
      rows.push([id, itemId, numberOf(item?.score)])
    }
    return rows
  }

  const primary = locationRow(id, record.primary_location)
  const bestOa = locationRow(id, record.best_oa_location)
  return {
    works: [
      [
        id,
        textOf(record.doi),
        textOf(record.title),
        textOf(record.display_name),
        integerOf(record.publication_year),
        textOf(record.publication_date),
        textOf(record.type),
        integerOf(record.cited_by_count),
        booleanOf(record.is_retracted),
        booleanOf(record.is_paratext),
        textOf(record.cited_by_api_url),
        objectOf(record.abstract_inverted_index) ?? null,
        textOf(record.language),
        booleanOf(record.is_xpac) ?? false,
      ],
    ],
    works_ids: [
      [id, textOf(ids.openalex), textOf(ids.doi), magOf(ids.mag), textOf(ids.pmid), textOf(ids.pmcid)],
    ],
    works_open_access: [
      [
        id,
        booleanOf(openAccess.is_oa),
        textOf(openAccess.oa_status),
        textOf(openAccess.oa_url),
        booleanOf(openAccess.any_repository_has_fulltext),
      ],
    ],
    works_biblio:
      biblio === undefined
        ? []
        : [
            [
              id,
              textOf(biblio.volume),
              textOf(biblio.issue),
              textOf(biblio.first_page),
              textOf(biblio.last_page),
            ],
          ],
    works_authorships: authorships,
    works_concepts: scored(record.concepts),
    works_topics: scored(record.topics),
    works_primary_locations: primary === undefined ? [] : [primary],
    works_locations: arrayOf(record.locations)
      .map((location) => locationRow(id, location))
      .filter((row): row is CopyValue[] => row !== undefined),
    works_best_oa_locations: bestOa === undefined ? [] : [bestOa],
    works_referenced_works: distinctPairs(id, arrayOf(record.referenced_works).map(textOf)),
    works_related_works: distinctPairs(id, arrayOf(record.related_works).map(textOf)),
  }
}

export function flattenInstitution(record: JsonObject): CopyValue[] {
  return [
    textOf(record.id),
    textOf(record.ror),
    textOf(record.display_name),
    textOf(record.country_code),
    textOf(record.type),
    textOf(record.homepage_url),
    Array.isArray(record.display_name_acronyms) ? record.display_name_acronyms : null,
    Array.isArray(record.display_name_alternatives) ? record.display_name_alternatives : null,
    integerOf(record.works_count),
    integerOf(record.cited_by_count),
    textOf(record.updated_date),
  ]
}

export function flattenTopic(record: JsonObject): CopyValue[] {
  const part = (name: string) => objectOf(record[name])
  return [
    textOf(record.id),
    textOf(record.display_name),
    textOf(part('subfield')?.id),
    textOf(part('subfield')?.display_name),
    textOf(part('field')?.id),
    textOf(part('field')?.display_name),
    textOf(part('domain')?.id),
    textOf(part('domain')?.display_name),
    textOf(record.description),
    Array.isArray(record.keywords) ? record.keywords : null,
    integerOf(record.works_count),
    integerOf(record.cited_by_count),
    textOf(record.updated_date),
  ]
}
