// How a filter value and a stored value are brought to one comparable form. Each codec has two halves that
// must agree: `stored` (SQL over a stored value) and `input` (TypeScript over the request value). Columns
// the catalog stores normalised (short ids, DOIs) compare as stored, so DuckDB can prune on them; values read
// from the JSON record are normalised on both sides.
import type { FilterValue } from '@oqlkit/engine'
import {
  EXTERNAL_ID_SCHEMES,
  type ExternalIdScheme,
  normalizeExternalId,
} from '../layout/external-id-schemes.ts'
import { anyLetterId, pathIdTail } from '../layout/openalex-id-normalizer.ts'
import type { SqlParam } from '../sql/compiled-query.ts'
import type { ColumnDialect } from './column-dialect.ts'

/** What a codec's `input` gives: how an engine types the parameter that carries it. */
export type InputType = 'text' | 'number' | 'boolean'

export interface ValueCodec {
  /** SQL giving the comparable form of the stored value `expr`. */
  readonly stored: (expr: string) => string
  /** The comparable form of a request value; null when no stored value can equal it. */
  readonly input: (value: FilterValue) => SqlParam
  /** What `input` gives, when not null. */
  readonly inputType: InputType
  /** The placeholder of one input value, with its cast (`?`, `TRY_CAST(? AS TIMESTAMP)`); `?` marks the slot. */
  readonly placeholder: string
}

const identity = (expr: string): string => expr
const text = (value: FilterValue): string => String(value).trim()

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

/** The codec-normalised inputs of a filter's values, without repeats or the ones no stored value can equal. */
export const codecInputs = (codec: ValueCodec, values: readonly FilterValue[]): NonNullable<SqlParam>[] => {
  const seen = new Set<NonNullable<SqlParam>>()
  for (const value of values) {
    const input = codec.input(value)
    if (input !== null && input !== undefined) seen.add(input)
  }
  return [...seen]
}

const PREFIX_PATTERNS: ReadonlyMap<ExternalIdScheme, string> = new Map(
  EXTERNAL_ID_SCHEMES.map((spec) => [spec.scheme, spec.prefixPattern]),
)

/** The codecs of one engine's SQL. */
export interface ValueCodecs {
  readonly number: ValueCodec
  readonly boolean: ValueCodec
  /** Dates compare as dates; a request may write a datetime, whose date part counts. */
  readonly date: ValueCodec
  readonly timestamp: ValueCodec
  /** Free text: case-insensitive, as the API matches string fields. */
  readonly text: ValueCodec
  /** An id or a code read from a record, in any form: compared by its lower-cased last path segment. */
  readonly id: ValueCodec
  /** A catalog column holding short letter ids (`W123`): the input becomes that form. */
  readonly letterId: ValueCodec
  /** A catalog column holding lower-case path ids (`deep-learning`, SDG `3`, subfield `2303`). */
  readonly pathId: ValueCodec
  /** A catalog column holding upper-case country codes. */
  readonly country: ValueCodec
  /** A catalog column holding a code in any case (`article`, `US`, a vocabulary entity's own id). */
  readonly code: ValueCodec
  /**
   * An external id. `normalisedInCatalog`: the column already holds the normalised form (the catalog's
   * `doi`, `orcid`, `ror`, … columns); otherwise the record's value is normalised in SQL the way ingest does
   * it (lower-cased first, so the case-insensitive prefix patterns match as written).
   */
  readonly externalId: (scheme: ExternalIdScheme, normalisedInCatalog: boolean) => ValueCodec
}

const CODECS = new WeakMap<ColumnDialect, ValueCodecs>()

/**
 * The codecs of a dialect: the same objects for the same dialect, since compilers tell a codec by identity
 * (`source.codec === NUMBER_CODEC`).
 */
export const valueCodecsFor = (dialect: ColumnDialect): ValueCodecs => {
  let codecs = CODECS.get(dialect)
  if (codecs === undefined) {
    codecs = createValueCodecs(dialect)
    CODECS.set(dialect, codecs)
  }
  return codecs
}

const createValueCodecs = (dialect: ColumnDialect): ValueCodecs => ({
  number: { stored: identity, input: toNumber, inputType: 'number', placeholder: '?' },
  boolean: { stored: identity, input: toBoolean, inputType: 'boolean', placeholder: '?' },
  date: { stored: identity, input: text, inputType: 'text', placeholder: dialect.datePlaceholder },
  timestamp: { stored: identity, input: text, inputType: 'text', placeholder: dialect.timestampPlaceholder },
  text: {
    stored: (expr) => `lower(${expr})`,
    input: (value) => text(value).toLowerCase(),
    inputType: 'text',
    placeholder: '?',
  },
  id: {
    stored: (expr) => `lower(${dialect.idTail(expr)})`,
    input: (value) => idKey(text(value)),
    inputType: 'text',
    placeholder: '?',
  },
  letterId: {
    stored: identity,
    input: (value) => anyLetterId(text(value)) ?? text(value).toUpperCase(),
    inputType: 'text',
    placeholder: '?',
  },
  pathId: {
    stored: identity,
    input: (value) => (pathIdTail(text(value)) ?? text(value)).toLowerCase(),
    inputType: 'text',
    placeholder: '?',
  },
  country: {
    stored: identity,
    input: (value) => (pathIdTail(text(value)) ?? text(value)).toUpperCase(),
    inputType: 'text',
    placeholder: '?',
  },
  code: {
    stored: (expr) => `lower(${expr})`,
    input: (value) => (pathIdTail(text(value)) ?? text(value)).toLowerCase(),
    inputType: 'text',
    placeholder: '?',
  },
  externalId: (scheme, normalisedInCatalog) => ({
    stored: normalisedInCatalog
      ? identity
      : (expr) => dialect.externalIdKey(expr, PREFIX_PATTERNS.get(scheme)!),
    input: (value) => normalizeExternalId(scheme, text(value)) ?? null,
    inputType: 'text',
    placeholder: '?',
  }),
})
