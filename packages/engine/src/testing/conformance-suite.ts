// What every conformance case works with: the adapter under test (created before the cases, closed after
// them), the fixture's records, the reference evaluator's context over them, and the helpers that build the
// cases' filters and sorts and pick their values from the records.
import type { Filter, Oqo } from '@oqlkit/oqo-schema/registry'
import type { EntityRecord, RowsResult, StorageAdapter } from '../adapter/storage-adapter.ts'
import type { QueryPlan, SortTerm } from '../plan/query-plan.ts'
import { planQuery, type ViewParameters } from '../planner/plan-query.ts'
import { type ReferenceContext, shortIdOf, valuesAt } from './reference-evaluator.ts'

export type EntityType = Parameters<StorageAdapter['findById']>[0]

export interface ConformanceFixture {
  /**
   * The records the adapter's catalog holds, by entity, exactly as it returns them. `works` is required;
   * cases on other entities run for those present.
   */
  readonly records: Readonly<Partial<Record<EntityType, readonly EntityRecord[]>>>
  /** Ids the catalog knows as merged into another, short form. */
  readonly mergedIds: readonly {
    readonly entity: EntityType
    readonly oldId: string
    readonly newId: string
  }[]
}

export const leaf = (
  column_id: string,
  value: string | number | boolean | null,
  extra: Partial<Filter> = {},
): Filter => ({ column_id, value, ...extra }) as Filter
export const not = (filter: Filter): Filter => ({ ...filter, is_negated: true }) as Filter
export const or = (...filters: Filter[]): Filter => ({ join: 'or', filters })

/** A sort of the cases below, as a request's reader hands it to the planner. */
export const sortOf = (...terms: readonly SortTerm[]): readonly SortTerm[] => terms

/** A sort as a URL writes it, to label a case. */
export const labelOf = (sort: readonly SortTerm[] | undefined): string =>
  sort === undefined ? 'no sort' : sort.map((term) => `${term.field}:${term.direction}`).join(',')

/** The plan of an OQO, failing the test when it does not plan. */
export const planOf = (oqo: Oqo, view: ViewParameters = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(`The suite's OQO does not plan: ${JSON.stringify(planned.errors)}`)
  return planned.plan
}

/** The most frequent values at a path, most frequent first (ties by value), with their record counts. */
export const frequencies = (records: readonly EntityRecord[], path: string): [unknown, number][] => {
  const counts = new Map<string, [unknown, number]>()
  for (const record of records)
    for (const value of new Set(valuesAt(record, path).map((v) => JSON.stringify(v)))) {
      const entry = counts.get(value) ?? [JSON.parse(value) as unknown, 0]
      entry[1]++
      counts.set(value, entry)
    }
  return [...counts.values()].sort((a, b) => b[1] - a[1] || String(a[0]).localeCompare(String(b[0])))
}

export const mostFrequent = (records: readonly EntityRecord[], path: string, rank = 0): unknown => {
  const value = frequencies(records, path)[rank]?.[0]
  if (value === undefined) throw new Error(`The fixture has no value at ${path}`)
  return value
}

export const shortOf = (value: unknown): string => {
  const text = String(value)
  return text.slice(text.lastIndexOf('/') + 1)
}

export const ids = (rows: readonly EntityRecord[]): string[] => rows.map(shortIdOf)

export type GroupKey = string | number | boolean | null

/** Bucket keys in order: each position ascending, unknown (null) last. */
export const compareKeys = (left: readonly GroupKey[], right: readonly GroupKey[]): -1 | 0 | 1 => {
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const [a, b] = [left[i] ?? null, right[i] ?? null]
    if (a === b) continue
    if (a === null) return 1
    if (b === null) return -1
    return a < b ? -1 : 1
  }
  return 0
}

/** The adapter under test and what the cases compare it with; `adapter` is set once the suite's `beforeAll` ran. */
export interface ConformanceSuite {
  readonly adapter: StorageAdapter
  readonly fixture: ConformanceFixture
  readonly works: readonly EntityRecord[]
  readonly context: ReferenceContext
  rowsOf(oqo: Oqo, view?: ViewParameters): Promise<RowsResult>
  expectedCount(oqo: Oqo, records?: readonly EntityRecord[]): number
  /** The count the adapter gives equals the reference count, and is not trivially all or nothing. */
  expectCount(filters: Filter[], options?: { allowEmpty?: boolean }): Promise<number>
}
