import type { ValidationCode } from '@oqlkit/oqo-schema'

/**
 * The codes the classic-URL translation adds to the OQO validation codes (`VALIDATION_CODES` of
 * `@oqlkit/oqo-schema`, which it reuses where they fit: `invalid_column`, `invalid_value`,
 * `invalid_entity`, `invalid_sample`, `invalid_corpus`, `invalid_group_by`, …). A code never changes
 * meaning once published.
 */
export const URL_DIAGNOSTIC_CODES = {
  invalid_url: 'The text is not an API URL, a path such as /works?… or an entity such as works?….',
  not_a_list_query:
    'The URL asks for a single record, autocomplete, /text or another endpoint that is not a list query.',
  unknown_parameter: 'A query parameter the classic list API does not take, or one that has no OQO form.',
  repeated_parameter: 'A parameter other than filter appears more than once.',
  invalid_filter: 'A part of filter= is not key:value.',
  empty_value: 'A filter value is empty, "none" or "undefined".',
  too_many_values: 'An OR list (a|b|…) has more than 100 values.',
  or_across_filters: 'An OR list names another filter (k1:a|k2:b); the classic URL cannot OR across filters.',
  negation_in_negated_list: 'A value of a negated OR list (!a|b) is negated again (!a|!b).',
  unbalanced_quote: 'A double quote has no closing partner.',
  invalid_search: 'Search text whose boolean syntax does not parse (dangling AND/OR/NOT, parentheses).',
  invalid_per_page: 'per_page is not an integer from 1 to 200.',
  invalid_page: 'page is not a positive integer.',
  deprecated_key: 'Warning: a deprecated spelling was read as its current form.',
  group_by_option_dropped:
    'Warning: a group_by suffix (:include_unknown, :known) has no OQO form and was dropped.',
  url_not_representable:
    'The OQO has no classic URL form (an OR across columns, a nested AND inside an OR, …).',
} as const

export type UrlOnlyDiagnosticCode = keyof typeof URL_DIAGNOSTIC_CODES

export type UrlDiagnosticCode = UrlOnlyDiagnosticCode | ValidationCode

/** A finding about a classic URL: what is wrong, where in the URL, and how to fix it. */
export interface UrlDiagnostic {
  readonly code: UrlDiagnosticCode
  readonly severity: 'error' | 'warning'
  /** A sentence that names the bad parameter, key or value and ends with a fix. */
  readonly message: string
  /** The query parameter the finding is about (`filter`, `search.title`, `group_by`, …). */
  readonly parameter?: string
  /** The filter key as written in the URL. */
  readonly key?: string
  /** The offending value as written in the URL (decoded). */
  readonly value?: string
  /** The JSON path in the OQO, for findings of OQO validation. */
  readonly path?: string
}

/** Where a diagnostic points in the URL; every field optional. */
export interface UrlLocation {
  readonly parameter?: string
  readonly key?: string
  readonly value?: string
  readonly path?: string
}

const withLocation = (
  diagnostic: Pick<UrlDiagnostic, 'code' | 'severity' | 'message'>,
  location: UrlLocation,
): UrlDiagnostic => {
  const result: {
    code: UrlDiagnosticCode
    severity: 'error' | 'warning'
    message: string
    parameter?: string
    key?: string
    value?: string
    path?: string
  } = { ...diagnostic }
  if (location.parameter !== undefined) result.parameter = location.parameter
  if (location.key !== undefined) result.key = location.key
  if (location.value !== undefined) result.value = location.value
  if (location.path !== undefined) result.path = location.path
  return result
}

export const urlError = (
  code: UrlDiagnosticCode,
  message: string,
  location: UrlLocation = {},
): UrlDiagnostic => withLocation({ code, severity: 'error', message }, location)

export const urlWarning = (
  code: UrlDiagnosticCode,
  message: string,
  location: UrlLocation = {},
): UrlDiagnostic => withLocation({ code, severity: 'warning', message }, location)

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`: for "did you mean" endings. */
export const listAlternatives = (items: readonly string[]): string => {
  const quoted = items.map((item) => `'${item}'`)
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}
