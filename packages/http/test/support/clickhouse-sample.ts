// The sample catalog served from ClickHouse, as `oqlkit serve --clickhouse` serves it: the catalog folder
// loaded (`oqlkit load`) into ClickHouse itself (chdb, in this process, behind the test stand-in for a
// server's HTTP interface), then the ClickHouse adapter over its served version with the text tagger and
// query embedder read back from that version's files. Free of vitest, so `npm run fuzz -- --adapter
// clickhouse` uses it too. Only tests and scripts import it: @oqlkit/http itself never depends on ClickHouse.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  connectClickHouse,
  createClickHouseAdapter,
  readClickHouseCatalogModels,
  readClickHouseTarget,
  servedVersion,
} from '@oqlkit/adapter-clickhouse'
import {
  loadCatalogExportingTables,
  sharedClickHouseSample,
  startChdbHttpServer,
} from '@oqlkit/adapter-clickhouse/test-support'
import type { StorageAdapter, Tagger } from '@oqlkit/engine'

export interface ClickHouseSample {
  /** The adapter `serve --clickhouse` builds (semantic search on when the version has vectors and a model). */
  readonly adapter: StorageAdapter
  readonly tagger: Tagger
  /** Closes the adapter's client; for a stand-in of its own, stops it and removes its data. */
  readonly close: () => Promise<void>
}

/** Loads a catalog folder into a fresh chdb behind the stand-in and opens it as `serve --clickhouse` does. */
export async function openClickHouseSample(catalogDir: string): Promise<ClickHouseSample> {
  const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-http-clickhouse-'))
  const server = await startChdbHttpServer({ dataDir: join(scratch, 'chdb') })
  const stop = async () => {
    await server.close()
    rmSync(scratch, { recursive: true, force: true })
  }
  const target = readClickHouseTarget(`${server.url}/sample`)
  const client = connectClickHouse(target)
  try {
    await loadCatalogExportingTables({ catalogDir, client, catalog: target.catalog })
  } catch (error) {
    await stop()
    throw error
  } finally {
    await client.close()
  }
  return openServed(`${server.url}/sample`, stop)
}

/**
 * The bundled sample catalog as `serve --clickhouse` serves it from the process's shared stand-in, where it is
 * loaded once per test run for every test file (`sharedClickHouseSample`); closing closes the adapter's
 * client only.
 */
export async function openSharedClickHouseSample(): Promise<ClickHouseSample> {
  const sample = await sharedClickHouseSample()
  return openServed(`${sample.url}/${sample.catalog}`, async () => {})
}

/** The adapter, tagger and embedder `serve --clickhouse` builds over a loaded catalog; `stop` follows its close. */
const openServed = async (url: string, stop: () => Promise<void>): Promise<ClickHouseSample> => {
  const target = readClickHouseTarget(url)
  const client = connectClickHouse(target)
  const close = async () => {
    await client.close()
    await stop()
  }
  try {
    const version = await servedVersion(client, target.catalog)
    if (version === undefined) throw new Error('the sample catalog loaded into ClickHouse is not served')
    const models = await readClickHouseCatalogModels(client, version.database)
    if (models.tagger === undefined)
      throw new Error('the sample catalog in ClickHouse has no text-tagging model')
    const adapter = createClickHouseAdapter({ client, catalog: target.catalog })
    return {
      adapter: {
        ...adapter,
        capabilities: {
          ...adapter.capabilities,
          semanticSearch: models.vectors !== undefined && models.embedder !== undefined,
        },
      },
      tagger: models.tagger,
      close,
    }
  } catch (error) {
    await close()
    throw error
  }
}
