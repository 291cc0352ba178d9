// The framework's floor for the load benchmark, in two forms, both h3 served the way `oqlkit serve` serves it:
//
// - a fixed body: one handler answers every GET with a JSON body of a given size (the size of our real
//   answer), so what is left between it and oqlkit is everything oqlkit does per request;
// - over the adapter (`--catalog`): `/works/{id}` answers the adapter's stored record for the id, any other
//   path the records of one list plan made at start (`--list-url`), in a bare envelope. No URL reading, no
//   planning, no validation, no metering, no `meta`: what is left between it and oqlkit is oqlkit's own
//   per-request overhead over the framework, with the storage's work on both sides.
//
//   node --import tsx bench/bare-h3-server.ts --port 0 --body-bytes 13000     (prints its URL on stdout)
//   node --import tsx bench/bare-h3-server.ts --port 0 --catalog DIR --list-url '/works?filter=…'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { planQuery } from '@oqlkit/engine'
import { readSortParameter, urlToOqo } from '@oqlkit/oql'
import { H3, serve } from 'h3'

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'body-bytes': { type: 'string', default: '2' },
    catalog: { type: 'string' },
    'list-url': { type: 'string', default: '/works' },
  },
})
const JSON_HEADERS = { 'content-type': 'application/json' }
const app = new H3({ silent: true })
if (values.catalog === undefined) {
  const bytes = Math.max(2, Number(values['body-bytes']))
  // A JSON string padded to the size: `{"padding":"xxx…"}`.
  const body = `{"padding":"${'x'.repeat(Math.max(0, bytes - 14))}"}`
  app.get('/**', () => new Response(body, { headers: JSON_HEADERS }))
} else {
  const adapter = await createDuckDbAdapter({ catalogDir: resolve(values.catalog) })
  const read = urlToOqo(values['list-url'])
  if (!read.ok) throw new Error(JSON.stringify(read.errors))
  const planned = planQuery(
    read.oqo,
    read.view.sort === undefined ? {} : { sort: readSortParameter(read.view.sort) },
  )
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  const listPlan = planned.plan
  const utf8 = new TextEncoder()
  app.get('/works/:id', async (event) => {
    const found = await adapter.findById('works', event.context.params!.id!)
    return found.status === 'found' && found.jsonBytes !== undefined
      ? new Response(found.jsonBytes as Uint8Array<ArrayBuffer>, { headers: JSON_HEADERS })
      : new Response('{}', { status: 404, headers: JSON_HEADERS })
  })
  app.get('/**', async () => {
    const result = await adapter.queryRows(listPlan)
    const records = result.rowsJsonBytes ?? []
    const head = utf8.encode(`{"count":${result.count},"results":[`)
    const tail = utf8.encode(']}')
    const body = new Uint8Array(
      head.length + tail.length + records.reduce((sum, record) => sum + record.length + 1, 0),
    )
    body.set(head, 0)
    let at = head.length
    records.forEach((record, index) => {
      if (index > 0) body[at++] = 0x2c
      body.set(record, at)
      at += record.length
    })
    body.set(tail, at)
    return new Response(body, { headers: JSON_HEADERS })
  })
}
const server = serve(app, { port: Number(values.port), hostname: '127.0.0.1', silent: true })
await server.ready()
process.stdout.write(`${server.url}\n`)
