import type { PlanDiagnostic } from '@oqlkit/engine'
import type { ApiProblem } from './api-error.ts'

/** What the request wrote, where a message quotes it (the `sort` as written, trimmed). */
export interface WrittenView {
  readonly sort?: string
}

/**
 * The words of a planner rule in the API's terms (URL parameters, routes), from the data the planner gives
 * (arktype's way: the problem is data, the caller writes it); undefined for a diagnostic whose own words
 * the API answers with.
 */
const ruleMessageOf = (diagnostic: PlanDiagnostic, written: WrittenView): string | undefined => {
  const { field, expected, actual, values = {} } = diagnostic
  switch (diagnostic.rule) {
    case 'bucket_sort_one_key':
      return `group_by buckets sort by one key; sort=${written.sort ?? actual} names ${values.keys}. Write one of ${expected}.`
    case 'relevance_needs_search':
      return 'sort=relevance_score needs a search; add search= or a .search filter, or sort by another field.'
    case 'seed_needs_sample':
      return 'seed picks which random sample is drawn, so it needs sample: add sample=N or drop seed.'
    case 'sample_pages_need_seed':
      return `Pages of a sample need a seed, or each page draws a new sample and pages overlap. Add one: sample=${values.sample}&seed=123&page=${values.page}.`
    case 'page_past_depth':
      return `page ${values.page} with per_page ${values.perPage} reaches past result ${values.depth}; use cursor paging (cursor=*) to go deeper.`
    case 'cursor_not_issued':
      return 'This cursor was not issued for this query. Start with cursor=* and follow meta.next_cursor.'
    case 'sum_column_missing':
      return `${field}=true totals ${expected}, which ${actual} do not have; ask it of /works.`
    case 'value_past_max':
      return `The value ${actual} of '${field}' is out of range: numbers go up to ${expected}. Write a smaller number, or an open range such as ${field}:>1000.`
    case 'semantic_on_works_only':
      return `Semantic search is only supported for /works (the catalog has vectors of works alone); this query searches ${actual}. Use search= for a full-text search of ${actual}.`
    case 'semantic_with_full_text':
      return 'A semantic search cannot be combined with a full-text search (search=, .search filters): their relevance scores are not comparable. Use one of them, with filters.'
    case 'semantic_text_empty':
      return 'The semantic search text is empty: give a passage to find works similar to (search.semantic=coral reef bleaching).'
    case undefined:
      return undefined
  }
}

/**
 * The message of a planning error as the API words it: the planner's account of what was wrong (its rule
 * written in URL terms), and where this server lists what is valid instead. The one place plan diagnostics
 * become words about parameters and routes.
 */
export const planMessageOf = (diagnostic: PlanDiagnostic, written: WrittenView = {}): string => {
  const message = ruleMessageOf(diagnostic, written) ?? diagnostic.message
  return diagnostic.validIn === undefined ? message : `${message} See GET /properties/${diagnostic.validIn}.`
}

/**
 * The problems of a plan that failed, for a 400: each with its code, its message and the parameter at fault
 * (`parameter` when the whole plan came from one parameter, as an autocomplete filter does).
 */
export const planProblemsOf = (
  diagnostics: readonly PlanDiagnostic[],
  parameter?: string,
  written: WrittenView = {},
): ApiProblem[] =>
  diagnostics.map((diagnostic) => ({
    error: diagnostic.code,
    message: planMessageOf(diagnostic, written),
    parameter: parameter ?? diagnostic.parameter,
  }))
