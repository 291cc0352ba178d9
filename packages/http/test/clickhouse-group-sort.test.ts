// Every registry column that can be grouped groups, and every one that can be sorted sorts, on ClickHouse as
// on DuckDB: the same sample catalog behind two apps, one on the DuckDB adapter and one as `serve
// --clickhouse` serves it (support/clickhouse-sample.ts), asked the same `group_by` and `sort` of every
// such column of every entity with a table, and their answers compared. ClickHouse refuses to group or order
// by a Variant, the type it gives an expression whose branches are of two types (`coalesce` of a Float64 and
// an Int64: `concepts_count` and its like answered 500), and a predicate is a UInt8 there (computed booleans
// such as `has_pmid` grouped as `0` and `1`); this walks the whole registry so no column of either kind is left.

import { chdbInstalled } from '@oqlkit/adapter-clickhouse/test-support'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { catalogEntityInfo, loadCatalogTagger } from '@oqlkit/catalog'
import type { StorageAdapter, Tagger } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { ENTITY_TYPES, type EntityType, entityPath, propertiesRegistry } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ClickHouseSample, openSharedClickHouseSample } from './support/clickhouse-sample.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

let duckdbAdapter: StorageAdapter
let clickhouse: ClickHouseSample
let duckdb: ReturnType<typeof createApp>
let app: ReturnType<typeof createApp>
const faults: unknown[] = []

/** The app over an adapter, its faults collected. */
const appOver = (adapter: StorageAdapter, tagger: Tagger) =>
  createApp({
    adapter,
    tagger,
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
    logError: (error) => {
      faults.push(error)
    },
  })

// Long: the first file of a run builds the shared sample catalog, and the load into chdb follows.
beforeAll(async () => {
  const catalogDir = await sharedSampleCatalog()
  duckdbAdapter = await createDuckDbAdapter({ catalogDir, threads: 1 })
  const tagger = await loadCatalogTagger(catalogDir)
  if (tagger === undefined) throw new Error('the sample catalog has no text-tagging model')
  duckdb = appOver(duckdbAdapter, tagger)
  clickhouse = await openSharedClickHouseSample()
  app = appOver(clickhouse.adapter, clickhouse.tagger)
}, 480_000)
afterAll(async () => {
  await clickhouse?.close()
  await duckdbAdapter?.close()
})

interface Answer {
  readonly status: number
  readonly body: Record<string, unknown>
}

const ask = async (served: { fetch: (request: Request) => Response | Promise<Response> }, path: string) => {
  const response = await served.fetch(new Request(`http://localhost${path}`))
  return { status: response.status, body: (await response.json()) as Record<string, unknown> } as Answer
}

/** The entity types with a table in a catalog, and their columns that take an action. */
const columnsTaking = (action: 'group_by' | 'sort'): [EntityType, string][] =>
  ENTITY_TYPES.filter((type) => catalogEntityInfo(entityPath(type)) !== undefined).flatMap((type) =>
    propertiesRegistry
      .columnsOf(type)
      .filter((column) => column.actions.includes(action))
      .map((column): [EntityType, string] => [type, column.id]),
  )

/** Asks both apps each path, a few at a time, and says where they differ. */
const differences = async (paths: readonly string[], pick: (answer: Answer) => unknown) => {
  const found: string[] = []
  let next = 0
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!
      const [fromDuckDb, fromClickHouse] = await Promise.all([ask(duckdb, path), ask(app, path)])
      if (fromClickHouse.status !== fromDuckDb.status)
        found.push(
          `${path}: ClickHouse ${fromClickHouse.status} ${JSON.stringify(fromClickHouse.body).slice(0, 300)}, DuckDB ${fromDuckDb.status}`,
        )
      else if (JSON.stringify(pick(fromClickHouse)) !== JSON.stringify(pick(fromDuckDb)))
        found.push(
          `${path}: ClickHouse ${JSON.stringify(pick(fromClickHouse)).slice(0, 300)}, DuckDB ${JSON.stringify(pick(fromDuckDb)).slice(0, 300)}`,
        )
    }
  }
  await Promise.all([worker(), worker(), worker()])
  return found
}

onChdb('group_by and sort of every registry column, on ClickHouse as on DuckDB', () => {
  it('groups by every column that can be grouped, with the buckets DuckDB gives', async () => {
    const columns = columnsTaking('group_by')
    expect(columns.length).toBeGreaterThan(300)
    const paths = columns.map(([type, id]) => `/${entityPath(type)}?group_by=${id}&per_page=8`)
    const found = await differences(paths, (answer) => ({
      count: (answer.body.meta as { count?: number } | undefined)?.count,
      groups_count: (answer.body.meta as { groups_count?: number } | undefined)?.groups_count,
      group_by: answer.body.group_by,
      code: answer.body.code,
    }))
    expect(found).toEqual([])
    expect(faults).toEqual([])
  }, 240_000)

  it('sorts by every column that can be sorted, in the order DuckDB gives', async () => {
    const columns = columnsTaking('sort')
    expect(columns.length).toBeGreaterThan(400)
    // One direction per column, the two in turn: a type ClickHouse cannot order by fails either way, and
    // both directions (where nulls go included) are compared over the registry at half the requests.
    const paths = columns.map(
      ([type, id], index) =>
        `/${entityPath(type)}?sort=${id}:${index % 2 === 0 ? 'asc' : 'desc'}&per_page=6&select=id`,
    )
    const found = await differences(paths, (answer) => ({
      count: (answer.body.meta as { count?: number } | undefined)?.count,
      ids: (answer.body.results as { id: string }[] | undefined)?.map((row) => row.id),
      code: answer.body.code,
    }))
    expect(found).toEqual([])
    expect(faults).toEqual([])
  }, 240_000)
})
