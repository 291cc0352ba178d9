// Short and full forms of OpenAlex ids. The catalog keys every table by the short form (`W123`, `US`,
// `book series`); ingest uses these functions on records and the query adapter on request input, and the
// SQL the ingest runs builds the same forms from the same patterns (see `openAlexIdSql`).
import { decodePercentEscapes } from '@oqlkit/oqo-schema/registry'
import type { CatalogEntityInfo } from './catalog-entities.ts'

export const OPENALEX_ID_BASE = 'https://openalex.org/'

/**
 * A letter id in either form, any case: `W123`, `w123`, `https://openalex.org/W123`. The pattern is
 * written in the subset RE2 (DuckDB) and JavaScript agree on, so SQL and TypeScript read ids alike. At most
 * 18 digits, so that every letter id's number fits the tables' `id_num` (BIGINT) and orders the rows
 * (`entity-id-order.ts`); OpenAlex's have 10 or fewer.
 */
export const LETTER_ID_PATTERN = '^(?:https?://openalex\\.org/)?([A-Za-z][0-9]{1,18})$'

/** The last path segment of a vocabulary id (a trailing slash is ignored). */
export const PATH_ID_TAIL_PATTERN = '([^/]+)/?$'

const LETTER_ID = new RegExp(LETTER_ID_PATTERN, 'i')

/**
 * The short id of an entity id as records and requests write it, or `undefined` when the value is not an
 * id of that entity (a letter id of another entity, an empty string).
 */
export function shortOpenAlexId(info: CatalogEntityInfo, raw: string): string | undefined {
  const value = raw.trim()
  if (info.idKind === 'letter') {
    const short = anyLetterId(value)
    return short !== undefined && short[0] === info.letter ? short : undefined
  }
  return pathIdTail(value)
}

/** The short form of any letter id (`https://openalex.org/p123` gives `P123`), whatever its entity. */
export function anyLetterId(raw: string): string | undefined {
  const match = LETTER_ID.exec(raw.trim())
  return match ? match[1]!.toUpperCase() : undefined
}

/**
 * The percent-decoded last path segment: `https://openalex.org/source-types/book%20series` gives `book series`.
 * What `PATH_ID_TAIL_PATTERN` matches, found with `lastIndexOf`: the pattern, unanchored, tries every start and
 * takes time in the square of a long value's length (minutes for a request body's 400 KB of one id).
 */
export function pathIdTail(raw: string): string | undefined {
  const value = raw.trim()
  const body = value.endsWith('/') ? value.slice(0, -1) : value
  const tail = body.slice(body.lastIndexOf('/') + 1)
  if (tail === '') return undefined
  const decoded = decodePercentEscapes(tail)
  return decoded === '' ? undefined : decoded
}

/** The full id of a short one, as the API prints it (`types/` for work types, spaces as `%20`). */
export function fullOpenAlexId(info: CatalogEntityInfo, short: string): string {
  if (info.idKind === 'letter') return `${OPENALEX_ID_BASE}${short.toUpperCase()}`
  return `${OPENALEX_ID_BASE}${info.segment}/${encodeURIComponent(short)}`
}
