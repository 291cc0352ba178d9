// Every registry column that can be grouped groups, and every one that can be sorted sorts, on ClickHouse as
// on DuckDB: the same sample catalog behind two apps, one on the DuckDB adapter and one as `serve
// --clickhouse` serves it (support/clickhouse-sample.ts), asked the same `group_by` and `sort` of every
// such column of every entity with a table. ClickHouse refuses to group or order by a Variant, the type it
// gives an expression whose branches are of two types (`coalesce` of a Float64 and an Int64), which the
// API answered with a 500; this walks the whole registry so no column of that kind is left.

import { catalogEntityInfo } from '@oqlkit/adapter-duckdb'
import { createApp } from '@oqlkit/http'
import { ENTITY_TYPES, type EntityType, entityPath, propertiesRegistry } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ClickHouseSample, openClickHouseSample } from './support/clickhouse-sample.ts'
import { useSampleApp } from './support/sample-app.ts'

const duckdb = useSampleApp()
let clickhouse: ClickHouseSample
let app: ReturnType<typeof createApp>
const faults: unknown[] = []

beforeAll(async () => {
  clickhouse = await openClickHouseSample(duckdb.catalogDir)
  app = createApp({
    adapter: clickhouse.adapter,
    tagger: clickhouse.tagger,
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
    logError: (error) => {
      faults.push(error)
    },
  })
}, 240_000)
afterAll(async () => {
  await clickhouse?.close()
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
      const [fromDuckDb, fromClickHouse] = await Promise.all([ask(duckdb.app, path), ask(app, path)])
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

describe('group_by and sort of every registry column, on ClickHouse as on DuckDB', () => {
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
