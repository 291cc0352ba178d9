// How long a citation snowball takes (issue 41, item 2), against the way clients of the public server gather
// one (openalexR's `oa_snowball`): OR-lists of 50 seeds in `filter=cited_by:…` (the works they cite) and
// `filter=cites:…` (the works citing them), every page of 200 by cursor, plus the seeds themselves. Both through
// the app in process (`app.fetch`, no socket), over the DuckDB adapter on a catalog, each timed to the last byte
// of its answers; the rounds alternate:
//   GET /works/snowball?ids=…&depth=1&select=id (and whole records);
//   the lists, select=id,referenced_works (what a client needs to draw the citations).
// Then one depth-2 snowball from the same seeds, answered or refused at the node limit.
// The seeds are a seeded choice of the catalog's works.
//   npm run bench:snowball -- --catalog DIR [--seeds 100] [--rounds 5] [--seed 1]
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { DuckDBInstance } from '@duckdb/node-api'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { SERVING_DATABASE_FILE } from '@oqlkit/catalog'
import { createApp } from '@oqlkit/http'
import { median } from './bench-stats.ts'

const { values } = parseArgs({
  options: {
    catalog: { type: 'string' },
    seeds: { type: 'string', default: '100' },
    rounds: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
  },
})
if (values.catalog === undefined) {
  process.stderr.write(
    'usage: npm run bench:snowball -- --catalog DIR [--seeds 100] [--rounds 5] [--seed 1]\n',
  )
  process.exit(2)
}
const catalogDir = values.catalog
const wanted = Number(values.seeds)
const rounds = Number(values.rounds)
/** The OR-list length of a client's snowball (the public server takes up to 100 values). */
const OR_LIST = 50

/** A seeded choice of the catalog's work ids (short), read from the serving database. */
async function chooseSeeds(): Promise<string[]> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  try {
    await connection.run(
      `ATTACH '${join(catalogDir, SERVING_DATABASE_FILE).replaceAll("'", "''")}' AS c (READ_ONLY)`,
    )
    const reader = await connection.runAndReadAll(
      'SELECT id FROM c.main.works__narrow ORDER BY hash(id || $1) LIMIT $2',
      [values.seed, wanted],
    )
    return reader.getRowObjectsJson().map((row) => {
      const id = String(row.id)
      return id.slice(id.lastIndexOf('/') + 1)
    })
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

const seeds = await chooseSeeds()
const adapter = await createDuckDbAdapter({ catalogDir })
// A deadline past any of these runs: the bench times the work, not the limit.
const app = createApp({
  adapter,
  catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
  logError: (error) => process.stderr.write(`${String((error as Error).stack ?? error)}\n`),
})

const fetchJson = async (path: string) => {
  const response = await app.fetch(new Request(`http://localhost${path}`))
  const bytes = await response.arrayBuffer()
  return { status: response.status, bytes }
}

const snowball = async (depth: number, select: boolean) => {
  const started = performance.now()
  // Timed to the last byte of the answer; what the client then parses is its own cost, not the server's.
  const { status, bytes } = await fetchJson(
    `/works/snowball?ids=${seeds.join('|')}&depth=${depth}${select ? '&select=id' : ''}`,
  )
  const ms = performance.now() - started
  const body = JSON.parse(new TextDecoder().decode(bytes)) as {
    meta?: { count: number; citations_count: number }
    code?: string
    message?: string
  }
  if (status !== 200 && body.code !== 'snowball_too_large')
    throw new Error(`snowball answered ${status}: ${body.message}`)
  return { ms, status, works: body.meta?.count, citations: body.meta?.citations_count, message: body.message }
}

/** Every page of one list by cursor: the ids it returns. */
const allPages = async (filter: string): Promise<string[]> => {
  const ids: string[] = []
  for (let cursor: string | null = '*'; cursor !== null; ) {
    const { status, bytes } = await fetchJson(
      `/works?filter=${encodeURIComponent(filter)}&per_page=200&cursor=${encodeURIComponent(cursor)}&select=id,referenced_works`,
    )
    if (status !== 200) throw new Error(`a list answered ${status}`)
    const body = JSON.parse(new TextDecoder().decode(bytes)) as {
      meta: { next_cursor: string | null }
      results: { id: string }[]
    }
    ids.push(...body.results.map((work) => work.id))
    cursor = body.results.length === 0 ? null : body.meta.next_cursor
  }
  return ids
}

const clientWay = async () => {
  const started = performance.now()
  const reached = new Set<string>()
  for (let at = 0; at < seeds.length; at += OR_LIST) {
    const slice = seeds.slice(at, at + OR_LIST).join('|')
    for (const filter of [`openalex:${slice}`, `cited_by:${slice}`, `cites:${slice}`])
      for (const id of await allPages(filter)) reached.add(id)
  }
  return { ms: performance.now() - started, works: reached.size }
}

const runs = { selected: [] as number[], whole: [] as number[], lists: [] as number[] }
const reached = { selected: 0, whole: 0, lists: 0, citations: 0 }
const loads: number[] = []
// One round of each first, not counted: the first statements of a process read the catalog cold.
await snowball(1, true)
await clientWay()
for (let round = 0; round < rounds; round++) {
  loads.push(loadavg()[0]!)
  const selected = await snowball(1, true)
  const whole = await snowball(1, false)
  const lists = await clientWay()
  runs.selected.push(selected.ms)
  runs.whole.push(whole.ms)
  runs.lists.push(lists.ms)
  Object.assign(reached, {
    selected: selected.works,
    whole: whole.works,
    lists: lists.works,
    citations: selected.citations,
  })
}
const deeper = await snowball(2, true)
await adapter.close()

const ms = (value: number) => `${value.toFixed(0)} ms`
const listCalls = Math.ceil(seeds.length / OR_LIST) * 3
process.stdout.write(
  `${[
    `catalog ${catalogDir}; ${seeds.length} seeds; ${rounds} rounds after one not counted; load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
    `GET /works/snowball depth=1 select=id: median ${ms(median(runs.selected))} (${runs.selected.map(ms).join(', ')}), ${reached.selected} works, ${reached.citations} citations`,
    `GET /works/snowball depth=1, whole records: median ${ms(median(runs.whole))} (${runs.whole.map(ms).join(', ')}), ${reached.whole} works`,
    `the client's way (${listCalls} filters of ${OR_LIST} seeds, every page of 200 by cursor, select=id,referenced_works): median ${ms(median(runs.lists))} (${runs.lists.map(ms).join(', ')}), ${reached.lists} works`,
    `ratio snowball/client's way: ${(median(runs.selected) / median(runs.lists)).toFixed(3)}`,
    `depth=2 select=id: ${ms(deeper.ms)}, ${deeper.status === 200 ? `${deeper.works} works, ${deeper.citations} citations` : `400: ${deeper.message}`}`,
  ].join('\n')}\n`,
)
