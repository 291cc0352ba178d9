import {
  type Column,
  type EntityType,
  type Filter,
  isBranch,
  type LeafFilter,
  type PropertiesRegistry,
} from '@oqlkit/oqo-schema/registry'
import {
  type ColumnRef,
  type FilterNode,
  FilterNodes,
  type FilterValue,
  type SearchMode,
} from '../plan/filter-node.ts'

// `from_publication_date: d` is `publication_date >= d` (and `to_…` is `<=`): the classic API's
// inclusive date bounds, kept as columns of their own by the registry and the OQO.
const DATE_BOUND = /^(from|to)_(.+_date)$/

const refOf = (column: Column): ColumnRef => ({ id: column.id, kind: column.kind ?? 'string' })

const searchModeOf = (columnId: string): { field: string; mode: SearchMode } => {
  // The classic API's kNN filter: a search by meaning of the work's text, like `search.semantic=`.
  if (columnId === 'semantic.search') return { field: 'semantic', mode: 'semantic' }
  const match = /^(.*)\.search(?:\.(exact|semantic))?$/.exec(columnId)
  if (match === null) return { field: columnId, mode: 'stemmed' }
  return {
    field: match[1]!,
    mode: match[2] === 'exact' ? 'exact' : match[2] === 'semantic' ? 'semantic' : 'stemmed',
  }
}

const COMPARISONS = { '>': '>', '>=': '>=', '<': '<', '<=': '<=' } as const

export class FilterPlanError extends Error {
  override readonly name = 'FilterPlanError'
  constructor(readonly columnId: string) {
    super(`Column '${columnId}' cannot be used to filter`)
  }
}

/** A number no stored value can be compared with: past the integers a 64-bit store holds exactly. */
export class FilterValueRangeError extends Error {
  override readonly name = 'FilterValueRangeError'
  constructor(
    readonly columnId: string,
    readonly value: number,
  ) {
    super(`The value ${value} of '${columnId}' is out of range`)
  }
}

const checkNumber = (column: Column, value: LeafFilter['value']): void => {
  if (typeof value !== 'number') return
  const valid = column.kind === 'number' ? Number.isSafeInteger(value) : Number.isFinite(value)
  if (!valid) throw new FilterValueRangeError(column.id, value)
}

const planLeaf = (entity: EntityType, registry: PropertiesRegistry, leaf: LeafFilter): FilterNode => {
  const column = registry.resolveColumn(entity, leaf.column_id)
  if (column === undefined || column.kind === null) throw new FilterPlanError(leaf.column_id)
  const operator = leaf.operator ?? 'is'
  if (column.kind === 'number' || column.kind === 'float') checkNumber(column, leaf.value)
  let node: FilterNode
  if (operator === 'in collection') node = FilterNodes.collection(refOf(column), String(leaf.value))
  else if (operator === 'has') {
    const { field, mode } = searchModeOf(column.id)
    node = FilterNodes.search(refOf(column), field, mode, String(leaf.value))
  } else if (leaf.value === null) node = FilterNodes.missing(refOf(column))
  else {
    const bound = DATE_BOUND.exec(column.id)
    const base = bound === null ? undefined : registry.resolveColumn(entity, bound[2]!)
    if (bound !== null && base !== undefined && operator === 'is')
      node = FilterNodes.comparison(refOf(base), bound[1] === 'from' ? '>=' : '<=', leaf.value)
    else
      node = FilterNodes.comparison(
        refOf(column),
        operator === 'is' ? '=' : COMPARISONS[operator],
        leaf.value,
      )
  }
  return leaf.is_negated === true ? FilterNodes.not(node) : node
}

/** Positive `column = value` leaves on one column, ORed, become one `in-list` (one index probe, not N). */
const collapseOrOfEqualities = (children: readonly FilterNode[]): FilterNode[] => {
  const byColumn = new Map<string, { column: ColumnRef; values: FilterValue[] }>()
  const rest: FilterNode[] = []
  for (const child of children) {
    if (child.kind === 'comparison' && child.operator === '=') {
      const entry = byColumn.get(child.column.id) ?? { column: child.column, values: [] }
      entry.values.push(child.value)
      byColumn.set(child.column.id, entry)
    } else rest.push(child)
  }
  const lists = [...byColumn.values()].map(({ column, values }) =>
    values.length === 1
      ? FilterNodes.comparison(column, '=', values[0]!)
      : FilterNodes.inList(column, values),
  )
  return [...lists, ...rest]
}

/** The plan filter of canonical OQO filter rows (implicitly ANDed), or null for none. */
export const planFilter = (
  entity: EntityType,
  registry: PropertiesRegistry,
  rows: readonly Filter[],
): FilterNode | null => {
  const plan = (filter: Filter): FilterNode => {
    if (!isBranch(filter)) return planLeaf(entity, registry, filter)
    const children = filter.filters.map(plan)
    const node =
      filter.join === 'and'
        ? FilterNodes.and(children)
        : (() => {
            const collapsed = collapseOrOfEqualities(children)
            return collapsed.length === 1 ? collapsed[0]! : FilterNodes.or(collapsed)
          })()
    return filter.is_negated === true ? FilterNodes.not(node) : node
  }
  if (rows.length === 0) return null
  const nodes = rows.map(plan)
  return nodes.length === 1 ? nodes[0]! : FilterNodes.and(nodes)
}
