import {
  COLLECTION_ID,
  type EntityType,
  entityPath,
  type PropertiesRegistry,
  propertiesRegistry,
} from '@oqlkit/oqo-schema/registry'
import { leavesOf, searchNodesOf } from '../plan/filter-leaves.ts'
import {
  type CollectionNode,
  type ColumnRef,
  type ComparisonNode,
  type FilterNode,
  FilterNodes,
  type FilterVisitor,
  type InListNode,
  type SearchNode,
  visitFilter,
} from '../plan/filter-node.ts'
import type { QueryPlan } from '../plan/query-plan.ts'
import { CollectionError } from './collection-error.ts'
import { COLLECTION_LIMITS } from './collection-record.ts'
import type { ResolvedCollection } from './collection-service.ts'

/** Finds a collection a query names, or throws the `CollectionError` that refuses it (401, 403, 404). */
export type CollectionLookup = (collectionId: string) => Promise<ResolvedCollection>

/** The column `collection:` filters on: the entity itself. */
const SAME_TYPE_COLUMN = 'collection'

const collectionNodesOf = (filter: FilterNode | null): CollectionNode[] =>
  leavesOf(filter, 'collection').map((leaf) => leaf.node)

/** The searches of a filter whose whole text is a bare collection id (a quoted one is text to find). */
const collectionSearchesOf = (filter: FilterNode | null): SearchNode[] =>
  searchNodesOf(filter)
    .map((leaf) => leaf.node)
    .filter((node) => COLLECTION_ID.test(node.text.trim()))

/**
 * Refuses a collection id given to a text search (`title.search:col_…`, `search=col_…`, any stemmed,
 * exact or semantic search), as a collection on any other field that holds no ids is refused: searching
 * for the id's text would answer an empty list, never what the client meant. Quoted, the id is text.
 */
export const refuseCollectionSearches = (plan: QueryPlan): void => {
  const [search] = collectionSearchesOf(plan.filter)
  if (search === undefined) return
  const id = search.text.trim()
  throw new CollectionError(
    'collection_filter_search',
    `'${search.column.id}' is a text search, so it cannot take the collection ${id}. Filter by a collection with collection:${id} on the endpoint of its type, or on an ID field that holds ids of its type; to search for the text itself, quote it ("${id}").`,
    'filter',
  )
}

/** Whether a plan filters by a collection (so the request needs a key). */
export const hasCollectionFilters = (plan: QueryPlan): boolean => collectionNodesOf(plan.filter).length > 0

const unwrapNot = (node: FilterNode): FilterNode => (node.kind === 'not' ? unwrapNot(node.child) : node)

const nameOf = (node: CollectionNode): string =>
  node.column.id === SAME_TYPE_COLUMN ? 'collection' : node.column.id

const COMBINE_HINT =
  'To combine collections, fetch their entity ids (GET /collections/ followed by the collection id and /entities) and pass them as one id list (the service: filter, or ids.openalex:a|b).'

/** Refuses the collection filters the API does not allow, before any collection is looked up. */
const checkShape = (filter: FilterNode | null): void => {
  const nodes = collectionNodesOf(filter)
  const walk = (node: FilterNode): void => {
    if (node.kind === 'not') {
      walk(node.child)
      return
    }
    if (node.kind !== 'and' && node.kind !== 'or') return
    if (node.kind === 'or') {
      const ored = collectionNodesOf(node)
      if (ored.length > 1)
        throw new CollectionError(
          'collection_filter_or',
          `Collections cannot be ORed (${ored.map((c) => `${nameOf(c)}:${c.collectionId}`).join(' | ')}). ${COMBINE_HINT}`,
          'filter',
        )
    }
    // A collection and literal ids of the same field side by side in one branch.
    const children = node.children.map(unwrapNot)
    for (const child of children) {
      if (child.kind !== 'collection') continue
      const literal = children.find(
        (other): other is ComparisonNode | InListNode =>
          (other.kind === 'comparison' || other.kind === 'in-list') && other.column.id === child.column.id,
      )
      if (literal !== undefined)
        throw new CollectionError(
          'collection_filter_mixed',
          `${nameOf(child)} mixes the collection ${child.collectionId} with literal ids (${literal.kind === 'comparison' ? literal.value : literal.values.join('|')}) in one clause. Filter by the collection alone and add those ids to it, or list every id literally.`,
          'filter',
        )
    }
    for (const child of node.children) walk(child)
  }
  if (filter !== null) walk(filter)
  const sameType = nodes.filter((node) => node.column.id === SAME_TYPE_COLUMN)
  if (sameType.length > 1)
    throw new CollectionError(
      'collection_filter_repeated',
      `Only one collection: filter is allowed per request (this one has ${sameType.map((node) => node.collectionId).join(', ')}). ${COMBINE_HINT}`,
      'filter',
    )
  const byField = new Map<string, CollectionNode[]>()
  for (const node of nodes) byField.set(node.column.id, [...(byField.get(node.column.id) ?? []), node])
  for (const [field, onField] of byField)
    if (field !== SAME_TYPE_COLUMN && onField.length > 1)
      throw new CollectionError(
        'collection_filter_same_field',
        `${field} carries ${onField.length} collections (${onField.map((node) => node.collectionId).join(', ')}); a field takes one collection. Different fields may each carry one. ${COMBINE_HINT}`,
        'filter',
      )
}

/** The column that holds an entity's own id (`ids.openalex`, or `id` for keywords and SDGs). */
const ownIdColumn = (entity: EntityType, registry: PropertiesRegistry): ColumnRef => {
  for (const candidate of ['ids.openalex', 'openalex', 'id']) {
    const column = registry.resolveColumn(entity, candidate)
    if (column?.kind === 'entity_id' && column.valueEntity === entity && column.actions.includes('filter'))
      return { id: column.id, kind: 'entity_id' }
  }
  throw new Error(`The registry has no id column to filter ${entity} by`)
}

const checkType = (
  plan: QueryPlan,
  node: CollectionNode,
  collection: ResolvedCollection,
  registry: PropertiesRegistry,
): void => {
  if (node.column.id === SAME_TYPE_COLUMN) {
    if (collection.entityType !== plan.entity)
      throw new CollectionError(
        'collection_filter_type_mismatch',
        `collection ${node.collectionId} is type '${collection.entityType}', not valid for /${entityPath(plan.entity)}. Use it on /${entityPath(collection.entityType)}, or on a field of /${entityPath(plan.entity)} that holds ${collection.entityType} ids.`,
        'filter',
      )
    return
  }
  const expected = registry.resolveColumn(plan.entity, node.column.id)?.valueEntity ?? null
  // A field that may hold ids of several types (a host organisation) takes a collection of any of them.
  if (expected === null || expected === collection.entityType) return
  throw new CollectionError(
    'collection_filter_type_mismatch',
    `${node.column.id} holds ${expected} ids, but collection ${node.collectionId} is type '${collection.entityType}'. Use a collection of ${expected} on ${node.column.id}, or put this collection on a field that holds ${collection.entityType} ids.`,
    'filter',
  )
}

/**
 * Replaces each collection of a plan's filter by an `in-list` of its member ids, so adapters never see
 * collections. First refuses what the API does not allow (a collection id given to a text search, and
 * among collection filters: more than one `collection:` filter, ORed
 * collections, a collection mixed with literal ids, two collections on one field), then looks each
 * collection up (`lookup` refuses anonymous callers, other users' collections and unknown ids), then
 * checks each collection's type against the endpoint or field, and the total of resolved ids. A plan
 * without collections comes back as it was.
 */
export const resolveCollectionFilters = async (
  plan: QueryPlan,
  lookup: CollectionLookup,
  registry: PropertiesRegistry = propertiesRegistry,
): Promise<QueryPlan> => {
  refuseCollectionSearches(plan)
  const nodes = collectionNodesOf(plan.filter)
  if (nodes.length === 0) return plan
  checkShape(plan.filter)
  const resolved = new Map<string, ResolvedCollection>()
  for (const node of nodes)
    if (!resolved.has(node.collectionId)) resolved.set(node.collectionId, await lookup(node.collectionId))
  let total = 0
  for (const node of nodes) {
    const collection = resolved.get(node.collectionId)!
    checkType(plan, node, collection, registry)
    total += collection.entityIds.length
  }
  if (total > COLLECTION_LIMITS.resolvedIdsPerRequest)
    throw new CollectionError(
      'too_many_collection_ids',
      `The collection filters of this request resolve to ${total} ids; at most ${COLLECTION_LIMITS.resolvedIdsPerRequest} are allowed. Use fewer collections.`,
      'filter',
    )

  const idColumn = nodes.some((node) => node.column.id === SAME_TYPE_COLUMN)
    ? ownIdColumn(plan.entity, registry)
    : undefined
  const replace: FilterVisitor<FilterNode> = {
    comparison: (node) => node,
    'in-list': (node) => node,
    missing: (node) => node,
    search: (node) => node,
    collection: (node) =>
      FilterNodes.inList(
        node.column.id === SAME_TYPE_COLUMN ? idColumn! : node.column,
        resolved.get(node.collectionId)!.entityIds,
      ),
    and: (node) => FilterNodes.and(node.children.map((child) => visitFilter(child, replace))),
    or: (node) => FilterNodes.or(node.children.map((child) => visitFilter(child, replace))),
    not: (node) => FilterNodes.not(visitFilter(node.child, replace)),
  }
  return Object.freeze({ ...plan, filter: plan.filter === null ? null : visitFilter(plan.filter, replace) })
}
