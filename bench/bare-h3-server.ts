// The framework's floor for the load benchmark: h3 served the way `oqlkit serve` serves it, with one handler
// that answers every GET with a fixed JSON body of a given size (the size of our real answer), so the only
// difference left between the two servers is what oqlkit does per request.
//
//   node --import tsx bench/bare-h3-server.ts --port 0 --body-bytes 13000     (prints its URL on stdout)
import { parseArgs } from 'node:util'
import { H3, serve } from 'h3'

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, 'body-bytes': { type: 'string', default: '2' } },
})
const bytes = Math.max(2, Number(values['body-bytes']))
// A JSON string padded to the size: `{"padding":"xxx…"}`.
const body = `{"padding":"${'x'.repeat(Math.max(0, bytes - 14))}"}`
const app = new H3({ silent: true })
app.get('/**', () => new Response(body, { headers: { 'content-type': 'application/json' } }))
const server = serve(app, { port: Number(values.port), hostname: '127.0.0.1', silent: true })
await server.ready()
process.stdout.write(`${server.url}\n`)
