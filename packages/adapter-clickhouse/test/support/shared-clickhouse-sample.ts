// The bundled sample catalog loaded into the process's shared chdb stand-in, once per process: the test files
// that read the sample in ClickHouse (the adapter's, http's, cli's) run one after another in a vitest worker
// and share the load. Loading the sample's 179 tables takes some 10 s on this 2-core machine, 20 s beside
// another worker; a dozen files loading it each was a quarter of their time.
//
// What is loaded is a copy of the run's sample catalog whose works search index carries a delta (its last
// `SEARCH_DELTA_SHARE` of works re-indexed into it and masked in the buckets, `giveWorksSearchDelta`): the same
// records, so every answer is the sample's, and every ClickHouse search reads the postings an update leaves.
import { createClient } from '@clickhouse/client'
import { copyOfSampleCatalog, giveWorksSearchDelta } from '@oqlkit/ingest/test-support'
import { loadCatalogExportingTables } from './catalog-table-files.ts'
import { sharedChdbHttpServer } from './chdb-http-server.ts'

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
let loaded: Promise<{ readonly database: string; readonly catalogDir: string }> | undefined

const load = async (url: string) => {
  const copy = await copyOfSampleCatalog()
  process.once('exit', copy.dispose)
  const { catalogDir } = copy
  await giveWorksSearchDelta(catalogDir, SEARCH_DELTA_SHARE)
  const client = createClient({ url })
  try {
    const { database } = await loadCatalogExportingTables({ catalogDir, client, catalog: CATALOG })
    return { database, catalogDir }
  } finally {
    await client.close()
  }
}

/**
 * The sample catalog in the shared stand-in, loaded on first use. Read it; never change it: a file that
 * loads, drops or writes uses a catalog name of its own (on this server), or a server of its own
 * (`startChdbHttpServer`). Each file connects a client of its own to `url` and closes only that.
 */
export async function sharedClickHouseSample(): Promise<SharedClickHouseSample> {
  const { url } = await sharedChdbHttpServer()
  // The load stays valid when the server restarts at its directory (another directory took chdb in between).
  loaded ??= load(url).catch((error: unknown) => {
    loaded = undefined
    throw error
  })
  return { url, catalog: CATALOG, ...(await loaded) }
}
