import type { BranchFilter, Filter, LeafFilter } from '@oqlkit/oqo-schema'
import type { UrlDiagnosticCode } from './url-diagnostic.ts'

/** What reading one filter value gives: a filter tree, or a problem to report against its key. */
export type ValueOutcome =
  | { readonly ok: true; readonly filter: Filter }
  | { readonly ok: false; readonly code: UrlDiagnosticCode; readonly message: string }

export const valueOk = (filter: Filter): ValueOutcome => ({ ok: true, filter })

export const valueProblem = (code: UrlDiagnosticCode, message: string): ValueOutcome => ({
  ok: false,
  code,
  message,
})

/** Negates a leaf or a whole branch (canonicalisation later pushes branch negation to the leaves). */
export const negateFilter = (filter: Filter): Filter => {
  const negated = !(filter.is_negated ?? false)
  if ('join' in filter) {
    const { is_negated: _, ...branch } = filter
    return negated ? { ...branch, is_negated: true } : (branch as BranchFilter)
  }
  const { is_negated: _, ...leaf } = filter
  return negated ? { ...leaf, is_negated: true } : (leaf as LeafFilter)
}

/** One filter, or a branch joining several. */
export const joinFilters = (join: 'and' | 'or', filters: readonly Filter[]): Filter =>
  filters.length === 1 ? filters[0]! : { join, filters: [...filters] }
