// The test stand-in for a ClickHouse server (chdb, the engine embedded, behind a loopback HTTP server of
// ClickHouse's interface) as a process of its own, for benchmarks: `oqlkit load --into` and the catalog
// benchmark's `--clickhouse` contender reach it over HTTP as they would a server, without sharing a process
// or its event loop with it. No real ClickHouse server can be installed here (only npm's chdb).
//
//   node --conditions=@oqlkit/source --import tsx bench/chdb-stand-in-server.ts --data DIR [--port 18123]
import { parseArgs } from 'node:util'
import { startChdbHttpServer } from '@oqlkit/adapter-clickhouse/test-support'

const { values } = parseArgs({
  options: { data: { type: 'string' }, port: { type: 'string', default: '18123' } },
})
if (values.data === undefined) throw new Error('--data DIR is required: where ClickHouse keeps its tables')
const server = await startChdbHttpServer({ dataDir: values.data, port: Number(values.port) })
console.log(`ClickHouse (chdb stand-in) at ${server.url}, data in ${values.data}`)
const stop = async () => {
  await server.close()
  process.exit(0)
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
