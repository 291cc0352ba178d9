// The searches of a plan's filter, grouped into the relations a statement defines: one per search, except that
// the searches of one OR on one column (`search=a|b|…`, `title.search:a|"b c"`) share one, the documents that
// match any of them scored by the sum of those they match, which the search compiler writes as one aggregate
// over all their postings (as it does an `and` of words). Each search of its own cost the statement a CTE, a
// join of its scores and a subquery of its filter apiece: a 100-term OR took 10 s where 100 ANDed words took
// 0.25 s. Shared by every adapter that compiles the plan's searches into one statement.
import {
  type FilterNode,
  type FilterVisitor,
  type SearchNode,
  searchNodesOf,
  visitFilter,
} from '@oqlkit/engine'

/** What searches must share to be one relation: their column, and so their search field and mode. */
const groupKey = (node: SearchNode): string => JSON.stringify([node.column.id, node.field, node.mode])

/** The direct search children of each OR of a filter that share a column, two or more, and `mergeable`. */
const orGroupsOf = (filter: FilterNode, mergeable: (node: SearchNode) => boolean): SearchNode[][] => {
  const groups: SearchNode[][] = []
  const visitor: FilterVisitor<void> = {
    comparison: () => {},
    'in-list': () => {},
    missing: () => {},
    search: () => {},
    collection: () => {},
    and: (node) => {
      for (const child of node.children) visitFilter(child, visitor)
    },
    or: (node) => {
      const byKey = new Map<string, SearchNode[]>()
      for (const child of node.children) {
        if (child.kind === 'search' && mergeable(child)) {
          const key = groupKey(child)
          const group = byKey.get(key) ?? []
          group.push(child)
          byKey.set(key, group)
        } else visitFilter(child, visitor)
      }
      for (const group of byKey.values()) if (group.length > 1) groups.push(group)
    },
    not: (node) => visitFilter(node.child, visitor),
  }
  visitFilter(filter, visitor)
  return groups
}

/**
 * The searches of a filter as a statement's relations, in the order of their first search in the filter: each
 * a list of one search, or of the `mergeable` searches of one OR on one column (semantic searches and scans of
 * text the index does not hold are not mergeable: they are no index query).
 */
export const searchGroupsOf = (
  filter: FilterNode | null,
  mergeable: (node: SearchNode) => boolean,
): SearchNode[][] => {
  if (filter === null) return []
  const leaves = searchNodesOf(filter).map((leaf) => leaf.node)
  // A node placed twice in the tree (were a plan ever to share one) keeps a relation of its own: elsewhere it
  // must not stand for its OR's other searches.
  const placed = new Map<SearchNode, number>()
  for (const node of leaves) placed.set(node, (placed.get(node) ?? 0) + 1)
  const groupOf = new Map<SearchNode, SearchNode[]>()
  for (const group of orGroupsOf(filter, (node) => placed.get(node) === 1 && mergeable(node)))
    for (const node of group) groupOf.set(node, group)
  const seen = new Set<SearchNode>()
  const groups: SearchNode[][] = []
  for (const node of leaves) {
    if (seen.has(node)) continue
    const group = groupOf.get(node) ?? [node]
    for (const member of group) seen.add(member)
    groups.push(group)
  }
  return groups
}

/**
 * Whether a filter node holds only searches of `group`: an OR of them every row must match is met exactly by
 * the rows of their relation, which a statement can then join rather than filter by.
 */
export const onlySearchesOf = (node: FilterNode, group: readonly SearchNode[]): boolean =>
  node.kind === 'or' &&
  node.children.length > 0 &&
  node.children.every((child) => child.kind === 'search' && group.includes(child))
