import { spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '@oqlkit/cli'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { REAL_SAMPLE_SNAPSHOT_DIR, SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'
import { startStandInServer } from '@oqlkit/text-models/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { storageConcurrency } from '../src/commands/serve-command.ts'
import { isBundledSample } from '../src/commands/served-catalog-opener.ts'
import { builtCli } from './support/built-cli.ts'
import { startServerProcess } from './support/server-process.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-serve-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/**
 * Starts `oqlkit serve` on a catalog folder (or on the `--catalog` arguments given), waits for `GET /`, and
 * returns its body and a stop function. Through the tests' server helper: a port below the ephemeral range,
 * another one when it was taken meanwhile, and a server that exits before answering fails the test at once
 * with what it wrote. (This file once picked ports of its own up to 40,000 and waited a minute on a server
 * that had exited: a CI run failed so, with nothing but ECONNREFUSED to say why.)
 */
const startServe = async (
  catalogDir: string,
  extraArgs: readonly string[] = [],
  /** The --catalog arguments, when not the one folder. */
  catalogArgs: readonly string[] = ['--catalog', catalogDir],
) => {
  const running = await startServerProcess(undefined, [...catalogArgs, ...extraArgs])
  const port = Number(new URL(running.url).port)
  const { stop } = running
  try {
    const response = await fetch(`${running.url}/`)
    const body = (await response.json()) as { status: string; catalog: { entities: Record<string, number> } }
    const server = {
      get output() {
        return running.output()
      },
    }
    return { status: response.status, body, server, stop, port }
  } catch (error) {
    await stop()
    throw error
  }
}

describe('oqlkit serve', () => {
  const catalogDir = join(scratch, 'catalog')
  // The first start's build of the sample from an empty folder is run whole by the packed install's test
  // (scripts/pack-and-import.test.ts), as a user meets it; here the servers start on a copy of this run's
  // sample catalog (built from the same bundled sample), and that an empty folder starts a build is
  // checked below.
  beforeAll(async () => {
    cpSync(await sharedSampleCatalog(), catalogDir, { recursive: true })
  }, 240_000)

  /**
   * One `oqlkit serve --no-metering` of the catalog, started once (a start costs ~2 s of CPU): the
   * max-per-page test reads its default limit, the rebuild test what it said as it started, and the SIGTERM
   * test, last, stops it. On a state folder of its own: the default one beside the catalog is taken by the
   * other servers of this file while it runs (an embedded store serves one process).
   */
  let shared: ReturnType<typeof startServe> | undefined
  const sharedServer = () => {
    shared ??= startServe(catalogDir, ['--no-metering', '--state', join(scratch, 'state-shared')])
    return shared
  }
  afterAll(async () => {
    // Stopped by the SIGTERM test; here only when that one did not run.
    await (await shared?.catch(() => undefined))?.stop()
  })

  /**
   * One `oqlkit serve --no-metering --max-per-page 100` of the catalog under two names (the second a copy),
   * started once: the max-per-page test reads its limit, the data_version test picks a catalog by name, and
   * stops it (a start costs 2-4 s of CPU; the limit plays no part in which catalog answers, nor the names in
   * the limit). On a state folder of its own: the default one beside the catalog is the other servers'.
   */
  const copy = join(scratch, 'catalog-copy')
  let several: ReturnType<typeof startServe> | undefined
  const severalCatalogs = () => {
    several ??= (async () => {
      cpSync(catalogDir, copy, { recursive: true })
      return startServe(
        catalogDir,
        ['--no-metering', '--max-per-page', '100', '--state', join(scratch, 'state-several')],
        ['--catalog', `current=${catalogDir}`, '--catalog', `older=${copy}`],
      )
    })()
    return several
  }
  afterAll(async () => {
    // Stopped by the data_version test; here only when that one did not run.
    await (await several?.catch(() => undefined))?.stop()
  })

  it('serves the sample catalog, semantic search included, and stops cleanly on SIGINT', async () => {
    const started = await startServe(catalogDir)
    try {
      expect(started.status).toBe(200)
      expect(started.body.status).toBe('ok')
      expect(started.body.catalog.entities.works).toBe(565)
      const works = await fetch(`http://127.0.0.1:${started.port}/works?per_page=1`)
      expect(((await works.json()) as { meta: { count: number } }).meta.count).toBe(565)
      // The sample catalog carries its LSA model: semantic search works with no flag.
      const similar = await fetch(
        `http://127.0.0.1:${started.port}/works?search.semantic=coral%20reefs&per_page=1`,
      )
      expect(similar.status).toBe(200)
      expect(((await similar.json()) as { meta: { count: number } }).meta.count).toBe(50)
    } finally {
      expect(await started.stop()).toBe(0)
    }
    expect(started.server.output).toContain('oqlkit: stopped')
  }, 150_000)

  it('serves pages up to 200 by default, and up to --max-per-page when the operator sets it', async () => {
    const statusOf = async (port: number, perPage: number) =>
      (await fetch(`http://127.0.0.1:${port}/works?per_page=${perPage}&select=id`)).status
    const open = await sharedServer()
    expect([await statusOf(open.port, 200), await statusOf(open.port, 201)]).toEqual([200, 400])
    // The server of two catalogs, shared with the data_version test: its --max-per-page is 100.
    const strict = await severalCatalogs()
    expect([await statusOf(strict.port, 100), await statusOf(strict.port, 101)]).toEqual([200, 400])
    for (const value of ['0', 'many', '10001']) {
      const refused = await runCli(['serve', '--catalog', catalogDir, '--max-per-page', value])
      expect(refused.exitCode).toBe(2)
      expect(refused.stderr).toContain('--max-per-page needs a whole number from 1 to 10000')
    }
  }, 90_000)

  /** Starts `serve` on a folder until it says it builds the sample (killed then) or serves the folder as it is. */
  const firstWordsOf = async (
    dir: string,
    extraArgs: readonly string[] = [],
  ): Promise<{ outcome: string; output: string }> => {
    const child = spawn(
      process.execPath,
      [await builtCli(), 'serve', '--catalog', dir, '--port', '0', ...extraArgs],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_, signal) => done(signal)))
    let output = ''
    const said = new Promise<string>((done) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString()
        if (output.includes('building it from the bundled sample')) done('building')
        if (output.includes('oqlkit serving')) done('serving')
      }
      child.stdout.on('data', read)
      child.stderr.on('data', read)
    })
    const outcome = await Promise.race([said, exited.then(() => 'exited')])
    child.kill('SIGKILL')
    await exited
    return { outcome, output }
  }

  it('knows a catalog built from the bundled sample by any install, or from its path before it moved', () => {
    for (const path of [
      SAMPLE_SNAPSHOT_DIR,
      '/home/ann/oqlkit/data/sample-snapshot',
      '/home/ann/app/node_modules/@oqlkit/snapshot/sample-snapshot',
      'C:\\Users\\ann\\AppData\\Local\\npm-cache\\_npx\\1\\node_modules\\@oqlkit\\snapshot\\sample-snapshot',
    ])
      expect(isBundledSample(path), path).toBe(true)
    for (const path of ['/data/openalex-snapshot', '/home/ann/sample-snapshot', 42, undefined])
      expect(isBundledSample(path), String(path)).toBe(false)
    // The real-text sample too, from this install or another.
    for (const path of [
      REAL_SAMPLE_SNAPSHOT_DIR,
      '/home/ann/app/node_modules/@oqlkit/snapshot/real-sample-snapshot',
    ])
      expect(isBundledSample(path), path).toBe(true)
  })

  it('builds a first catalog in an empty folder from the small sample, or the real-text one with --sample real', async () => {
    // Killed once it says what it builds: the build itself is run whole by the packed install's test.
    const emptyForSmall = join(scratch, 'for-small')
    mkdirSync(emptyForSmall)
    const small = await firstWordsOf(emptyForSmall)
    expect(small.outcome, small.output).toBe('building')
    expect(small.output).toContain(SAMPLE_SNAPSHOT_DIR)
    const empty = join(scratch, 'for-real')
    mkdirSync(empty)
    const real = await firstWordsOf(empty, ['--sample', 'real'])
    expect(real.outcome).toBe('building')
    expect(real.output).toContain('bundled sample of 4,431 real works')
    expect(real.output).toContain(REAL_SAMPLE_SNAPSHOT_DIR)
    const unknown = await runCli(['serve', '--sample', 'large'])
    expect(unknown.exitCode).toBe(2)
    expect(unknown.stderr).toContain('--sample large: no such sample. Give small (the default) or real')
    const both = await runCli(['serve', '--sample', 'real', '--clickhouse', 'http://127.0.0.1:1/oqlkit'])
    expect(both.exitCode).toBe(2)
    expect(both.stderr).toContain('--sample builds a catalog folder')
  })

  it('takes a sample catalog an older oqlkit wrote for one to rebuild from the bundled sample', async () => {
    // What the rebuild runs is the first start's build, run whole by the packed install's test; here, that an older sample
    // catalog is recognised and the rebuild begins (a whole second build of the sample took ~30 s of the suite).
    const older = join(scratch, 'older-sample')
    mkdirSync(older)
    writeFileSync(
      join(older, 'catalog.json'),
      JSON.stringify({ formatVersion: 1, ingests: [{ snapshotDir: SAMPLE_SNAPSHOT_DIR }] }),
    )
    const { outcome, output } = await firstWordsOf(older)
    expect(outcome, output).toBe('building')
    expect(output).toContain(`No catalog this oqlkit can read in ${older}`)
    // The sample catalog as it is now, but its search index of an earlier format (format 3 reads no other):
    // rebuilt too, rather than served without search.
    const olderIndex = join(scratch, 'older-search-index')
    cpSync(catalogDir, olderIndex, { recursive: true })
    const manifest = JSON.parse(readFileSync(join(olderIndex, 'catalog.json'), 'utf8'))
    manifest.extensions.search.formatVersion = 2
    writeFileSync(join(olderIndex, 'catalog.json'), JSON.stringify(manifest))
    const reindexed = await firstWordsOf(olderIndex)
    expect(reindexed.outcome, reindexed.output).toBe('building')
    // And the sample catalog as it is is served as it is: what the shared server of it said as it started
    // (its --no-metering and --state play no part in how the catalog is opened).
    const { server } = await sharedServer()
    // Its first words, once they have come through the pipe (they may trail the first answer).
    for (let waited = 0; !server.output.includes('oqlkit serving') && waited < 10_000; waited += 100)
      await new Promise((done) => setTimeout(done, 100))
    const current = server.output
    expect(current).toContain('oqlkit serving')
    expect(current).not.toContain('building it from the bundled sample')
    expect(current).not.toContain('Full-text search is off')
    // A catalog of another snapshot with such an index is served (it cannot be rebuilt from the sample),
    // saying at once that its searches are off and what to run.
    const other = join(scratch, 'other-older-index')
    cpSync(olderIndex, other, { recursive: true })
    writeFileSync(
      join(other, 'catalog.json'),
      JSON.stringify({
        ...manifest,
        ingests: [{ ...manifest.ingests[0], snapshotDir: '/elsewhere/snapshot' }],
      }),
    )
    const served = await firstWordsOf(other)
    expect(served.outcome, served.output).toBe('serving')
    expect(served.output).toContain(
      `Full-text search is off: this catalog's search index is of an earlier format than this oqlkit reads; build it again with \`oqlkit index ${other}\`.`,
    )
  }, 90_000)

  it('refuses an embeddings server whose model did not make the catalog’s vectors, or that is not there', async () => {
    const server = await startStandInServer(8)
    const serveWith = (url: string) =>
      runCli([
        'serve',
        '--catalog',
        catalogDir,
        '--no-metering',
        '--embeddings-url',
        url,
        '--embeddings-model',
        'stand-in',
      ])
    try {
      const mismatch = await serveWith(server.url)
      expect(mismatch.exitCode).toBe(1)
      expect(mismatch.stderr).toMatch(
        /vectors were made by lsa-\d+:[0-9a-f]{16} .* but queries would be embedded by openai-compatible:stand-in/,
      )
    } finally {
      await server.close()
    }
    const gone = await serveWith(server.url)
    expect(gone.exitCode).toBe(1)
    expect(gone.stderr).toMatch(/could not be reached/)
  }, 60_000)

  it('answers a singleton at once while long searches run, and stops within 10 s of SIGTERM with requests in flight', async () => {
    // The shared server: this test stops it, so it is the last to use it.
    const started = await sharedServer()
    const base = `http://127.0.0.1:${started.port}`
    const words = readFileSync(join(SAMPLE_SNAPSHOT_DIR, 'README.md'), 'utf8')
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter((word, i, all) => word.length > 3 && all.indexOf(word) === i)
      .slice(0, 160)
    expect(words).toHaveLength(160)
    const searches = [0, 1, 2].map(() =>
      fetch(`${base}/works?search=${words.join('%20')}`).then(async (response) => ({
        status: response.status,
        body: (await response.json()) as { error: string; message: string },
      })),
    )
    const singleton = performance.now()
    expect((await fetch(`${base}/works/random`)).status).toBe(200)
    expect(performance.now() - singleton).toBeLessThan(1_000)
    for (const search of await Promise.all(searches)) {
      expect(search.status).toBe(400)
      expect(search.body.message).toContain('at most 100 words (this one has 160)')
    }
    // Requests in flight when SIGTERM comes: the server answers or stops them, and exits.
    const inFlight = [0, 1, 2].map(() =>
      fetch(`${base}/works?search=${words.slice(0, 90).join('%20')}&group_by=type`).then(
        (response) => response.status,
        () => 'closed',
      ),
    )
    const stopping = performance.now()
    expect(await started.stop('SIGTERM')).toBe(0)
    expect(performance.now() - stopping).toBeLessThan(10_000)
    for (const status of await Promise.all(inFlight)) expect([200, 503, 'closed']).toContain(status)
    expect(started.server.output).toContain('oqlkit: stopped')
  }, 90_000)

  it('serves several catalogs, one per data_version, the first by default', async () => {
    // The sample's catalog under two names, the second a copy: a request picks one by name (or fingerprint).
    // The server is shared with the max-per-page test (its limit of 100 plays no part here).
    const both = await severalCatalogs()
    try {
      const root = (await (await fetch(`http://127.0.0.1:${both.port}/`)).json()) as {
        data_versions: { name: string; fingerprint: string; default: boolean }[]
      }
      expect(root.data_versions.map(({ name, default: first }) => [name, first])).toEqual([
        ['current', true],
        ['older', false],
      ])
      const nameOf = async (query: string) => {
        const response = await fetch(`http://127.0.0.1:${both.port}/works?per_page=1${query}`)
        return [
          response.status,
          ((await response.json()) as { meta?: { data_version?: { name: string } } }).meta?.data_version
            ?.name,
        ]
      }
      expect(await nameOf('')).toEqual([200, 'current'])
      expect(await nameOf('&data_version=older')).toEqual([200, 'older'])
      expect(await nameOf('&data_version=1999')).toEqual([400, undefined])
    } finally {
      await both.stop()
    }
    for (const [argv, says] of [
      [['--catalog', catalogDir, '--catalog', copy], 'needs NAME=DIR each'],
      [['--catalog', `a=${catalogDir}`, '--catalog', `a=${copy}`], 'names a twice'],
    ] as const) {
      const refused = await runCli(['serve', ...argv])
      expect(refused.exitCode).toBe(2)
      expect(refused.stderr).toContain(says)
    }
  }, 120_000)

  it('sizes storage from the cores and the libuv threads a statement holds', () => {
    // Two cores with the 16 threads the oqlkit command gives: a heavy plan per core, each with its count and
    // page, a connection for each of the two exports' batches, and two connections for light requests.
    expect(storageConcurrency(2, 16)).toEqual({ heavySlots: 2, exportSlots: 2, connections: 8 })
    // Node's default pool of 4 leaves two threads to file reads.
    expect(storageConcurrency(2, 4)).toEqual({ heavySlots: 1, exportSlots: 2, connections: 2 })
    expect(storageConcurrency(16, 16)).toEqual({ heavySlots: 5, exportSlots: 2, connections: 14 })
    expect(storageConcurrency(1, 1)).toEqual({ heavySlots: 1, exportSlots: 2, connections: 2 })
  })

  it('refuses a --query-timeout that is not a positive number of seconds', async () => {
    for (const value of ['0', '-1', 'soon']) {
      const refused = await runCli(['serve', '--catalog', catalogDir, '--query-timeout', value])
      expect(refused.exitCode).toBe(2)
      expect(refused.stderr).toContain('--query-timeout needs a number of seconds')
    }
  })

  it('rejects a port that is not a number', async () => {
    const child = spawn(process.execPath, [await builtCli(), 'serve', '--port', 'eighty'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    expect(await new Promise((done) => child.on('exit', done))).toBe(2)
    expect(stderr).toContain('--port needs a port number')
  })
})
