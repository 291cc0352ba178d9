// What planning and the HTTP layer add to a request, without a socket: the same questions asked of the
// adapter and of the app (`app.fetch`: URL reading, planning, execution, shaping, JSON), side by side in
// the same rounds over one adapter, so both find the same DuckDB cache. The socket itself is measured
// by `bench:catalog --contenders http`.
//
//   npm run bench:http-overhead -- --catalog /tmp/cat-100k [--rounds 200]
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { planQuery } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { readSortParameter, urlToOqo } from '@oqlkit/oql'
import { formatMs, median, percentile, runSideBySide } from './bench-stats.ts'

const { values: args } = parseArgs({
  options: { catalog: { type: 'string' }, rounds: { type: 'string', default: '200' } },
})
if (args.catalog === undefined) {
  console.error('usage: http-overhead-bench --catalog DIR [--rounds N]')
  process.exit(2)
}
const rounds = Number(args.rounds)
const adapter = await createDuckDbAdapter({ catalogDir: resolve(args.catalog) })
const app = createApp({ adapter, catalog: { createdAt: 'bench', entities: {} } })

const fetchOk = async (path: string): Promise<Response> => {
  const response = await app.fetch(new Request(`http://bench${path}`))
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`)
  return response
}
// The body is read as the bytes a server would write to its socket: decoding it into a string is the
// client's cost, not the server's.
const get = async (path: string): Promise<ArrayBuffer> => (await fetchOk(path)).arrayBuffer()
const ids = (
  JSON.parse(await (await fetchOk('/works?per_page=64&select=id')).text()) as { results: { id: string }[] }
).results.map((row) => row.id.replace('https://openalex.org/', ''))

const listUrl = '/works?filter=publication_year:2020,type:article,is_oa:true&sort=cited_by_count:desc'
const read = urlToOqo(listUrl)
if (!read.ok) throw new Error(JSON.stringify(read.errors))
const planned = planQuery(
  read.oqo,
  read.view.sort === undefined ? {} : { sort: readSortParameter(read.view.sort) },
)
if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
const listPlan = planned.plan

let round = 0
const shapes = [
  {
    name: 'singleton by id',
    adapter: () => adapter.findById('works', ids[round % ids.length]!),
    app: () => get(`/works/${ids[round % ids.length]}`),
  },
  {
    name: 'filtered list, top 25 (year+type+OA)',
    adapter: () => adapter.queryRows(listPlan),
    app: () => get(listUrl),
  },
]

console.log(`${rounds} rounds after ${ids.length} warm-up rounds, one adapter behind both contenders\n`)
console.log('| query | app median | app p95 | adapter median | adapter p95 | app − adapter |')
console.log('|---|---|---|---|---|---|')
for (const shape of shapes) {
  round = 0
  const [app, direct] = await runSideBySide(
    [
      { name: 'app', run: shape.app },
      { name: 'adapter', run: shape.adapter },
    ],
    rounds,
    {
      warmup: ids.length,
      onRoundEnd: () => {
        round++
      },
    },
  )
  console.log(
    `| ${shape.name} | ${formatMs(median(app!.times))} ms | ${formatMs(percentile(app!.times, 95))} ms | ${formatMs(median(direct!.times))} ms | ${formatMs(percentile(direct!.times, 95))} ms | ${formatMs(median(app!.times) - median(direct!.times))} ms |`,
  )
}
await adapter.close()
