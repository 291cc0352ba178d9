/**
 * The stable codes of OQO validation. Parse codes of the OQL text (`OQL_…`) live in `@oqlkit/oql`;
 * both are listed in `spec/diagnostics.json`. A code never changes meaning once published.
 */
export const VALIDATION_CODES = {
  invalid_body: 'The object has a key it may not have, lacks one it needs, or a value of the wrong shape.',
  invalid_entity: 'get_rows names no entity type.',
  invalid_column:
    'A column id is not a column of the entity, or the column cannot be used that way (filtered, grouped by).',
  invalid_operator: 'An operator is not one of the OQO operators.',
  invalid_operator_for_column: 'The operator does not apply to the kind of value the column holds.',
  invalid_value_type:
    'A value has the wrong type for its column (a word for a number, a number for a boolean…).',
  invalid_value:
    'A value is not in the column’s domain (an unknown country code, an id of the wrong entity…).',
  invalid_join: 'A branch join is neither "and" nor "or".',
  empty_branch: 'A branch has no filters.',
  invalid_sample: 'sample is not an integer from 1 to 10,000.',
  invalid_seed: 'seed is not a string or an integer.',
  invalid_corpus: 'corpus is not "core", "expansion" or "all".',
  invalid_group_by: 'A group_by dimension is malformed or names no column of the entity.',
  corpus_ignored: 'Warning: corpus applies to works only and was dropped.',
  seed_without_sample: 'Warning: seed has no effect without sample.',
  embedded_view_parameter:
    'Warning: sort_by, select, per_page, page or cursor inside the OQO is a transitional shape.',
} as const

export type ValidationCode = keyof typeof VALIDATION_CODES

export type DiagnosticSeverity = 'error' | 'warning'

/** A finding about an OQO: where it is (a JSON path such as `filter_rows[0].filters[1].operator`) and how to fix it. */
export interface OqoDiagnostic {
  readonly code: ValidationCode
  readonly severity: DiagnosticSeverity
  /** A sentence that names the path, says what was expected and what was received, and ends with a fix. */
  readonly message: string
  /** The JSON path of the offending node or key; empty for the object itself. */
  readonly path: string
}

/** `filter_rows[0].filters[1]` from `['filter_rows', 0, 'filters', 1]`. */
export const formatPath = (segments: ReadonlyArray<string | number>): string =>
  segments.reduce<string>(
    (path, segment) =>
      typeof segment === 'number' ? `${path}[${segment}]` : path === '' ? segment : `${path}.${segment}`,
    '',
  )

/** `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`. */
export const listAlternatives = (items: readonly string[]): string => {
  const quoted = items.map((item) => `'${item}'`)
  return quoted.length <= 1 ? (quoted[0] ?? '') : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}

export const quote = (value: unknown): string =>
  typeof value === 'string' ? `'${value}'` : JSON.stringify(value)

export const writeUnknownColumnMessage = (
  path: string,
  entity: string,
  columnId: string,
  suggestions: readonly string[],
) =>
  `${path}: '${columnId}' is not a column of ${entity}.` +
  (suggestions.length > 0 ? ` Did you mean ${listAlternatives(suggestions)}?` : '') +
  ` GET /properties/${entity} lists the columns.`

export const writeColumnActionMessage = (
  path: string,
  entity: string,
  columnId: string,
  action: string,
  actions: readonly string[],
) =>
  `${path}: '${columnId}' of ${entity} cannot be used to ${action.replace('_', ' ')} (it supports ${actions.length > 0 ? actions.join(', ') : 'nothing but selection'}). Choose a column with the '${action}' action from GET /properties/${entity}.`

export const writeOperatorForColumnMessage = (
  path: string,
  columnId: string,
  kind: string,
  operator: string,
  allowed: readonly string[],
) =>
  `${path}: operator '${operator}' does not apply to '${columnId}' (a ${kind} column). Use ${allowed.length > 0 ? allowed.map((o) => `'${o}'`).join(', ') : 'another column'}.`

export const writeValueTypeMessage = (path: string, columnId: string, expected: string, value: unknown) =>
  `${path}: '${columnId}' needs ${expected} (was ${quote(value)}). Write the value as ${expected}.`

export const writeNullValueMessage = (path: string, columnId: string, operator: string) =>
  `${path}: null (a missing value) works only with the 'is' operator on a column that can be missing; '${columnId}' with '${operator}' cannot match it. Drop the operator or use a real value.`

export const writeValueDomainMessage = (
  path: string,
  columnId: string,
  value: unknown,
  expected: string,
  suggestion?: string,
) =>
  `${path}: ${quote(value)} is not a valid value of '${columnId}' (expected ${expected}).` +
  (suggestion === undefined ? ' Check the value.' : ` Did you mean '${suggestion}'?`)
