// The bundled sample catalog loaded into the process's shared chdb stand-in: the test files that read the
// sample in ClickHouse (the adapter's, http's, cli's) run one after another in a vitest worker and share it.
// Loading the sample's 179 tables costs 6-7 s of CPU on this 2-core machine (10 s of wall clock, 20 s beside
// another worker), and each of vitest's three workers needs it; so it is loaded once per test run, and each
// worker copies the tables' files in (a fraction of a second). The first process to need it loads it into a
// chdb data directory of the run, named after the vitest main process, under a lock (as the run's sample
// catalog is built, `sharedSampleCatalog`), and closes it; every process, that one included, copies that
// directory's databases into its shared stand-in's (`copyIntoSharedChdb`). The run's folder is removed by the
// first load of a later run, as the sample catalog's is.
//
// What is loaded is a copy of the run's sample catalog whose works search index carries a delta (its last
// `SEARCH_DELTA_SHARE` of works re-indexed into it and masked in the buckets, `giveWorksSearchDelta`): the same
// records, so every answer is the sample's, and every ClickHouse search reads the postings an update leaves.
import { cpSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createClient } from '@clickhouse/client'
import { giveWorksSearchDelta, oncePerTestRun, sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import type { LoadProgress, LoadSummary } from '../../src/catalog-loader.ts'
import { loadCatalogExportingTables } from './catalog-table-files.ts'
import { copyIntoSharedChdb, sharedChdbHttpServer, startChdbHttpServer } from './chdb-http-server.ts'

export interface SharedClickHouseSample {
  /** The shared stand-in's `http://127.0.0.1:<port>`: what `createClient({ url })` is given. */
  readonly url: string
  /** The catalog's name in ClickHouse: `${url}/${catalog}` is the target `serve --clickhouse` takes. */
  readonly catalog: string
  /** The served version's database. */
  readonly database: string
  /** The catalog folder it was loaded from: a copy of the run's sample catalog, with a works search delta. */
  readonly catalogDir: string
}

const CATALOG = 'sample'
/** The share of the sample's works whose search postings the loaded copy keeps in a delta. */
export const SEARCH_DELTA_SHARE = 0.04
const PREFIX = 'oqlkit-clickhouse-sample-'
/** How long a process waits for another to finish loading the sample. */
const LOAD_WAIT_MS = 300_000

/** What the run's load of the sample said: its summary and every progress event, in order. */
export interface SharedClickHouseSampleLoad {
  readonly summary: LoadSummary
  readonly progress: readonly LoadProgress[]
}

/** The run's sample in ClickHouse: its catalog folder, the chdb data directory it was loaded into, its load. */
interface RunSample extends SharedClickHouseSampleLoad {
  readonly catalogDir: string
  readonly chdbDir: string
}

/** Loads the sample into `chdbDir` (a server of this process's own, closed afterwards) from a copy at `catalogDir`. */
const loadInto = async (
  root: string,
  catalogDir: string,
  chdbDir: string,
): Promise<SharedClickHouseSampleLoad> => {
  const staging = join(root, `staging-${process.pid}`)
  rmSync(staging, { recursive: true, force: true })
  try {
    cpSync(await sharedSampleCatalog(), join(staging, 'catalog'), { recursive: true })
    await giveWorksSearchDelta(join(staging, 'catalog'), SEARCH_DELTA_SHARE)
    renameSync(join(staging, 'catalog'), catalogDir)
    const server = await startChdbHttpServer({ dataDir: join(staging, 'chdb') })
    const client = createClient({ url: server.url })
    const progress: LoadProgress[] = []
    let summary: LoadSummary
    try {
      summary = await loadCatalogExportingTables({
        catalogDir,
        client,
        catalog: CATALOG,
        onProgress: (event) => progress.push(event),
      })
    } finally {
      await client.close()
      // Closed before it is copied anywhere: chdb has written all it holds.
      await server.close()
    }
    renameSync(join(staging, 'chdb'), chdbDir)
    return { summary, progress }
  } finally {
    rmSync(staging, { recursive: true, force: true })
  }
}

/** This run's sample in ClickHouse, loaded by the first process to need it; the others wait for it. */
const runSample = async (): Promise<RunSample> => {
  const root = await oncePerTestRun({
    prefix: PREFIX,
    doneFile: 'sample.json',
    waitMs: LOAD_WAIT_MS,
    what: 'the load of the sample into ClickHouse',
    work: async (root) => {
      const sample = { catalogDir: join(root, 'catalog'), chdbDir: join(root, 'chdb') }
      // What a failed load left.
      for (const dir of Object.values(sample)) rmSync(dir, { recursive: true, force: true })
      const load = await loadInto(root, sample.catalogDir, sample.chdbDir)
      // Whole or not at all for the processes that wait for it.
      const done = join(root, 'sample.json')
      writeFileSync(`${done}.${process.pid}`, JSON.stringify({ ...sample, ...load } satisfies RunSample))
      renameSync(`${done}.${process.pid}`, done)
    },
  })
  return JSON.parse(readFileSync(join(root, 'sample.json'), 'utf8')) as RunSample
}

let loaded: Promise<RunSample> | undefined

/** The run's sample copied into this process's shared stand-in, once. */
const copiedSample = (): Promise<RunSample> => {
  loaded ??= (async () => {
    const sample = await runSample()
    await copyIntoSharedChdb(sample.chdbDir)
    return sample
  })().catch((error: unknown) => {
    loaded = undefined
    throw error
  })
  return loaded
}

/**
 * The sample catalog in the shared stand-in, there from first use. Read it; never change it: a file that
 * loads, drops or writes uses a catalog name of its own (on this server), or a server of its own
 * (`startChdbHttpServer`). Each file connects a client of its own to `url` and closes only that.
 */
export async function sharedClickHouseSample(): Promise<SharedClickHouseSample> {
  const { catalogDir, summary } = await copiedSample()
  // The copy stays valid when the server restarts at its directory (another directory took chdb in between).
  const { url } = await sharedChdbHttpServer()
  return { url, catalog: CATALOG, database: summary.database, catalogDir }
}

/**
 * The shared sample with what its load said, for the test of the loader: the load is the same one (its tables
 * exported from the serving database, then each loaded, as `oqlkit load` does), so it is not run twice.
 */
export async function sharedClickHouseSampleLoad(): Promise<
  SharedClickHouseSample & SharedClickHouseSampleLoad
> {
  const sample = await sharedClickHouseSample()
  const { summary, progress } = await copiedSample()
  return { ...sample, summary, progress }
}
