// How a filter value and a stored value are brought to one comparable form. Each codec has two halves that
// must agree: `stored` (SQL over a stored value) and `input` (TypeScript over the request value). Columns
// the catalog stores normalised (short ids, DOIs) compare as stored, so DuckDB can prune on them; values read
// from the JSON record are normalised on both sides.
import type { FilterValue } from '@oqlkit/engine'
import {
  EXTERNAL_ID_SCHEMES,
  type ExternalIdScheme,
  normalizeExternalId,
} from '../catalog/external-id-schemes.ts'
import { anyLetterId, pathIdTail } from '../catalog/openalex-id-normalizer.ts'
import { constantLiteral } from '../sql/sql-text.ts'
import type { SqlParam } from './compiled-query.ts'

export interface ValueCodec {
  /** SQL giving the comparable form of the stored value `expr`. */
  readonly stored: (expr: string) => string
  /** The comparable form of a request value; null when no stored value can equal it. */
  readonly input: (value: FilterValue) => SqlParam
  /** The placeholder of one input value, with its cast (`?`, `TRY_CAST(? AS TIMESTAMP)`). */
  readonly placeholder: string
}

const identity = (expr: string): string => expr
const text = (value: FilterValue): string => String(value).trim()

const TAIL_PATTERN = constantLiteral('([^/]+)/?$')

/** SQL: the url-decoded last path segment of an id or code (`https://openalex.org/W1` gives `W1`). */
export const idTailSql = (expr: string): string =>
  `url_decode(regexp_extract(trim(${expr}), ${TAIL_PATTERN}, 1))`

/** SQL: the last segment as a group key: letter ids upper-cased (`w1` gives `W1`), codes as written. */
export const groupIdSql = (expr: string): string =>
  `CASE WHEN regexp_full_match(${idTailSql(expr)}, '[A-Za-z][0-9]+') THEN upper(${idTailSql(expr)}) ELSE ${idTailSql(expr)} END`

/** TypeScript: the case-insensitive key of an OpenAlex id or code in any form (`https://openalex.org/W1` → `w1`). */
export const idKey = (value: string): string =>
  (anyLetterId(value) ?? pathIdTail(value) ?? value.trim()).toLowerCase()

const toNumber = (value: FilterValue): SqlParam => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'boolean') return null
  const number = Number(value.trim())
  return value.trim() === '' || !Number.isFinite(number) ? null : number
}

const toBoolean = (value: FilterValue): SqlParam => {
  if (typeof value === 'boolean') return value
  const word = String(value).trim().toLowerCase()
  return word === 'true' ? true : word === 'false' ? false : null
}

export const NUMBER_CODEC: ValueCodec = { stored: identity, input: toNumber, placeholder: '?' }
export const BOOLEAN_CODEC: ValueCodec = { stored: identity, input: toBoolean, placeholder: '?' }
/** Dates compare as dates; a request may write a datetime, whose date part counts. */
export const DATE_CODEC: ValueCodec = {
  stored: identity,
  input: (value) => text(value),
  placeholder: 'CAST(TRY_CAST(? AS TIMESTAMP) AS DATE)',
}
export const TIMESTAMP_CODEC: ValueCodec = {
  stored: identity,
  input: (value) => text(value),
  placeholder: 'TRY_CAST(? AS TIMESTAMP)',
}
/** Free text: case-insensitive, as the API matches string fields. */
export const TEXT_CODEC: ValueCodec = {
  stored: (expr) => `lower(${expr})`,
  input: (value) => text(value).toLowerCase(),
  placeholder: '?',
}
/** An id or a code read from a record, in any form: compared by its lower-cased last path segment. */
export const ID_CODEC: ValueCodec = {
  stored: (expr) => `lower(${idTailSql(expr)})`,
  input: (value) => idKey(text(value)),
  placeholder: '?',
}
/** A catalog column holding short letter ids (`W123`): the input becomes that form. */
export const LETTER_ID_CODEC: ValueCodec = {
  stored: identity,
  input: (value) => anyLetterId(text(value)) ?? text(value).toUpperCase(),
  placeholder: '?',
}
/** A catalog column holding lower-case path ids (`deep-learning`, SDG `3`, subfield `2303`). */
export const PATH_ID_CODEC: ValueCodec = {
  stored: identity,
  input: (value) => (pathIdTail(text(value)) ?? text(value)).toLowerCase(),
  placeholder: '?',
}
/** A catalog column holding upper-case country codes. */
export const COUNTRY_CODEC: ValueCodec = {
  stored: identity,
  input: (value) => (pathIdTail(text(value)) ?? text(value)).toUpperCase(),
  placeholder: '?',
}
/** A catalog column holding a code in any case (`article`, `US`, a vocabulary entity's own id). */
export const CODE_CODEC: ValueCodec = {
  stored: (expr) => `lower(${expr})`,
  input: (value) => (pathIdTail(text(value)) ?? text(value)).toLowerCase(),
  placeholder: '?',
}

const PREFIX_PATTERNS: ReadonlyMap<ExternalIdScheme, string> = new Map(
  EXTERNAL_ID_SCHEMES.map((spec) => [spec.scheme, spec.prefixPattern]),
)

/**
 * An external id. `normalisedInCatalog`: the column already holds the normalised form (the catalog's `doi`,
 * `orcid`, `ror`, … columns); otherwise the record's value is normalised in SQL the way ingest does it
 * (lower-cased first, so the case-insensitive prefix patterns match as written).
 */
export const externalIdCodec = (scheme: ExternalIdScheme, normalisedInCatalog: boolean): ValueCodec => ({
  stored: normalisedInCatalog
    ? identity
    : (expr) =>
        `regexp_replace(regexp_replace(lower(trim(${expr})), ${constantLiteral(PREFIX_PATTERNS.get(scheme)!)}, ''), '/+$', '')`,
  input: (value) => normalizeExternalId(scheme, text(value)) ?? null,
  placeholder: '?',
})
