// How long a bulk lookup of many DOIs takes (issue 41, item 1), against the way clients of the public server
// do it today: OR-lists of 50 DOIs in `filter=doi:…|…`, one list request after another. Both through the
// app in process (`app.fetch`, no socket), over the DuckDB adapter on a catalog, each timed to the last byte of
// its answer (the client's parse of it not counted, for either); the rounds alternate:
//   POST /works/lookup?select=id with all the DOIs (no record read), ?select=id,doi (records read and picked), and
//   without select (whole records); GET /works?filter=doi:a|b|…&per_page=50&select=id,doi, DOIs/50 times.
// The DOIs are a seeded choice of the catalog's works' DOIs, a tenth of them changed to DOIs it lacks.
//   npm run bench:bulk-lookup -- --catalog DIR [--ids 10000] [--rounds 5] [--seed 1]
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
    ids: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
  },
})
if (values.catalog === undefined) {
  process.stderr.write(
    'usage: npm run bench:bulk-lookup -- --catalog DIR [--ids 10000] [--rounds 5] [--seed 1]\n',
  )
  process.exit(2)
}
const catalogDir = values.catalog
const wanted = Number(values.ids)
const rounds = Number(values.rounds)
/** The OR-list length clients use against the public server (its filter takes up to 100 values). */
const OR_LIST = 50

/** A seeded choice of the works' DOIs (as URLs), read from the serving database. */
async function chooseDois(): Promise<string[]> {
  const instance = await DuckDBInstance.create(':memory:')
  const connection = await instance.connect()
  try {
    await connection.run(
      `ATTACH '${join(catalogDir, SERVING_DATABASE_FILE).replaceAll("'", "''")}' AS c (READ_ONLY)`,
    )
    const reader = await connection.runAndReadAll(
      `SELECT value FROM c.main.external_ids WHERE entity = 'works' AND scheme = 'doi'
       ORDER BY hash(value || $1) LIMIT $2`,
      [values.seed, wanted],
    )
    return reader.getRowObjectsJson().map((row, at) =>
      // A tenth are DOIs the catalog lacks, as a reference list has.
      at % 10 === 9 ? `https://doi.org/10.0000/missing.${at}` : `https://doi.org/${String(row.value)}`,
    )
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

const dois = await chooseDois()
const adapter = await createDuckDbAdapter({ catalogDir })
const app = createApp({ adapter, catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} } })

const lookup = async (select: string | undefined) => {
  const started = performance.now()
  const response = await app.fetch(
    new Request(`http://localhost/works/lookup${select === undefined ? '' : `?select=${select}`}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ids: dois }),
    }),
  )
  // Timed to the last byte of the answer; what the client then parses is its own cost, not the server's.
  const bytes = await response.arrayBuffer()
  const ms = performance.now() - started
  if (response.status !== 200) throw new Error(`lookup answered ${response.status}`)
  const body = JSON.parse(new TextDecoder().decode(bytes)) as { meta: { found: number } }
  return { ms, found: body.meta.found }
}

const orLists = async () => {
  let ms = 0
  let found = 0
  for (let at = 0; at < dois.length; at += OR_LIST) {
    const started = performance.now()
    const filter = `doi:${dois.slice(at, at + OR_LIST).join('|')}`
    const response = await app.fetch(
      new Request(
        `http://localhost/works?filter=${encodeURIComponent(filter)}&per_page=${OR_LIST}&select=id,doi`,
      ),
    )
    const bytes = await response.arrayBuffer()
    ms += performance.now() - started
    if (response.status !== 200) throw new Error(`a list answered ${response.status}`)
    found += (JSON.parse(new TextDecoder().decode(bytes)) as { meta: { count: number } }).meta.count
  }
  return { ms, found }
}

const runs = { ids: [] as number[], selected: [] as number[], whole: [] as number[], orLists: [] as number[] }
const found = { ids: 0, selected: 0, whole: 0, orLists: 0 }
const loads: number[] = []
// One round of each first, not counted: the first statements of a process read the catalog cold.
await lookup('id,doi')
await orLists()
for (let round = 0; round < rounds; round++) {
  loads.push(loadavg()[0]!)
  const ids = await lookup('id')
  const selected = await lookup('id,doi')
  const whole = await lookup(undefined)
  const lists = await orLists()
  runs.ids.push(ids.ms)
  runs.selected.push(selected.ms)
  runs.whole.push(whole.ms)
  runs.orLists.push(lists.ms)
  Object.assign(found, { ids: ids.found, selected: selected.found, whole: whole.found, orLists: lists.found })
}
await adapter.close()

const ms = (value: number) => `${value.toFixed(0)} ms`
process.stdout.write(
  `${[
    `catalog ${catalogDir}; ${dois.length.toLocaleString('en')} DOIs (a tenth not in it); ${rounds} rounds after one not counted; load ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}`,
    `POST /works/lookup?select=id: median ${ms(median(runs.ids))} (${runs.ids.map(ms).join(', ')}), found ${found.ids}`,
    `POST /works/lookup?select=id,doi: median ${ms(median(runs.selected))} (${runs.selected.map(ms).join(', ')}), found ${found.selected}`,
    `POST /works/lookup, whole records: median ${ms(median(runs.whole))} (${runs.whole.map(ms).join(', ')}), found ${found.whole}`,
    `${Math.ceil(dois.length / OR_LIST)} GET /works?filter=doi:… of ${OR_LIST} (select=id,doi): median ${ms(median(runs.orLists))} (${runs.orLists.map(ms).join(', ')}), found ${found.orLists}`,
    `ratio lookup/OR-lists: select=id ${(median(runs.ids) / median(runs.orLists)).toFixed(3)}, select=id,doi ${(median(runs.selected) / median(runs.orLists)).toFixed(3)}`,
  ].join('\n')}\n`,
)
