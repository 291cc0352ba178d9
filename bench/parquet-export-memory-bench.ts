// The memory a server takes for Parquet exports: a real `oqlkit serve` over a catalog, N exports of the same
// query fired at once, every body read to its end, the server's resident memory sampled from /proc the whole
// time. Reports the server's RSS before, its peak (VmHWM, the kernel's own high-water mark, so no sample can
// miss a peak) and each export's status, rows, bytes and time; then checks that every file reads back in
// DuckDB with the rows its header promised.
//
//   npm run bench:parquet-export-memory -- --catalog /work/bench/c100k [--exports 4]
//     [--query '/works/export?format=parquet'] [--query-timeout 600] [--built]
//
// The server runs from source (tsx) unless --built asks for the built CLI (`bin/oqlkit.js`, after `npm run
// build`). --query-timeout is the server's: an export waiting for a slot waits at most that long, so exports
// beyond the server's export slots queue rather than being refused while the first ones convert.
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { get } from 'node:http'
import { createServer } from 'node:net'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { openDuckDbDatabase } from '@oqlkit/adapter-duckdb'

const { values: args } = parseArgs({
  options: {
    catalog: { type: 'string' },
    exports: { type: 'string', default: '4' },
    query: { type: 'string', default: '/works/export?format=parquet' },
    'query-timeout': { type: 'string', default: '600' },
    built: { type: 'boolean', default: false },
  },
})
if (args.catalog === undefined) {
  console.error(
    "usage: parquet-export-memory-bench --catalog DIR [--exports N] [--query '/works/export?format=parquet'] [--query-timeout S] [--built]",
  )
  process.exit(2)
}
const exports = Number(args.exports)
const root = resolve(import.meta.dirname, '..')

const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => done(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })

/** VmRSS and VmHWM of a process, in MiB. */
const memoryOf = (pid: number): { rss: number; hwm: number } => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN)
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 }
}

const startServer = async (port: number): Promise<ChildProcess> => {
  const serve = [
    'serve',
    '--catalog',
    resolve(args.catalog!),
    '--port',
    String(port),
    '--access-log',
    'off',
    '--no-collections',
    '--query-timeout',
    args['query-timeout']!,
  ]
  const command = args.built
    ? [join(root, 'packages/cli/bin/oqlkit.js'), ...serve]
    : ['--conditions=@oqlkit/source', '--import', 'tsx', join(root, 'packages/cli/src/bin.ts'), ...serve]
  const child = spawn(process.execPath, command, {
    cwd: root,
    env: { ...process.env, UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '16' },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const deadline = Date.now() + 180_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    try {
      const response = await fetch(`http://127.0.0.1:${port}/works?per_page=1&select=id`)
      await response.arrayBuffer()
      if (response.status === 200) return child
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error('the server did not answer within 180 s')
    await new Promise((done) => setTimeout(done, 500))
  }
}

interface ExportRun {
  readonly status: number
  readonly rows: number
  readonly bytes: Uint8Array
  readonly seconds: number
}

/** One export read to its end through node:http, which waits as long as the server takes (fetch gives up on headers after 300 s). */
const runExport = (base: string): Promise<ExportRun> =>
  new Promise((done, fail) => {
    const started = performance.now()
    get(`${base}${args.query}`, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', fail)
      response.on('end', () =>
        done({
          status: response.statusCode ?? 0,
          rows: Number(response.headers['x-export-rows'] ?? Number.NaN),
          bytes: new Uint8Array(Buffer.concat(chunks)),
          seconds: (performance.now() - started) / 1000,
        }),
      )
    }).on('error', fail)
  })

const port = await freePort()
const server = await startServer(port)
const pid = server.pid!
let peakRss = 0
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, memoryOf(pid).rss)
}, 100)
try {
  const before = memoryOf(pid)
  console.log(
    `server pid ${pid} up; RSS ${before.rss.toFixed(0)} MiB (high-water ${before.hwm.toFixed(0)}); load ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  )
  const started = performance.now()
  const runs = await Promise.all(Array.from({ length: exports }, () => runExport(`http://127.0.0.1:${port}`)))
  const seconds = (performance.now() - started) / 1000
  const after = memoryOf(pid)
  console.log(
    `${exports} concurrent exports of ${args.query}: ${seconds.toFixed(1)} s; server peak RSS (VmHWM) ${after.hwm.toFixed(0)} MiB (sampled peak ${peakRss.toFixed(0)} MiB), RSS after ${after.rss.toFixed(0)} MiB; load ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  )
  const dir = mkdtempSync(join(tmpdir(), 'oqlkit-parquet-bench-'))
  const db = await openDuckDbDatabase({ connections: 1, threads: 1 })
  try {
    for (const [index, run] of runs.entries()) {
      let read = 'not Parquet'
      if (run.status === 200) {
        const file = join(dir, `export-${index}.parquet`)
        writeFileSync(file, run.bytes)
        const [row] = await db.all('SELECT count(*) AS n FROM read_parquet(?)', [file])
        read = `${row?.n} rows read back${row?.n === run.rows ? '' : ' (header says otherwise!)'}`
        rmSync(file)
      }
      console.log(
        `  export ${index + 1}: ${run.status}, ${run.rows} rows, ${(run.bytes.length / 2 ** 20).toFixed(1)} MiB in ${run.seconds.toFixed(1)} s; ${read}`,
      )
    }
  } finally {
    await db.close()
    rmSync(dir, { recursive: true, force: true })
  }
} finally {
  clearInterval(sampler)
  server.kill('SIGTERM')
}
