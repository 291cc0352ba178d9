// No query reads the `record` column: every value a filter, sort or group-by reads of a record was extracted
// at ingest into a derived or record-path column (column-sources.ts). Checked on the SQL the compiler writes
// for every registry column of every entity the catalog holds, in view and in narrow mode.

import { CATALOG_ENTITY_NAMES, catalogEntityOf } from '@oqlkit/catalog'
import { planQuery, type QueryPlan } from '@oqlkit/engine'
import { type Column, ENTITY_TYPES, type Oqo, propertiesRegistry } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { recordPathColumnsOf } from '../src/query/duckdb-column-map.ts'
import { DuckDbPlanCompiler } from '../src/query/duckdb-plan-compiler.ts'

// String literals are not column references; quoted identifiers are, so their quotes are dropped.
const STRING_LITERAL = /'(?:[^']|'')*'/g
const QUOTED_IDENTIFIER = /"((?:[^"]|"")*)"/g
const RECORD_COLUMN = /(?<![A-Za-z0-9_$])record(?![A-Za-z0-9_])/i
const readsRecord = (text: string): boolean =>
  RECORD_COLUMN.test(text.replace(STRING_LITERAL, "''").replace(QUOTED_IDENTIFIER, ' $1 '))

const compilers = [
  new DuckDbPlanCompiler({ newSampleSeed: () => 'fixed' }),
  new DuckDbPlanCompiler({ narrowTables: true, newSampleSeed: () => 'fixed' }),
]

const valuesFor = (column: Column): readonly (string | number | boolean | null)[] => {
  switch (column.kind) {
    case 'number':
    case 'float':
      return [1, null]
    case 'date':
    case 'datetime':
      return ['2020-01-01', null]
    case 'boolean':
      return [true, null]
    case 'search':
      return ['university']
    default:
      return ['W1', 'value', null]
  }
}

const planned = (oqo: Oqo, view = {}): QueryPlan | undefined => {
  const result = planQuery(oqo, view)
  return result.ok ? result.plan : undefined
}

describe('the record column', () => {
  it('is one a test can tell', () => {
    expect(readsRecord('json_extract_string(record, ?)')).toBe(true)
    expect(readsRecord('SELECT "record" FROM t')).toBe(true)
    expect(readsRecord('__w.RECORD')).toBe(true)
    expect(readsRecord("SELECT e.record_offset, 'record' FROM t")).toBe(false)
  })

  it('is read by no filter, sort or group-by of any registry column, in any mode', () => {
    const checked = { filter: 0, sort: 0, group: 0 }
    const readers: string[] = []
    const check = (what: keyof typeof checked, label: string, plan: QueryPlan | undefined) => {
      if (plan === undefined) return
      for (const compiler of compilers) {
        let statements: string[]
        try {
          const compiled = compiler.compile(plan)
          statements = [compiled.sql, 'count' in compiled ? compiled.count.sql : '']
        } catch {
          continue // unsupported here (a search without the search index, a semantic search)
        }
        checked[what] += 1
        if (statements.some(readsRecord)) readers.push(`${label} (narrow: ${compiler.narrowTables})`)
      }
    }
    for (const entity of ENTITY_TYPES.filter((type) => catalogEntityOf(type) !== undefined)) {
      for (const column of propertiesRegistry.columnsOf(entity)) {
        if (column.kind === null || column.kind === 'collection') continue
        const label = `${entity} ${column.id}`
        if (column.actions.includes('filter'))
          for (const value of valuesFor(column))
            check(
              'filter',
              `${label} = ${value}`,
              planned({ get_rows: entity, filter_rows: [{ column_id: column.id, value }] }),
            )
        if (column.actions.includes('sort'))
          for (const direction of ['asc', 'desc'] as const)
            check(
              'sort',
              `${label} sort`,
              planned({ get_rows: entity }, { sort: [{ field: column.id, direction }] }),
            )
        if (column.actions.includes('group_by'))
          check(
            'group',
            `${label} group`,
            planned({ get_rows: entity, group_by: [{ column_id: column.id }] }),
          )
      }
    }
    expect(readers).toEqual([])
    expect(checked.filter).toBeGreaterThan(1000)
    expect(checked.sort).toBeGreaterThan(800)
    expect(checked.group).toBeGreaterThan(300)
  })

  it('has a record-path column for every path a query reads, each name once', () => {
    for (const entity of CATALOG_ENTITY_NAMES) {
      const names = recordPathColumnsOf(entity).map((column) => column.name)
      expect(new Set(names).size, entity).toBe(names.length)
      for (const name of names) expect(name).toMatch(/^json(?:_count|_oa_versions)?__[A-Za-z0-9_]+$/)
    }
    const works = recordPathColumnsOf('works')
    expect(works.find((column) => column.path === '$.authorships[*].institutions[*].type')).toMatchObject({
      name: 'json__authorships__institutions__type',
      form: 'list',
      type: 'VARCHAR[]',
    })
  })
})
