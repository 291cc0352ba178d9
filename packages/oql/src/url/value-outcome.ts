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
  // Copied member by member (V8 is slow to add a member to a spread copy), in the same order.
  const members = filter as unknown as Record<string, unknown>
  const copy: Record<string, unknown> = {}
  for (const key in members) if (key !== 'is_negated' && Object.hasOwn(members, key)) copy[key] = members[key]
  if (!(filter.is_negated ?? false)) copy.is_negated = true
  return 'join' in filter ? (copy as unknown as BranchFilter) : (copy as unknown as LeafFilter)
}

/** One filter, or a branch joining several. */
export const joinFilters = (join: 'and' | 'or', filters: readonly Filter[]): Filter =>
  filters.length === 1 ? filters[0]! : { join, filters: [...filters] }
