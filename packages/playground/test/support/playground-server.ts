// The server the browser tests open: the bundled sample catalog behind `createApp`, on a real loopback
// socket, serving a playground bundle built afresh from this checkout's source (so a test never runs
// against a stale `bundle/`). The browser test files share one per test worker (`sharedPlaygroundServer`):
// bundling the playground took each file 5-15 s.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { catalogVersionOf, readCatalogManifest } from '@oqlkit/catalog'
import type { StorageAdapter } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { isProcessRunning, sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { toNodeHandler } from 'h3'
import { bundlePlayground } from '../../scripts/bundle-playground.ts'

export interface PlaygroundServer {
  /** `http://127.0.0.1:<port>/` */
  readonly base: string
  /** Faults the app logged (what it answered 500 for). */
  readonly faults: unknown[]
  /** The playground bundle it serves, built for it in a temporary folder. */
  readonly bundleDir: string
  close(): Promise<void>
}

const BUNDLE_PREFIX = 'oqlkit-playground-bundle-'
/** A bundle folder's name: the prefix, its worker's pid, then mkdtemp's letters. */
const BUNDLE_OF_PID = new RegExp(`^${BUNDLE_PREFIX}(\\d+)-`)

/**
 * Removes the bundles of test workers that have ended. Vitest stops its workers with a signal, so a shared
 * server's `exit` handler never removed its bundle: each run left three in the temporary folder. A bundle's
 * folder is named by its worker's pid, and removed once no process has that pid.
 */
const removeBundlesOfEndedWorkers = () => {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(BUNDLE_OF_PID.exec(name)?.[1])
    if (Number.isInteger(pid) && pid !== process.pid && !isProcessRunning(pid))
      rmSync(join(tmpdir(), name), { recursive: true, force: true })
  }
}

export const startPlaygroundServer = async (): Promise<PlaygroundServer> => {
  removeBundlesOfEndedWorkers()
  const bundleDir = mkdtempSync(join(tmpdir(), `${BUNDLE_PREFIX}${process.pid}-`))
  const [catalogDir] = await Promise.all([sharedSampleCatalog(), bundlePlayground({ outDir: bundleDir })])
  const adapter: StorageAdapter = await createDuckDbAdapter({ catalogDir, threads: 1 })
  const faults: unknown[] = []
  // The version of its data `oqlkit serve` names in every answer, from the catalog's manifest.
  const manifest = await readCatalogManifest(catalogDir)
  if (!manifest.ok) throw new Error(manifest.message)
  const app = createApp({
    adapter,
    catalog: {
      createdAt: '2026-01-01T00:00:00.000Z',
      entities: {},
      version: { name: 'default', ...catalogVersionOf(manifest.manifest) },
    },
    pages: { bundleDir },
    logError: (error) => {
      faults.push(error)
    },
  })
  const server: Server = createServer(toNodeHandler(app))
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    faults,
    bundleDir,
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((closed) => server.close(() => closed()))
      await adapter.close()
      rmSync(bundleDir, { recursive: true, force: true })
    },
  }
}

let shared: Promise<PlaygroundServer> | undefined

/**
 * The one server of this test worker, started by the first browser test file it runs and kept for the others
 * (vitest keeps one module graph per worker: `isolate: false`); it goes with the worker's process. Its
 * `close` does nothing, so a file can treat it as its own. Nothing it serves is changed by a test.
 */
export const sharedPlaygroundServer = (): Promise<PlaygroundServer> => {
  shared ??= startPlaygroundServer().then((server) => {
    // Only synchronous work runs at exit: the socket and DuckDB go with the process, the bundle is removed.
    process.once('exit', () => rmSync(server.bundleDir, { recursive: true, force: true }))
    return { ...server, close: async () => {} }
  })
  return shared
}
