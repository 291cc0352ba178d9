// Every filterable column of the registry runs against the sample catalog, on every entity the catalog holds
// (is, is not, is null, and > where the column has ranges). Columns read from the JSON record (the generic
// tier) are also checked against the reference evaluator, with values taken from the sample's records.

import { catalogEntityOf } from '@oqlkit/catalog'
import type { EntityRecord, QueryPlan } from '@oqlkit/engine'
import { planQuery } from '@oqlkit/engine'
import { referenceRows, shortIdOf, valuesAt } from '@oqlkit/engine/testing'
import { type Column, ENTITY_TYPES, type LeafFilter, type Oqo, propertiesRegistry } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { columnSourceOf } from '../src/query/duckdb-column-map.ts'
import { readSampleRecords, useSampleCatalogConnections } from './query-sample-fixture.ts'

// Continents and the Global South are not in the records: they come from the countries' codes through the
// geography table, so the reference evaluator (which reads record paths) cannot judge them;
// country-geography.test.ts does.
const GEOGRAPHY = /(^|\.)(continent|is_global_south)$/
/** Columns whose API name is not their path in the record; the last test of this file checks them. */
const RENAMED = new Set(['raw_affiliation_strings'])

const connections = useSampleCatalogConnections()

const countOf = async (plan: QueryPlan): Promise<number> => {
  const compiled = connections.adapter.compile(plan)
  const rows = await connections.db.all(compiled.count.sql, compiled.count.params)
  return Number(rows[0]?.__count)
}

const planOf = (oqo: Oqo, view = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}

/** A value of the column as an OQO would write it: ids and codes short, taken from the records when they have one. */
const sampleValue = (column: Column, records: readonly EntityRecord[]): string | number | boolean => {
  for (const record of records) {
    const value = valuesAt(record, column.id)[0]
    if (value === undefined || typeof value === 'object') continue
    if (column.kind === 'entity_id' || column.kind === 'enum' || column.id.endsWith('.id')) {
      const text = String(value)
      return decodeURIComponent(text.slice(text.lastIndexOf('/') + 1))
    }
    return value as string | number | boolean
  }
  switch (column.kind) {
    case 'number':
    case 'float':
      return 1
    case 'date':
      return '2020-01-01'
    case 'datetime':
      return '2020-01-01T00:00:00'
    case 'boolean':
      return true
    default:
      return 'value'
  }
}

const entities = ENTITY_TYPES.filter((entity) => catalogEntityOf(entity) !== undefined)
const recordsOf = new Map<string, readonly EntityRecord[]>()
const records = (entity: string): readonly EntityRecord[] => {
  const folder = entity === 'types' ? 'work-types' : entity
  if (!recordsOf.has(folder)) recordsOf.set(folder, readSampleRecords(folder))
  return recordsOf.get(folder)!
}

describe('every registry column', () => {
  for (const entity of entities) {
    const columns = propertiesRegistry
      .columnsOf(entity)
      .filter((column) => column.kind !== null && column.kind !== 'search' && column.kind !== 'collection')

    it(`filters ${entity} on each of its ${columns.filter((c) => c.actions.includes('filter')).length} filter columns`, async () => {
      const data = records(entity)
      const context = { byId: new Map(data.map((record) => [shortIdOf(record), record])) }
      for (const column of columns.filter((candidate) => candidate.actions.includes('filter'))) {
        const ref = { id: column.id, kind: column.kind! }
        const source = columnSourceOf(catalogEntityOf(entity)!, ref)
        expect(source.kind, `${entity} ${column.id}`).not.toBe('unsupported')
        const value = sampleValue(column, data)
        const generic =
          ((source.kind === 'scalar' && source.origin === 'record') || source.kind === 'list') &&
          !GEOGRAPHY.test(column.id) &&
          !RENAMED.has(column.id)
        const cases: [string, LeafFilter][] = [
          ['is', { column_id: column.id, value }],
          ['is not', { column_id: column.id, value, is_negated: true }],
          ['is null', { column_id: column.id, value: null }],
          ...(column.operators.includes('>')
            ? ([['>', { column_id: column.id, value, operator: '>' }]] as [string, LeafFilter][])
            : []),
        ]
        const counts = new Map<string, number>()
        for (const [name, filter] of cases) {
          const plan = planOf({ get_rows: entity, filter_rows: [filter] }, { perPage: 1 })
          // The whole adapter path once per column; the count statement alone for the other cases.
          const count =
            name === 'is' ? (await connections.adapter.queryRows(plan)).count : await countOf(plan)
          counts.set(name, count)
          if (generic)
            expect(count, `${entity} ${JSON.stringify(filter)}`).toBe(
              referenceRows(plan, data, context).length,
            )
        }
        // `x` and `!x` split the rows in two, whatever the column: a row without the value is in `!x`.
        expect(counts.get('is')! + counts.get('is not')!, `${entity} ${column.id}`).toBe(data.length)
      }
    })
  }
})

describe('columns the API derives from other fields of the record', () => {
  it('matches raw affiliation strings exactly (any case) and tells works with an ISSN', async () => {
    const works = records('works')
    type Work = {
      authorships?: { raw_affiliation_strings?: string[] }[]
      primary_location?: { source?: { issn?: string[] | null; issn_l?: string | null } | null } | null
      locations?: { source?: { issn?: string[] | null; issn_l?: string | null } | null }[]
    }
    const strings = (work: Work) => (work.authorships ?? []).flatMap((a) => a.raw_affiliation_strings ?? [])
    const target = works.map((work) => strings(work as Work)).find((list) => list.length > 0)![0]!
    const count = async (filter: LeafFilter) =>
      (
        await connections.adapter.queryRows(
          planOf({ get_rows: 'works', filter_rows: [filter] }, { perPage: 1 }),
        )
      ).count
    expect(await count({ column_id: 'raw_affiliation_strings', value: target.toUpperCase() })).toBe(
      works.filter((work) =>
        strings(work as Work).some((text) => text.toLowerCase() === target.toLowerCase()),
      ).length,
    )
    const hasIssn = (source: { issn?: string[] | null; issn_l?: string | null } | null | undefined) =>
      (source?.issn ?? []).length > 0 || (source?.issn_l ?? null) !== null
    expect(await count({ column_id: 'primary_location.source.has_issn', value: true })).toBe(
      works.filter((work) => hasIssn((work as Work).primary_location?.source)).length,
    )
    expect(await count({ column_id: 'locations.source.has_issn', value: true })).toBe(
      works.filter((work) => ((work as Work).locations ?? []).some((location) => hasIssn(location.source)))
        .length,
    )
  })
})
