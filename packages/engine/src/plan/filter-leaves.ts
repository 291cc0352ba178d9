import { type FilterNode, type FilterNodeKind, type FilterVisitor, visitFilter } from './filter-node.ts'

/** The kinds of filter node that hold a condition rather than other nodes. */
export type LeafKind = Exclude<FilterNodeKind, 'and' | 'or' | 'not'>

/** A leaf of a filter tree, with where it sits. */
export interface PlacedLeaf<N> {
  readonly node: N
  /** Under an odd number of NOTs: rows that match it are excluded. */
  readonly negated: boolean
  /** Under at least one NOT, whatever their number. */
  readonly belowNot: boolean
  /** Under an OR: one alternative, not a condition every row meets. */
  readonly belowOr: boolean
}

/**
 * Every leaf of one kind in a filter tree, in order, with its place: the one walk over a filter that the
 * planner, the adapters and the HTTP layer share. It is written on the exhaustive visitor, so a new node kind
 * fails to compile here rather than being skipped by a `default:` in each hand-written walk.
 */
export const leavesOf = <K extends LeafKind>(
  filter: FilterNode | null,
  kind: K,
): PlacedLeaf<Extract<FilterNode, { kind: K }>>[] => {
  const found: PlacedLeaf<Extract<FilterNode, { kind: K }>>[] = []
  const walk = (node: FilterNode, negated: boolean, belowNot: boolean, belowOr: boolean): void => {
    const leaf = (candidate: FilterNode) => {
      if (candidate.kind === kind)
        found.push({ node: candidate as Extract<FilterNode, { kind: K }>, negated, belowNot, belowOr })
    }
    const visitor: FilterVisitor<void> = {
      comparison: leaf,
      'in-list': leaf,
      missing: leaf,
      search: leaf,
      collection: leaf,
      and: (and) => {
        for (const child of and.children) walk(child, negated, belowNot, belowOr)
      },
      or: (or) => {
        for (const child of or.children) walk(child, negated, belowNot, true)
      },
      not: (not) => walk(not.child, !negated, true, belowOr),
    }
    visitFilter(node, visitor)
  }
  if (filter !== null) walk(filter, false, false, false)
  return found
}

/** The search leaves of a filter, with their places. */
export const searchNodesOf = (filter: FilterNode | null) => leavesOf(filter, 'search')

/**
 * The filter without the node `removed`, a top-level AND leaf (where the planner places a semantic search):
 * what the rest of a query keeps, its candidates. Null when nothing is left.
 */
export const filterWithout = (node: FilterNode | null, removed: FilterNode): FilterNode | null => {
  if (node === null || node === removed) return null
  if (node.kind !== 'and') return node
  const children = node.children
    .map((child) => filterWithout(child, removed))
    .filter((child): child is FilterNode => child !== null)
  return children.length === 0 ? null : children.length === 1 ? children[0]! : { kind: 'and', children }
}
