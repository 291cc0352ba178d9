// Every sortable and every groupable column of the registry runs against the sample catalog, on every entity
// the catalog holds. Every sort's first page is checked against the values the sample records hold (sortKeyOf);
// scalar numeric and date sorts also row by row against the reference evaluator, and groups of columns read
// from the JSON record against its buckets.

import { catalogEntityOf, LINK_TABLES, linkViewOf } from '@oqlkit/catalog'
import type { EntityRecord, QueryPlan } from '@oqlkit/engine'
import { planQuery } from '@oqlkit/engine'
import {
  lastSegment,
  referenceGroups,
  referenceOrder,
  referenceRows,
  shortIdOf,
  valuesAt,
} from '@oqlkit/engine/testing'
import { ENTITY_TYPES, type Oqo, propertiesRegistry } from '@oqlkit/oqo-schema'
import { afterAll, describe, expect, it } from 'vitest'
import { columnSourceOf } from '../src/query/duckdb-column-map.ts'
import { readSampleRecords, useSampleCatalogConnections } from './query-sample-fixture.ts'

const COPIED_COLUMNS = new Set([
  'publication_year',
  'publication_date',
  'cited_by_count',
  'works_count',
  'fwci',
  'level',
  'hierarchy_level',
  'summary_stats.h_index',
  'summary_stats.i10_index',
  'summary_stats.2yr_mean_citedness',
])

const connections = useSampleCatalogConnections()

const planOf = (oqo: Oqo, view = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}

type SortKey = string | number | boolean | null

// Columns that are not a record path: a date bound sorts by its date, a count by the length of its list,
// `authors_count` falls back to the number of authorships, and a work without `is_xpac` is not one.
const DATE_BOUND = /^(from|to)_(.+_date)$/
const COUNTED: Readonly<Record<string, string>> = {
  concepts_count: 'concepts',
  topics_count: 'topics',
  locations_count: 'locations',
}
// A column of works that a link table holds sorts by that table's keys, which gather every path the table
// reads (`funders.id` also from `grants[].funder` and `awards[].funder_id`), as its filter matches them: the
// paths of each such column, dotted (`$[*].author.id` of `authorships` is `authorships.author.id`).
const LINKED_WORK_PATHS: ReadonlyMap<string, readonly string[]> = new Map(
  propertiesRegistry.columnsOf('works').flatMap((column) => {
    if (column.kind === null) return []
    const source = columnSourceOf('works', { id: column.id, kind: column.kind })
    const link = source.kind === 'link' ? source : source.kind === 'cited-by' ? source.references : null
    if (link === null) return []
    const spec = LINK_TABLES.find((candidate) => linkViewOf(candidate.name) === link.view)!
    const paths = spec.sources.map(({ field, path }) =>
      [field, ...path.split(/\.|\[\*\]|^\$/).filter((segment) => segment !== '')].join('.'),
    )
    return [[column.id, paths] as const]
  }),
)

const sourceValues = (record: EntityRecord, id: string, entity: string): unknown[] => {
  const linked = entity === 'works' ? LINKED_WORK_PATHS.get(id) : undefined
  if (linked !== undefined) return linked.flatMap((path) => valuesAt(record, path))
  const bound = DATE_BOUND.exec(id)
  if (bound !== null) return valuesAt(record, bound[2]!)
  if (COUNTED[id] !== undefined) return [valuesAt(record, COUNTED[id]).length]
  if (id === 'authors_count') {
    const stored = valuesAt(record, id)
    return stored.length > 0 ? stored : [valuesAt(record, 'authorships').length]
  }
  if (id === 'is_xpac') return [record.is_xpac ?? false]
  return valuesAt(record, id)
}

/**
 * The value a sample record sorts by, read from the record: ids by their short form, dates by the day, a list
 * by its smallest value ascending and its largest descending; null when it has none (those sort last).
 */
const sortKeyOf = (
  entity: string,
  record: EntityRecord,
  column: { id: string; kind: string },
  direction: string,
): SortKey => {
  const keys = sourceValues(record, column.id, entity).map((value): SortKey => {
    switch (column.kind) {
      case 'entity_id':
        return lastSegment(String(value)).toUpperCase()
      case 'number':
      case 'float':
        return Number(value)
      case 'boolean':
        return Boolean(value)
      case 'date':
        return String(value).slice(0, 10)
      default:
        return String(value)
    }
  })
  if (keys.length === 0) return null
  return keys.reduce((best, key) => ((direction === 'asc' ? key! < best! : key! > best!) ? key : best))
}

/** The first `size` sort keys of the records in a direction, nulls last. */
const expectedKeys = (keys: readonly SortKey[], direction: string, size: number): SortKey[] => {
  const present = keys.filter((key) => key !== null).sort((a, b) => (a! < b! ? -1 : a! > b! ? 1 : 0))
  if (direction === 'desc') present.reverse()
  return [...present, ...keys.filter((key) => key === null)].slice(0, size)
}

// Sorts whose sample records hold at least two different values, so a wrong order shows.
let observableSorts = 0
afterAll(() => {
  // 313 of the 444 sortable columns vary in the sample (both ways: 626); the rest have no value in any
  // record (awards, created dates of vocabularies) or are computed from other tables (has_*, continents).
  expect(observableSorts).toBeGreaterThanOrEqual(600)
})

const entities = ENTITY_TYPES.filter((entity) => catalogEntityOf(entity) !== undefined)
const records = (entity: string): readonly EntityRecord[] =>
  readSampleRecords(entity === 'types' ? 'work-types' : entity)

describe('every registry column', () => {
  for (const entity of entities) {
    const columns = propertiesRegistry
      .columnsOf(entity)
      .filter(
        (column) =>
          column.kind !== null &&
          column.kind !== 'search' &&
          column.kind !== 'collection' &&
          columnSourceOf(catalogEntityOf(entity)!, { id: column.id, kind: column.kind }).kind !==
            'unsupported',
      )

    it(`sorts ${entity} by each sortable column, both ways`, async () => {
      const data = records(entity)
      const context = { byId: new Map(data.map((record) => [shortIdOf(record), record])) }
      for (const column of columns.filter((candidate) => candidate.actions.includes('sort'))) {
        const source = columnSourceOf(catalogEntityOf(entity)!, { id: column.id, kind: column.kind! })
        // Derived columns with a fallback (`authors_count`: else the number of authorships) sort by more
        // than the record path says; the others are copies of it.
        const comparable =
          source.kind === 'scalar' &&
          (source.origin === 'record' || COPIED_COLUMNS.has(column.id)) &&
          ['number', 'float', 'date'].includes(column.kind!)
        for (const direction of ['asc', 'desc'] as const) {
          const plan = planOf({ get_rows: entity }, { sort: [{ field: column.id, direction }], perPage: 10 })
          // The page statement alone: the order is all a sort decides (count and records are tested elsewhere).
          const compiled = connections.adapter.compile(plan)
          const page = (await connections.db.all(compiled.sql, compiled.params))
            .slice(0, 10)
            .map((row) => String(row.__id))
          expect(page.length, column.id).toBe(Math.min(10, data.length))
          // Every column: the page holds the first ten sort values of the records, in order.
          const keys = data.map((record) =>
            sortKeyOf(entity, record, { id: column.id, kind: column.kind! }, direction),
          )
          const pageKeys = page.map((id) =>
            sortKeyOf(entity, context.byId.get(id)!, { id: column.id, kind: column.kind! }, direction),
          )
          expect(pageKeys, `${entity} ${column.id}:${direction}`).toEqual(expectedKeys(keys, direction, 10))
          if (new Set(keys).size > 1) observableSorts++
          if (comparable) {
            const expected = referenceOrder(plan, referenceRows(plan, data, context)).slice(0, 10)
            expect(page, `${entity} ${column.id}:${direction}`).toEqual(expected.map(shortIdOf))
          }
        }
      }
    })

    it(`groups ${entity} by each groupable column, with the unknown bucket`, async () => {
      const data = records(entity)
      const context = { byId: new Map(data.map((record) => [shortIdOf(record), record])) }
      for (const column of columns.filter((candidate) => candidate.actions.includes('group_by'))) {
        const plan = planOf(
          { get_rows: entity, group_by: [{ column_id: column.id }] },
          { perPage: 100, includeUnknown: [column.id] },
        )
        const result = await connections.adapter.queryGroups(plan)
        // With the unknown bucket, every row lands in at least one bucket.
        const total = result.groups.reduce((sum, bucket) => sum + bucket.count, 0)
        expect(total, column.id).toBeGreaterThanOrEqual(result.groupsCount <= 100 ? result.count : 0)
        const source = columnSourceOf(catalogEntityOf(entity)!, { id: column.id, kind: column.kind! })
        // Continents and the Global South come from the country table, not from record paths (the reference
        // evaluator's view): country-geography.test.ts checks them.
        const generic =
          ((source.kind === 'scalar' && source.origin === 'record') || source.kind === 'list') &&
          !/(^|\.)(continent|is_global_south)$/.test(column.id) &&
          column.id !== 'raw_affiliation_strings' // a list of the authorships' strings: query-columns.test.ts
        if (generic) {
          const expected = referenceGroups(plan, data, context)
          expect(result.groupsCount, column.id).toBe(expected.size)
          for (const bucket of result.groups)
            expect(
              expected.get(JSON.stringify(bucket.keys)),
              `${column.id} ${JSON.stringify(bucket.keys)}`,
            ).toBe(bucket.count)
        }
      }
    })
  }
})
