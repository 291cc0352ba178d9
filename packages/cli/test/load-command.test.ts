// `oqlkit load`: a catalog into ClickHouse, run as the command line runs it, against ClickHouse itself (chdb)
// behind the test stand-in for a server's HTTP interface; and the command's answers to bad input.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createClient } from '@clickhouse/client'
import { servedVersion } from '@oqlkit/adapter-clickhouse'
import {
  type ChdbHttpServer,
  chdbInstalled,
  startChdbHttpServer,
} from '@oqlkit/adapter-clickhouse/test-support'
import { runCli } from '@oqlkit/cli'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-load-command-'))
let server: ChdbHttpServer
let catalogDir: string

beforeAll(async () => {
  catalogDir = await sharedSampleCatalog()
  server = await startChdbHttpServer({ dataDir: join(scratch, 'chdb') })
}, 240_000)
afterAll(async () => {
  await server?.close()
  rmSync(scratch, { recursive: true, force: true })
})

/** The folders of exported tables in the temporary folder (the ClickHouse sample's shared load makes them too). */
const exportFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('oqlkit-load-tables-'))
/**
 * Those there now that were not before: what a load left. Another process's load (the run's shared ClickHouse
 * sample, in another worker) may remove its own folder meanwhile, so the two lists are not compared whole.
 */
const foldersLeft = (before: readonly string[]) => exportFolders().filter((name) => !before.includes(name))

onChdb('oqlkit load (into chdb behind the test stand-in for a ClickHouse HTTP interface)', () => {
  it('loads the catalog, reports progress and the version it serves', async () => {
    const progress: string[] = []
    const foldersBefore = exportFolders()
    const { exitCode, stdout, stderr } = await runCli(
      ['load', '--catalog', catalogDir, '--into', `${server.url}/sample`],
      { readStdin: async () => '', writeProgress: (text) => progress.push(text), interactive: false },
    )
    expect(exitCode, stderr).toBe(0)
    // The sample keeps its tables in its serving database (format 9 on): they are exported from it first, with
    // a bar of their own, into a temporary folder that is gone afterwards; then the load's bar.
    const exporting = progress.filter((line) => line.includes('catalog.duckdb'))
    expect(exporting[0]).toMatch(
      /^\[\.+\] +0% exporting \S+\.parquet from catalog\.duckdb \(1 of \d+ tables\)\n$/,
    )
    expect(exporting.at(-1)).toMatch(/^\[#+\] 100% exported \d+ tables from catalog\.duckdb\n$/)
    expect(progress.slice(0, exporting.length)).toEqual(exporting)
    progress.splice(0, exporting.length)
    expect(foldersLeft(foldersBefore)).toEqual([])
    expect(stdout).toMatch(
      /^loaded [\d,]+ rows in \d+ tables into http:\/\/127\.0\.0\.1:\d+, database sample__v\d{8}_\d{6}_\w{4}, in [\d.]+ s\n/,
    )
    expect(stdout).toContain('served now as catalog sample')
    // In a log, progress is a few lines (progress-bar.test.ts): the first table's at once, each naming a table.
    expect(progress[0]).toMatch(/^\[\.+\] +0% \w+: 0 of [\d,]+ rows\n$/)
    for (const line of progress) expect(line).toMatch(/^\[[#.]+\] +\d+% \w+: [\d,]+ of [\d,]+ rows\n$/)
    const client = createClient({ url: server.url })
    try {
      const database = /database (\S+),/.exec(stdout ?? '')?.[1]
      expect((await servedVersion(client, 'sample'))?.database).toBe(database)
    } finally {
      await client.close()
    }
  }, 180_000)

  it('answers bad input with a usage error (2) or a failure (1) that says what to do, changing nothing', async () => {
    // A format-9 catalog without its serving database: its tables cannot be exported.
    const noServingDatabase = join(scratch, 'no-serving-database')
    mkdirSync(noServingDatabase)
    copyFileSync(join(catalogDir, 'catalog.json'), join(noServingDatabase, 'catalog.json'))
    const foldersBefore = exportFolders()
    const cases: [string[], number, RegExp][] = [
      [['load', '--catalog', catalogDir], 2, /--into is required/],
      [['load', '--into', 'localhost:8123'], 2, /--into: .*(URL scheme|not a URL)/],
      [['load', '--into', `${server.url}/bad;name`], 2, /cannot name a catalog/],
      [['load', '--into', `${server.url}/x`, '--keep-versions', '0'], 2, /--keep-versions/],
      [['load', '--into', `${server.url}/x`, '--cluster', 'a b'], 2, /--cluster needs a cluster name/],
      [
        ['load', '--catalog', join(scratch, 'none'), '--into', `${server.url}/x`],
        1,
        /holds no catalog to load.*oqlkit ingest/,
      ],
      [
        ['load', '--catalog', noServingDatabase, '--into', `${server.url}/x`],
        1,
        /^oqlkit load: Exporting the tables of .* from its serving database \(catalog\.duckdb\) for ClickHouse failed, and nothing served changed: /,
      ],
    ]
    for (const [args, code, message] of cases) {
      const result = await runCli(args)
      expect(result.exitCode, args.join(' ')).toBe(code)
      expect(result.stderr, args.join(' ')).toMatch(message)
    }
    expect(foldersLeft(foldersBefore)).toEqual([])
  })

  it('fails at once, saying so, when no ClickHouse answers', async () => {
    // A port nothing listens on: taken, then let go.
    const port = await new Promise<number>((settle) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number }
        probe.close(() => settle(free))
      })
    })
    const started = performance.now()
    const result = await runCli(['load', '--catalog', catalogDir, '--into', `http://127.0.0.1:${port}/x`])
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(
      /^oqlkit load: Loading .* failed, and nothing served changed: .*ECONNREFUSED/,
    )
    expect(performance.now() - started).toBeLessThan(20_000)
  })
})
