import {
  parseOql,
  type TranslationError,
  type TranslationInput,
  type TranslationWarning,
  translate,
} from '@oqlkit/oql'
import { type EmbeddedView, type Oqo, parseBoundedJson, readOqo } from '@oqlkit/oqo-schema'
import { queryProblem } from '../errors/query-error.ts'
import type { QueryInput } from './query-execute-reader.ts'

export type QueryReading =
  | {
      readonly ok: true
      /** The canonical OQO, in the user's operand order (what `translate()` returns for it). */
      readonly oqo: Oqo
      /** View keys an older client embedded in the OQO (lowest precedence). */
      readonly embedded: EmbeddedView
      readonly warnings: readonly TranslationWarning[]
    }
  | {
      readonly ok: false
      readonly errors: readonly TranslationError[]
      readonly warnings: readonly TranslationWarning[]
      /** The query as read, when it was read but is not valid. */
      readonly oqo: Oqo | null
    }

const warningsOf = (
  diagnostics: readonly { code: string; message: string; path?: string }[],
): TranslationWarning[] =>
  diagnostics.map((diagnostic) => ({
    type: diagnostic.code,
    message: diagnostic.message,
    location: diagnostic.path === undefined || diagnostic.path === '' ? null : diagnostic.path,
  }))

const parseJson = (text: string): { value: unknown } | { error: string } => {
  try {
    return { value: parseBoundedJson(text) }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

/** A query refused before it could be read: one problem, about the `oql` or `oqo` it was sent as. */
const refused = (form: 'oql' | 'oqo', message: string): QueryReading => ({
  ok: false,
  errors: [queryProblem('bad_request', `invalid_${form}`, message, form)],
  warnings: [],
  oqo: null,
})

/** A query read but not valid, described by `translate()` itself (its errors, positions and fixes). */
const translationFailure = (input: TranslationInput, oqo: Oqo | null): QueryReading => {
  const failed = translate(input)
  return { ok: false, errors: failed.validation.errors, warnings: failed.validation.warnings, oqo }
}

/**
 * Reads the query of an execute request into its canonical OQO through the same readers `translate()`
 * uses (`parseOql`, `readOqo`), so running a query and translating it cannot disagree. A query that
 * fails is described by `translate()` itself (its errors, positions and fixes).
 */
export const readQueryInput = (input: QueryInput): QueryReading => {
  if (input.form === 'oql') {
    const text = typeof input.value === 'string' ? input.value : ''
    if (text.trim() === '')
      return refused('oql', 'The OQL is empty. Write a query, e.g. works where year is 2020.')
    const parsed = parseOql(text)
    if (parsed.ok) return { ok: true, oqo: parsed.oqo, embedded: {}, warnings: warningsOf(parsed.warnings) }
    return translationFailure({ oql: text }, parsed.oqo ?? null)
  }

  let value = input.value
  if (typeof value === 'string') {
    const parsed = parseJson(value)
    if ('error' in parsed)
      return refused(
        'oqo',
        `oqo is not valid JSON (${parsed.error}). Send the OQO as URL-encoded JSON, e.g. oqo=${encodeURIComponent('{"get_rows":"works"}')}.`,
      )
    value = parsed.value
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return refused(
      'oqo',
      `oqo must be a JSON object: an OQO, whose "get_rows" names the entity, such as "get_rows": "works" (was ${JSON.stringify(value)}).`,
    )
  const read = readOqo(value)
  if (read.ok) return { ok: true, oqo: read.oqo, embedded: read.view, warnings: warningsOf(read.warnings) }
  return translationFailure({ oqo: value }, value as Oqo)
}
