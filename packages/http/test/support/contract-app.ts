// The app under contract test: the run's shared sample catalog (ingested once per test run, not once per file),
// opened with the DuckDB adapter and wrapped by `createApp`.
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { loadCatalogTagger, readCatalogManifest } from '@oqlkit/catalog'
import { createApp } from '@oqlkit/http'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll } from 'vitest'

export interface ContractApp {
  readonly app: ReturnType<typeof createApp>
}

/** Registers hooks that open the sample app for the calling test file; `app` is set once `beforeAll` ran. */
export function useContractApp(): ContractApp {
  const opened = {} as { app: ReturnType<typeof createApp>; close: () => Promise<void> }
  beforeAll(async () => {
    const catalogDir = await sharedSampleCatalog()
    const manifest = await readCatalogManifest(catalogDir)
    if (!manifest.ok) throw new Error(manifest.message)
    const adapter = await createDuckDbAdapter({ catalogDir })
    const entities = Object.fromEntries(
      Object.entries(manifest.manifest.entities).map(([entity, table]) => [entity, table.rowCount]),
    )
    // The text-tagging model the ingest trained, so the real /text URLs are answered too.
    const tagger = await loadCatalogTagger(catalogDir)
    opened.app = createApp({
      adapter,
      catalog: { createdAt: manifest.manifest.createdAt, entities },
      ...(tagger === undefined ? {} : { tagger }),
    })
    opened.close = () => adapter.close()
  }, 240_000)
  afterAll(async () => {
    await opened.close?.()
  })
  return opened
}
