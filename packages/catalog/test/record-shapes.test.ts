// The table of list fields (`record-shapes.ts`) against the bundled sample: every list a registry column's
// path walks through must be marked, or its JSON path would miss the `[*]` and match nothing.

import { readSampleRecords } from '@oqlkit/ingest/test-support'
import { propertiesRegistry } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { catalogEntityOf } from '../src/columns/column-sources.ts'
import { listPathsOf, recordJsonPath } from '../src/records/record-shapes.ts'

/** Dotted paths (no indexes) at which the records hold a list. */
function listPathsIn(records: readonly Record<string, unknown>[]): Set<string> {
  const paths = new Set<string>()
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      paths.add(path)
      for (const item of value) walk(item, path)
    } else if (value !== null && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) walk(inner, path === '' ? key : `${path}.${key}`)
  }
  for (const record of records) walk(record, '')
  return paths
}

const ENTITIES = [
  'works',
  'authors',
  'sources',
  'institutions',
  'topics',
  'publishers',
  'funders',
  'concepts',
  'domains',
  'fields',
  'subfields',
] as const

describe('list fields of the records', () => {
  for (const entity of ENTITIES) {
    it(`marks every list of ${entity} that a registry column walks through`, () => {
      const catalogEntity = catalogEntityOf(entity)!
      const inRecords = listPathsIn(readSampleRecords(entity))
      const marked = listPathsOf(catalogEntity)
      const walked = new Set(
        propertiesRegistry
          .columnsOf(entity)
          .filter(
            (column) => column.kind !== null && column.kind !== 'search' && column.kind !== 'collection',
          )
          .flatMap((column) => column.id.split('.').map((_, i, parts) => parts.slice(0, i + 1).join('.'))),
      )
      const missing = [...inRecords].filter((path) => walked.has(path) && !marked.has(path))
      expect(missing).toEqual([])
    })
  }

  it('writes `[*]` after each list step and quotes keys that are not plain names', () => {
    expect(recordJsonPath('works', 'authorships.institutions.id')).toEqual({
      path: '$.authorships[*].institutions[*].id',
      list: true,
    })
    expect(recordJsonPath('works', 'open_access.oa_status')).toEqual({
      path: '$.open_access.oa_status',
      list: false,
    })
    expect(recordJsonPath('authors', 'summary_stats.2yr_mean_citedness')).toEqual({
      path: '$.summary_stats."2yr_mean_citedness"',
      list: false,
    })
  })
})
