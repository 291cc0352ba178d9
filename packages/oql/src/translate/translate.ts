import {
  type Oqo,
  type OqoDiagnostic,
  parseBoundedJson,
  readOqo,
  sortCanonicalOqo,
  validateOqo,
} from '@oqlkit/oqo-schema'
import { parseOql } from '../parser/index.ts'
import { type NameLookup, printOqlForms } from '../printer/index.ts'
import { type ReadUrl, sortedAgain, sortedOqoToUrl, urlToOqo } from '../url/index.ts'
import type {
  TranslationError,
  TranslationErrorType,
  TranslationInput,
  TranslationResult,
  TranslationWarning,
} from './translate-result.ts'

export interface TranslateOptions {
  /** Display names for the `[annotation]` of opaque ids; without it ids print bare. */
  readonly names?: NameLookup
}

const CONTEXT_RADIUS = 24

/** The text around a position, so an error message can show where it is without the whole query. */
export const contextAround = (text: string, position: number): string => {
  const start = Math.max(0, position - CONTEXT_RADIUS)
  const end = Math.min(text.length, position + CONTEXT_RADIUS)
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`
}

const errorTypeOf = (code: string): TranslationErrorType =>
  code === 'invalid_entity' ? 'invalid_entity' : code === 'invalid_body' ? 'invalid_body' : 'bad_request'

const validationError = (
  diagnostic: OqoDiagnostic | { code: string; message: string; path?: string },
): TranslationError => ({
  type: errorTypeOf(diagnostic.code),
  code: diagnostic.code,
  message: diagnostic.message,
  context: null,
  location: diagnostic.path === undefined || diagnostic.path === '' ? null : diagnostic.path,
})

const warningOf = (diagnostic: { code: string; message: string; path?: string }): TranslationWarning => ({
  type: diagnostic.code,
  message: diagnostic.message,
  location: diagnostic.path === undefined || diagnostic.path === '' ? null : diagnostic.path,
})

const failure = (
  errors: readonly TranslationError[],
  warnings: readonly TranslationWarning[] = [],
  oqo: Oqo | null = null,
): TranslationResult => ({
  oxurl: null,
  oql: null,
  oql_oneline: null,
  oql_render_v2: null,
  oqo,
  validation: { valid: false, errors, warnings },
})

/** The error of a body that holds no query of the form it names. */
const invalidBody = (message: string): TranslationError => ({
  type: 'invalid_body',
  code: 'invalid_body',
  message,
  context: null,
  location: null,
})

const INPUT_KEYS = ['oql', 'oqo', 'oxurl'] as const

/** The query of an input object, or an error that says which single key it needs. */
const readInput = (
  input: unknown,
): { key: (typeof INPUT_KEYS)[number]; value: unknown } | TranslationError => {
  const keys =
    typeof input === 'object' && input !== null ? INPUT_KEYS.filter((key) => key in (input as object)) : []
  if (keys.length === 1) {
    const key = keys[0]!
    return { key, value: (input as Record<string, unknown>)[key] }
  }
  return invalidBody(
    `Send exactly one of oql, oqo or oxurl (got ${keys.length === 0 ? 'none' : keys.join(' and ')}).`,
  )
}

/**
 * Completes a translation from a valid canonical OQO (and its sorted canonical form, which the URL is
 * written from): the other two forms and the warnings.
 */
const render = (
  oqo: Oqo,
  sorted: Oqo,
  warnings: TranslationWarning[],
  options: TranslateOptions,
  source?: ReadUrl,
): TranslationResult => {
  const printOptions = options.names === undefined ? {} : { names: options.names }
  const url = sortedOqoToUrl(sorted, {}, source)
  if (url.url === null)
    warnings.push({ type: url.warning.code, message: url.warning.message, location: null })
  // One clause tree for the three printed forms.
  const printed = printOqlForms(oqo, printOptions)
  return {
    oxurl: url.url,
    oql: printed.text,
    oql_oneline: printed.oneline,
    oql_render_v2: printed.tree,
    oqo,
    validation: { valid: true, errors: [], warnings },
  }
}

/**
 * Translates a query given in one of its three forms (`{oql}`, `{oqo}` or `{oxurl}`) into all three,
 * with validation: exactly the `/query` result object. OQL and OQO keep the user's operand order; a
 * classic URL has none of its own, so it gets the sorted canonical order. Never throws.
 */
export const translate = (
  input: TranslationInput | unknown,
  options: TranslateOptions = {},
): TranslationResult => {
  const read = readInput(input)
  if ('type' in read) return failure([read])

  if (read.key === 'oql') {
    if (typeof read.value !== 'string' || read.value.trim() === '')
      return failure([invalidBody('oql must be a non-empty string of OQL text.')])
    const text = read.value
    const parsed = parseOql(text)
    if (!parsed.ok) {
      const parseErrors = parsed.diagnostics.filter((diagnostic) => diagnostic.code.startsWith('OQL_'))
      if (parseErrors.length > 0)
        return failure(
          parseErrors.map((diagnostic) => ({
            type: 'parse_error',
            code: diagnostic.code,
            message: diagnostic.message,
            position: diagnostic.position,
            context: contextAround(text, diagnostic.position),
            location: null,
          })),
        )
      // The text parsed but its object is not valid: the object comes back with the errors, and the
      // warnings stay warnings.
      const errors = parsed.diagnostics.filter((diagnostic) => diagnostic.severity === 'error')
      const warnings = parsed.diagnostics.filter((diagnostic) => diagnostic.severity !== 'error')
      return failure(errors.map(validationError), warnings.map(warningOf), parsed.oqo ?? null)
    }
    const sorted = sortCanonicalOqo(parsed.oqo)
    return render(parsed.oqo, sorted, parsed.warnings.map(warningOf), options)
  }

  if (read.key === 'oqo') {
    const value = typeof read.value === 'string' ? parseJson(read.value) : read.value
    if (value instanceof Error)
      return failure([invalidBody(`oqo is not valid JSON: ${value.message}. Send a JSON object.`)])
    const result = readOqo(value)
    if (!result.ok)
      return failure(result.errors.map(validationError), result.warnings.map(warningOf), value as Oqo)
    const sorted = sortCanonicalOqo(result.oqo)
    return render(result.oqo, sorted, result.warnings.map(warningOf), options)
  }

  if (typeof read.value !== 'string' || read.value.trim() === '')
    return failure([invalidBody('oxurl must be a non-empty URL string.')])
  const parsedUrl = urlToOqo(read.value)
  if (!parsedUrl.ok) return failure(parsedUrl.errors.map(validationError))
  // The URL reader gives the sorted canonical form already.
  const oqo = sortedAgain(parsedUrl.oqo)
  const validation = validateOqo(oqo)
  if (!validation.valid)
    return failure(validation.errors.map(validationError), validation.warnings.map(warningOf), oqo)
  return render(
    oqo,
    sortedAgain(oqo),
    [...parsedUrl.warnings.map(warningOf), ...validation.warnings.map(warningOf)],
    options,
    // A URL written back exactly as it was given needs no second reading.
    { url: read.value, oqo: parsedUrl.oqo },
  )
}

const parseJson = (text: string): unknown => {
  try {
    return parseBoundedJson(text)
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error))
  }
}
