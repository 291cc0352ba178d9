import { type FilterNode, visitFilter } from '../plan/filter-node.ts'
import type { QueryPlan } from '../plan/query-plan.ts'

/**
 * What one call of each kind costs, in US dollars (the per-call costs of the API description; the
 * rate-limit report serves this table as `endpoint_costs_usd`). Every price the server charges or
 * reports comes from here, so metering and `meta.cost_usd` cannot disagree.
 */
export const ENDPOINT_COSTS_USD = Object.freeze({
  singleton: 0,
  list: 0.0001,
  search: 0.001,
  semantic: 0.01,
  content: 0.01,
  text: 0.01,
})

/** The kinds of call the API prices; `autocomplete` is free, like a singleton. */
export type CostClass = keyof typeof ENDPOINT_COSTS_USD | 'autocomplete'

/** The cost of one call of a class, in US dollars. */
export const costUsdOf = (costClass: CostClass): number =>
  costClass === 'autocomplete' ? 0 : ENDPOINT_COSTS_USD[costClass]

const searchModes = (node: FilterNode | null): ReadonlySet<string> => {
  const modes = new Set<string>()
  const visit = (child: FilterNode): void =>
    visitFilter(child, {
      comparison: () => undefined,
      'in-list': () => undefined,
      missing: () => undefined,
      collection: () => undefined,
      search: (search) => {
        modes.add(search.mode)
      },
      and: (and) => and.children.forEach(visit),
      or: (or) => or.children.forEach(visit),
      not: (not) => visit(not.child),
    })
  if (node !== null) visit(node)
  return modes
}

/**
 * The price class of a list or group query: `semantic` when it searches by meaning, `search` when it
 * searches text (`search=`, `search.*=` or a `.search` filter, negated or not), `list` otherwise. A group
 * query is priced like the list it groups.
 */
export const costClassOfPlan = (plan: QueryPlan): 'list' | 'search' | 'semantic' => {
  const modes = searchModes(plan.filter)
  if (modes.has('semantic')) return 'semantic'
  return modes.size > 0 ? 'search' : 'list'
}
