import {
  type ColumnAction,
  type EntityType,
  entityPath,
  type Oqo,
  type PropertiesRegistry,
  propertiesRegistry,
  type QueryView,
  resolveEntityType,
} from '@oqlkit/oqo-schema/registry'
import { searchNodesOf } from '../plan/filter-leaves.ts'
import type { FilterNode } from '../plan/filter-node.ts'
import {
  type ColumnSum,
  type CursorPage,
  DEFAULT_GROUP_ORDER,
  type GroupDimension,
  type GroupOrder,
  type OffsetPage,
  type QueryPlan,
  type SortKey,
  type SortTerm,
} from '../plan/query-plan.ts'
import { decodeCursor } from './cursor-codec.ts'
import { FilterPlanError, FilterValueRangeError, planFilter } from './filter-planner.ts'
import { parseGroupOrder } from './group-order-parser.ts'
import type { PlanDiagnostic } from './plan-diagnostic.ts'
import { selectableFields, writeUnknownSelectMessage } from './select-fields.ts'
import { checkSemanticSearch } from './semantic-search-rules.ts'

/** How many results a page may reach into (page × per_page). Deeper paging uses a cursor. */
export const MAX_PAGE_DEPTH = 10_000
/**
 * The largest page unless the operator sets another (`PlanOptions.maxPerPage`, `oqlkit serve
 * --max-per-page`): the public server's 200, so clients written for it (pyalex, openalexR) work unchanged.
 * The API description's strict limit is 100.
 */
export const DEFAULT_MAX_PER_PAGE = 200
export const DEFAULT_PER_PAGE = 25
/**
 * Buckets on a group_by page when the request gives no per_page: the public server answers up to 200, and
 * clients read every group from that one call. An explicit per_page still pages the buckets.
 */
export const DEFAULT_GROUPS_PER_PAGE = 200
/**
 * The seed of a sample walked by cursor without one. Every page of a walk must come from one sample, yet a
 * cursor holds only a position and the planner draws nothing at random (a plan is a pure function of the
 * request, so the same request plans the same). A fixed seed gives that: `cursor=*` on the same query
 * draws the same sample each time, as a seeded one does, and `seed=` draws another. Offset pages without
 * a seed stay a new draw per request (page 1 only), as on the public server.
 */
export const CURSOR_SAMPLE_SEED = 'cursor'
/** Group-by dimensions a query may have. */
export const MAX_GROUP_DIMENSIONS = 3

/**
 * The totals a request may ask for, by the parameter that asks (`apc_sum=true`), each with the `meta`
 * field it fills and the column it sums, as the public server names them.
 */
export const SUM_PARAMETERS = {
  apc_sum: [
    { name: 'apc_list_sum_usd', column: 'apc_list.value_usd' },
    { name: 'apc_paid_sum_usd', column: 'apc_paid.value_usd' },
  ],
  cited_by_count_sum: [{ name: 'cited_by_count_sum', column: 'cited_by_count' }],
} as const satisfies Record<string, readonly { name: string; column: string }[]>

export type SumParameter = keyof typeof SUM_PARAMETERS

/**
 * The view of a query as the planner takes it: the typed view oql reads from a request (sort terms, select,
 * paging), and what the list routes add beside it.
 */
export interface ViewParameters extends QueryView {
  /** Group-by columns whose rows without a value form an unknown bucket (`group_by=x:include_unknown`). */
  readonly includeUnknown?: readonly string[]
  /** Totals to add to `meta`, by the parameter that asks for them. */
  readonly sums?: readonly SumParameter[]
}

/** What the operator of a server decides about every query (not the request). */
export interface PlanOptions {
  readonly registry?: PropertiesRegistry
  /** The largest per_page a request may ask for (default `DEFAULT_MAX_PER_PAGE`). */
  readonly maxPerPage?: number
}

export type PlanResult =
  | { readonly ok: true; readonly plan: QueryPlan; readonly sortSignature: string }
  | { readonly ok: false; readonly errors: readonly PlanDiagnostic[] }

// A search below a NOT excludes rows; it gives no relevance to order by.
const hasSearch = (node: FilterNode | null): boolean => searchNodesOf(node).some((leaf) => !leaf.belowNot)

/** The string a cursor is bound to: the sort it was issued for. */
export const sortSignatureOf = (sort: readonly SortKey[]): string =>
  sort
    .map((key) => `${typeof key.column === 'string' ? key.column : key.column.id}:${key.direction}`)
    .join(',')

/**
 * The string a cursor through a sample is bound to: its size, seed and page size (its position is a count
 * of rows of the sample, at a page boundary).
 */
export const sampleSignatureOf = (size: number, seed: string, perPage: number): string =>
  `sample(${size},${JSON.stringify(seed)}):${perPage}`

/**
 * The string a cursor over group buckets is bound to: the dimensions, their order and the page size
 * (its position is a count of buckets, so it only means something for the same grouping and pages).
 */
export const groupSignatureOf = (
  groupBy: readonly GroupDimension[],
  order: GroupOrder,
  perPage: number,
): string =>
  `groups(${groupBy.map((dimension) => `${dimension.column.id}${dimension.includeUnknown ? '+unknown' : ''}`).join(',')}):${order.by}:${order.direction}:${perPage}`

/** The listed fields of an entity that allow `action`, sorted: what a refusal names as the choices. */
const fieldsAllowing = (entity: EntityType, registry: PropertiesRegistry, action: ColumnAction): string[] =>
  registry
    .columnsOf(entity, { includeUnlisted: false })
    .filter((column) => column.kind !== null && column.actions.includes(action))
    .map((column) => column.id)
    .sort()

const isPositiveInteger = (value: number | undefined): value is number =>
  value !== undefined && Number.isInteger(value) && value >= 1

/**
 * Plans a canonical, valid OQO with its view parameters: the filter tree, a total order (ending with
 * the id), the page or cursor, the sample and the group dimensions. Every problem is reported with the
 * parameter at fault; nothing throws for bad input.
 */
export const planQuery = (oqo: Oqo, view: ViewParameters = {}, options: PlanOptions = {}): PlanResult => {
  const registry = options.registry ?? propertiesRegistry
  const maxPerPage = options.maxPerPage ?? DEFAULT_MAX_PER_PAGE
  const errors: PlanDiagnostic[] = []
  const entity: EntityType = resolveEntityType(oqo.get_rows) ?? 'works'
  const columnRef = (id: string) => {
    const column = registry.resolveColumn(entity, id)
    return column === undefined || column.kind === null
      ? undefined
      : { column, ref: { id: column.id, kind: column.kind } }
  }

  let filter: FilterNode | null = null
  try {
    filter = planFilter(entity, registry, oqo.filter_rows ?? [])
  } catch (error) {
    if (error instanceof FilterValueRangeError)
      errors.push({
        code: 'value_out_of_range',
        parameter: 'filter',
        message: `The value ${error.value} of '${error.columnId}' is out of range: numbers go up to ${Number.MAX_SAFE_INTEGER}. Write a smaller number, or an open range.`,
        rule: 'value_past_max',
        field: error.columnId,
        expected: String(Number.MAX_SAFE_INTEGER),
        actual: String(error.value),
      })
    else if (!(error instanceof FilterPlanError)) throw error
    else
      errors.push({
        code: 'invalid_filter',
        parameter: 'filter',
        message: `'${error.columnId}' of ${entity} cannot be used to filter.`,
        validIn: entity,
      })
  }
  errors.push(...checkSemanticSearch(entity, filter))
  const searching = hasSearch(filter)
  const grouping = (oqo.group_by?.length ?? 0) > 0
  const sampling = oqo.sample !== undefined && oqo.sample !== null

  const sort: SortKey[] = []
  // From plain JavaScript `sort` can be anything: the URL's text (`cited_by_count:desc`) is read into terms
  // by the request's reader, so a string here is refused by name rather than read character by character.
  const sortTerms = view.sort === undefined || isSortTermList(view.sort) ? view.sort : []
  if (view.sort !== sortTerms)
    errors.push({
      code: 'invalid_sort',
      parameter: 'sort',
      message: `sort must be a list of sort terms, such as [{ "field": "cited_by_count", "direction": "desc" }]; got ${describeValue(view.sort)}.`,
    })
  const grouped = grouping ? parseGroupOrder(sortTerms) : { order: DEFAULT_GROUP_ORDER, errors: [] }
  errors.push(...grouped.errors)
  for (const term of grouping ? [] : (sortTerms ?? [])) {
    const { field: name, direction } = term
    if (direction === null) {
      errors.push({
        code: 'invalid_sort',
        parameter: 'sort',
        message: `sort '${term.text ?? name}' has direction '${term.writtenDirection ?? ''}'; write ${name}:asc or ${name}:desc.`,
      })
      continue
    }
    if (name === 'relevance_score') {
      if (direction === 'asc')
        errors.push({
          code: 'relevance_sort_ascending',
          parameter: 'sort',
          message: 'relevance_score sorts descending only (most relevant first); write relevance_score:desc.',
        })
      else if (!searching)
        errors.push({
          code: 'relevance_sort_requires_search',
          parameter: 'sort',
          message:
            'Sorting by relevance_score needs a search in the query; add one, or sort by another field.',
          rule: 'relevance_needs_search',
          field: 'relevance_score',
          expected: 'search',
        })
      else sort.push({ column: 'relevance_score', direction })
      continue
    }
    const found = columnRef(name)
    if (found === undefined || !found.column.actions.includes('sort'))
      errors.push({
        code: 'invalid_sort',
        parameter: 'sort',
        message: `'${name}' cannot be used to sort ${entityPath(entity)}${name === 'key' || name === 'count' ? ` ('${name}' sorts the buckets of a group_by)` : ''}. Sortable fields: relevance_score (with a search), ${fieldsAllowing(entity, registry, 'sort').join(', ')}.`,
      })
    else sort.push({ column: found.ref, direction })
  }
  if (sort.length === 0 && searching) sort.push({ column: 'relevance_score', direction: 'desc' })
  sort.push({ column: 'id', direction: 'asc' })

  if (sampling && (sortTerms !== undefined || grouping))
    errors.push({
      code: 'sample_with_sort',
      parameter: 'sample',
      message:
        'sample returns random rows, so it cannot be combined with sort or group_by. Drop one of them.',
    })
  const seeded = oqo.seed !== undefined && oqo.seed !== null && String(oqo.seed) !== ''
  if (seeded && !sampling)
    errors.push({
      code: 'seed_without_sample',
      parameter: 'seed',
      message: 'seed picks which random sample is drawn, so it needs a sample: add one or drop seed.',
      rule: 'seed_needs_sample',
      field: 'seed',
      expected: 'sample',
    })
  if (sampling && !seeded && view.page !== undefined && view.page > 1)
    errors.push({
      code: 'sample_page_without_seed',
      parameter: 'page',
      message: 'Pages of a sample need a seed, or each page draws a new sample and pages overlap. Add one.',
      rule: 'sample_pages_need_seed',
      field: 'page',
      expected: 'seed',
      actual: String(view.page),
      values: { sample: oqo.sample as number, page: view.page },
    })

  // Buckets are small, so a group_by may always have the public server's 200 on a page, even where rows
  // are capped lower.
  const perPageLimit = grouping ? Math.max(maxPerPage, DEFAULT_GROUPS_PER_PAGE) : maxPerPage
  const perPage = view.perPage ?? (grouping ? DEFAULT_GROUPS_PER_PAGE : DEFAULT_PER_PAGE)
  if (!isPositiveInteger(perPage) || perPage > perPageLimit)
    errors.push({
      code: 'invalid_per_page',
      parameter: 'per_page',
      message: `per_page must be an integer from 1 to ${perPageLimit} (was ${view.perPage}).`,
    })
  if (view.page !== undefined && !isPositiveInteger(view.page))
    errors.push({
      code: 'invalid_page',
      parameter: 'page',
      message: `page must be a positive integer (was ${view.page}).`,
    })
  else if (view.page !== undefined && view.page * perPage > MAX_PAGE_DEPTH)
    errors.push({
      code: 'invalid_page',
      parameter: 'page',
      message: `page ${view.page} with per_page ${perPage} reaches past result ${MAX_PAGE_DEPTH}; use cursor paging to go deeper.`,
      rule: 'page_past_depth',
      field: 'page',
      expected: `at most ${MAX_PAGE_DEPTH} results deep`,
      actual: String(view.page),
      values: { page: view.page, perPage, depth: MAX_PAGE_DEPTH },
    })
  if (view.cursor !== undefined && view.page !== undefined)
    errors.push({
      code: 'cursor_with_page',
      parameter: 'cursor',
      message: 'cursor and page cannot be used together: cursor paging follows meta.next_cursor. Drop page.',
    })

  const groupBy: GroupDimension[] = []
  if ((oqo.group_by?.length ?? 0) > MAX_GROUP_DIMENSIONS)
    errors.push({
      code: 'invalid_group_by',
      parameter: 'group_by',
      message: `group_by takes at most ${MAX_GROUP_DIMENSIONS} dimensions (was ${oqo.group_by?.length}).`,
    })
  for (const { column_id } of oqo.group_by ?? []) {
    const found = columnRef(column_id)
    if (found === undefined || !found.column.actions.includes('group_by'))
      errors.push({
        code: 'invalid_group_by',
        parameter: 'group_by',
        message: `'${column_id}' cannot be grouped by on ${entityPath(entity)}. Groupable fields: ${fieldsAllowing(entity, registry, 'group_by').join(', ')}.`,
      })
    else
      groupBy.push({ column: found.ref, includeUnknown: view.includeUnknown?.includes(column_id) ?? false })
  }

  const sampleSeed = seeded
    ? String(oqo.seed)
    : sampling && view.cursor !== undefined
      ? CURSOR_SAMPLE_SEED
      : null
  const sortSignature = grouping
    ? groupSignatureOf(groupBy, grouped.order, perPage)
    : sampling && view.cursor !== undefined
      ? sampleSignatureOf(oqo.sample as number, sampleSeed!, perPage)
      : sortSignatureOf(sort)
  let page: OffsetPage | CursorPage = { kind: 'offset', page: view.page ?? 1, perPage }
  if (view.cursor !== undefined) {
    let after = view.cursor === '*' ? null : decodeCursor(view.cursor, sortSignature)
    // A bucket or sample cursor holds an offset at a page boundary; anything else was not issued by this
    // server.
    if ((grouping || sampling) && after !== null && after !== undefined) {
      const offset = after[0]
      if (after.length !== 1 || !Number.isInteger(offset) || (offset as number) % perPage !== 0)
        after = undefined
    }
    if (after === undefined)
      errors.push({
        code: 'invalid_cursor',
        parameter: 'cursor',
        message: 'This cursor was not issued for this query. Start cursor paging again from its first page.',
        rule: 'cursor_not_issued',
        field: 'cursor',
        actual: view.cursor,
      })
    else page = { kind: 'cursor', after, perPage }
  }

  let select: string[] | null = null
  // From plain JavaScript `select` can be anything: a string such as the URL's `id,title` would be read
  // character by character (or throw), so anything but a list of names is refused by name.
  const selectIsList =
    view.select === undefined ||
    (Array.isArray(view.select) && view.select.every((field: unknown) => typeof field === 'string'))
  if (!selectIsList)
    errors.push({
      code: 'invalid_select',
      parameter: 'select',
      message: `select must be a list of field names, such as ["id", "display_name"]; got ${describeValue(view.select)}.`,
    })
  else if (view.select !== undefined && view.select.length > 0) {
    if (grouping)
      errors.push({
        code: 'invalid_select',
        parameter: 'select',
        message: 'select shapes result rows, and group_by returns buckets instead; drop one of them.',
      })
    const valid = selectableFields(entity, registry)
    const known = new Set(valid)
    const unknown = view.select.filter((field) => !known.has(field))
    if (unknown.length > 0)
      errors.push({
        code: 'invalid_select',
        parameter: 'select',
        message: writeUnknownSelectMessage(entityPath(entity), unknown, valid),
      })
    select = [...view.select]
  }

  const sums: ColumnSum[] = []
  for (const parameter of new Set(view.sums ?? [])) {
    const wanted = SUM_PARAMETERS[parameter]
    const found = wanted.map((sum) => ({ name: sum.name, found: columnRef(sum.column) }))
    if (found.some((sum) => sum.found === undefined || !['number', 'float'].includes(sum.found.ref.kind)))
      errors.push({
        code: 'invalid_sum',
        parameter,
        message: `${parameter} totals ${wanted.map((sum) => sum.column).join(' and ')}, which ${entityPath(entity)} do not have; ask it of works.`,
        rule: 'sum_column_missing',
        field: parameter,
        expected: wanted.map((sum) => sum.column).join(' and '),
        actual: entityPath(entity),
      })
    else for (const sum of found) sums.push({ name: sum.name, column: sum.found!.ref })
  }

  if (errors.length > 0) return { ok: false, errors }
  const plan: QueryPlan = Object.freeze({
    kind: 'query',
    entity,
    corpus: entity === 'works' ? (oqo.corpus ?? 'core') : 'all',
    filter,
    sort: Object.freeze(sort),
    page: Object.freeze(page),
    sample: sampling ? Object.freeze({ size: oqo.sample as number, seed: sampleSeed }) : null,
    select: select === null ? null : Object.freeze(select),
    groupBy: Object.freeze(groupBy),
    groupOrder: grouped.order,
    ...(sums.length === 0 ? {} : { sums: Object.freeze(sums) }),
  })
  return { ok: true, plan, sortSignature }
}

const isSortTermList = (value: unknown): value is readonly SortTerm[] =>
  Array.isArray(value) &&
  value.every(
    (term: unknown) =>
      typeof term === 'object' &&
      term !== null &&
      typeof (term as SortTerm).field === 'string' &&
      ['asc', 'desc', null].includes((term as SortTerm).direction),
  )

/** A value a plain JavaScript caller passed where a list was expected, for an error message. */
const describeValue = (value: unknown): string =>
  typeof value === 'string'
    ? `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`
    : Array.isArray(value)
      ? 'a list holding something other than names'
      : value === null
        ? 'null'
        : `a ${typeof value}`
