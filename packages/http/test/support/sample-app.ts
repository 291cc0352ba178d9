// The entity-API tests' app: the bundled sample snapshot ingested once per test run into a temporary folder
// (shared by the test files through a folder named after the vitest main process; the first file to get there
// builds it under a lock, the others wait), opened with the DuckDB adapter and wrapped by `createApp`.
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { loadCatalogTagger } from '@oqlkit/catalog'
import type { StorageAdapter, Tagger } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll } from 'vitest'

export interface SampleApp {
  readonly app: ReturnType<typeof createApp>
  readonly adapter: StorageAdapter
  readonly catalogDir: string
  /** The catalog's text-tagging model, trained by the ingest. */
  readonly tagger: Tagger
  /** Faults the app logged (what it answered 500 for); every test file expects none. */
  readonly faults: unknown[]
}

/** Opens the sample app for the calling test file; the fields are set once `beforeAll` has run. */
export function useSampleApp(): SampleApp {
  const opened = { faults: [] as unknown[] } as {
    app: ReturnType<typeof createApp>
    adapter: StorageAdapter
    catalogDir: string
    tagger: Tagger
    faults: unknown[]
  }
  beforeAll(async () => {
    opened.catalogDir = await sharedSampleCatalog()
    opened.adapter = await createDuckDbAdapter({ catalogDir: opened.catalogDir, threads: 1 })
    const tagger = await loadCatalogTagger(opened.catalogDir)
    if (tagger === undefined)
      throw new Error(`the sample catalog ${opened.catalogDir} has no text-tagging model`)
    opened.tagger = tagger
    opened.app = createApp({
      tagger,
      adapter: opened.adapter,
      catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
      logError: (error) => {
        opened.faults.push(error)
      },
    })
  }, 180_000)
  afterAll(async () => {
    await opened.adapter?.close()
  })
  return opened
}

export interface JsonResponse<T = Record<string, unknown>> {
  readonly status: number
  readonly headers: Headers
  readonly body: T
}

/** One GET through `app.fetch`, redirects not followed, the body parsed as JSON. */
export async function get<T = Record<string, unknown>>(
  sample: SampleApp,
  path: string,
): Promise<JsonResponse<T>> {
  const response = await sample.app.fetch(new Request(`http://localhost${path}`, { redirect: 'manual' }))
  const text = await response.text()
  let body: T
  try {
    body = JSON.parse(text) as T
  } catch {
    throw new Error(
      `GET ${path} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`,
    )
  }
  return { status: response.status, headers: response.headers, body }
}
