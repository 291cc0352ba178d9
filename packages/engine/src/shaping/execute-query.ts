import { type PropertiesRegistry, propertiesRegistry } from '@oqlkit/oqo-schema/registry'
import type { EntityRecord, GroupBucket, StorageAdapter } from '../adapter/storage-adapter.ts'
import { UnsupportedPlanError } from '../adapter/unsupported-plan-error.ts'
import { DEFAULT_GROUP_ORDER, type QueryPlan } from '../plan/query-plan.ts'
import { encodeCursor } from '../planner/cursor-codec.ts'
import { shapeEntity } from './entity-shaper.ts'
import { orderBuckets } from './group-bucket-order.ts'
import { type GroupKeyLabel, labelGroupKeys, type RawGroupKey } from './group-key-labeler.ts'
import { QueryLimitError } from './query-limit-error.ts'
import type { GroupsResponse, GroupView, QueryResponse, RowsResponse } from './query-response.ts'

/**
 * The most buckets the engine reads into memory for what an adapter cannot do itself: nested buckets,
 * an order other than the adapter's, or a filter on bucket names (`q`).
 */
export const MAX_BUCKETS_IN_MEMORY = 10_000

/** A plan as `planQuery` returns it: the plan and the signature its cursors are bound to. */
export interface PlannedQuery {
  readonly plan: QueryPlan
  readonly sortSignature: string
}

export interface ExecuteOptions {
  /** Keep only buckets whose display name contains this text, any case (the `q` of a group_by). */
  readonly groupFilter?: string
  readonly registry?: PropertiesRegistry
}

const withOffsetPage = (plan: QueryPlan, page: number, perPage: number): QueryPlan =>
  Object.freeze({ ...plan, page: Object.freeze({ kind: 'offset', page, perPage }) })

type Sums = Readonly<Record<string, number>> | undefined

/** The totals a plan asks for, by their `meta` field; undefined when it asks for none. */
const sumsOf = async (adapter: StorageAdapter, plan: QueryPlan): Promise<Sums> => {
  const sums = plan.sums ?? []
  if (sums.length === 0) return undefined
  if (adapter.sumColumns === undefined)
    throw new UnsupportedPlanError(
      'capability',
      `this adapter cannot total ${sums.map((sum) => sum.column.id).join(', ')}`,
    )
  const values = await adapter.sumColumns(plan)
  return Object.fromEntries(sums.map((sum, index) => [sum.name, values[index] ?? 0]))
}

const executeRows = async (
  adapter: StorageAdapter,
  { plan, sortSignature }: PlannedQuery,
  pendingSums: Promise<Sums>,
): Promise<RowsResponse> => {
  const { perPage } = plan.page
  // A sample's cursor is a position in it (the planner checked it is at a page boundary): the adapter reads
  // that page by number, and the next cursor is the position after it while the sample lasts.
  const sampleOffset =
    plan.sample !== null && plan.page.kind === 'cursor' ? Number(plan.page.after?.[0] ?? 0) : undefined
  const [result, sums] = await Promise.all([
    adapter.queryRows(
      sampleOffset === undefined ? plan : withOffsetPage(plan, sampleOffset / perPage + 1, perPage),
    ),
    pendingSums,
  ])
  const count = plan.sample === null ? result.count : Math.min(plan.sample.size, result.count)
  // Unchanged stored records pass through as bytes; the objects are made only if something reads them.
  const passThrough = plan.select === null ? result.rowsJsonBytes : undefined
  let results: readonly EntityRecord[] | undefined
  return {
    kind: 'rows',
    count,
    page: plan.page.kind === 'offset' ? plan.page.page : null,
    perPage,
    nextCursor:
      plan.page.kind !== 'cursor'
        ? undefined
        : sampleOffset !== undefined
          ? sampleOffset + perPage < count
            ? encodeCursor(sortSignature, [sampleOffset + perPage])
            : null
          : result.nextAfter === null
            ? null
            : encodeCursor(sortSignature, result.nextAfter),
    ...(passThrough === undefined ? {} : { resultsJsonBytes: passThrough }),
    ...(sums === undefined ? {} : { sums }),
    get results() {
      results ??= result.rows.map((row) => shapeEntity(row, plan.select))
      return results
    },
  }
}

/** Every bucket of the first `depth` dimensions, in the adapter's order; too many is a `QueryLimitError`. */
const allBuckets = async (
  adapter: StorageAdapter,
  plan: QueryPlan,
  depth: number,
): Promise<{ count: number; buckets: readonly GroupBucket[] }> => {
  const prefix: QueryPlan = Object.freeze({
    ...withOffsetPage(plan, 1, MAX_BUCKETS_IN_MEMORY),
    groupBy: plan.groupBy.slice(0, depth),
    groupOrder: DEFAULT_GROUP_ORDER,
  })
  const result = await adapter.queryGroups(prefix)
  if (result.groupsCount > MAX_BUCKETS_IN_MEMORY)
    throw new QueryLimitError(
      MAX_BUCKETS_IN_MEMORY,
      `This group_by has ${result.groupsCount} buckets${depth > 1 ? ` over ${depth} dimensions` : ''}; nested group_by, sort by key or count:asc and q read every bucket, up to ${MAX_BUCKETS_IN_MEMORY}. Narrow the query with a filter, or group by one dimension sorted by count:desc.`,
    )
  return { count: result.count, buckets: result.groups }
}

const keyOf = (keys: readonly RawGroupKey[]): string => JSON.stringify(keys)

const executeGroups = async (
  adapter: StorageAdapter,
  { plan, sortSignature }: PlannedQuery,
  options: ExecuteOptions,
  pendingSums: Promise<Sums>,
): Promise<GroupsResponse> => {
  const registry = options.registry ?? propertiesRegistry
  const perPage = plan.page.perPage
  const offset =
    plan.page.kind === 'offset' ? (plan.page.page - 1) * perPage : Number(plan.page.after?.[0] ?? 0)
  const depth = plan.groupBy.length
  const adapterOrders =
    adapter.capabilities.groupOrder === true ||
    (plan.groupOrder.by === DEFAULT_GROUP_ORDER.by &&
      plan.groupOrder.direction === DEFAULT_GROUP_ORDER.direction)

  const labels = plan.groupBy.map(() => new Map<RawGroupKey, GroupKeyLabel>())
  const label = async (level: number, keys: readonly RawGroupKey[]) => {
    const missing = keys.filter((key) => !labels[level]!.has(key))
    if (missing.length === 0) return
    const found = await labelGroupKeys(adapter, plan.entity, plan.groupBy[level]!.column, missing, registry)
    for (const [key, value] of found) labels[level]!.set(key, value)
  }

  let count = 0
  let total: number
  let page: readonly GroupBucket[]
  const levels: (readonly GroupBucket[])[] = []
  if (depth === 1 && options.groupFilter === undefined && adapterOrders) {
    const result = await adapter.queryGroups(withOffsetPage(plan, offset / perPage + 1, perPage))
    count = result.count
    total = result.groupsCount
    page = result.groups
  } else {
    for (let level = 1; level <= depth; level++) {
      const { count: rows, buckets } = await allBuckets(adapter, plan, level)
      if (level === 1) count = rows
      levels.push(orderBuckets(buckets, plan.groupOrder))
    }
    let top = levels[0]!
    if (options.groupFilter !== undefined) {
      const needle = options.groupFilter.toLowerCase()
      await label(
        0,
        top.map((bucket) => bucket.keys[0] ?? null),
      )
      top = top.filter((bucket) =>
        labels[0]!
          .get(bucket.keys[0] ?? null)!
          .displayName.toLowerCase()
          .includes(needle),
      )
      count = top.length
    }
    total = top.length
    page = top.slice(offset, offset + perPage)
  }

  // Children of each bucket: the buckets one level down that share its keys.
  const children = levels.slice(1).map((buckets) => {
    const byParent = new Map<string, GroupBucket[]>()
    for (const bucket of buckets) {
      const parent = keyOf(bucket.keys.slice(0, -1))
      const list = byParent.get(parent) ?? []
      list.push(bucket)
      byParent.set(parent, list)
    }
    return byParent
  })
  const toLabel = new Map<number, RawGroupKey[]>()
  const collect = (bucket: GroupBucket, level: number) => {
    const keys = toLabel.get(level) ?? []
    keys.push(bucket.keys[level] ?? null)
    toLabel.set(level, keys)
    for (const child of children[level]?.get(keyOf(bucket.keys)) ?? []) collect(child, level + 1)
  }
  for (const bucket of page) collect(bucket, 0)
  for (const [level, keys] of toLabel) await label(level, keys)

  const view = (bucket: GroupBucket, level: number): GroupView => {
    const raw = bucket.keys[level] ?? null
    const name = labels[level]!.get(raw)!
    const nested = children[level]?.get(keyOf(bucket.keys))
    return {
      key: name.key,
      key_display_name: name.displayName,
      count: bucket.count,
      ...(level + 1 < depth ? { groups: (nested ?? []).map((child) => view(child, level + 1)) } : {}),
    }
  }
  return {
    kind: 'groups',
    count,
    groupsCount: total,
    page: plan.page.kind === 'offset' ? plan.page.page : null,
    perPage,
    nextCursor:
      plan.page.kind === 'cursor'
        ? offset + perPage < total
          ? encodeCursor(sortSignature, [offset + perPage])
          : null
        : undefined,
    groups: page.map((bucket) => view(bucket, 0)),
    ...(await pendingSums.then((sums) => (sums === undefined ? {} : { sums }))),
  }
}

/**
 * Runs a plan on an adapter and shapes the answer: entity rows (with `relevance_score` where scored,
 * the next cursor under cursor paging), or group buckets with URL-form keys and display names, paged
 * by number or by cursor, ordered as asked, nested for several dimensions; and the totals the plan asks
 * for (`sums`) over every row it keeps. The one path from plan to
 * response that every endpoint (classic list, OQL, OQO) shares.
 */
export const executeQuery = (
  adapter: StorageAdapter,
  planned: PlannedQuery,
  options: ExecuteOptions = {},
): Promise<QueryResponse> => {
  // The totals run beside the page. A grouped query awaits them last, so a failure of its buckets could
  // come first: the no-op handler keeps that from reporting the totals' own failure as unhandled.
  const pendingSums = sumsOf(adapter, planned.plan)
  pendingSums.catch(() => {})
  return planned.plan.groupBy.length > 0
    ? executeGroups(adapter, planned, options, pendingSums)
    : executeRows(adapter, planned, pendingSums)
}
