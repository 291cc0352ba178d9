// The server the browser tests open: the bundled sample catalog behind `createApp`, on a real loopback
// socket, serving a playground bundle built afresh from this checkout's source (so a test never runs
// against a stale `bundle/`).
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import type { StorageAdapter } from '@oqlkit/engine'
import { createApp } from '@oqlkit/http'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { toNodeHandler } from 'h3'
import { bundlePlayground } from '../../scripts/bundle-playground.ts'

export interface PlaygroundServer {
  /** `http://127.0.0.1:<port>/` */
  readonly base: string
  /** Faults the app logged (what it answered 500 for). */
  readonly faults: unknown[]
  close(): Promise<void>
}

export const startPlaygroundServer = async (): Promise<PlaygroundServer> => {
  const bundleDir = mkdtempSync(join(tmpdir(), 'oqlkit-playground-bundle-'))
  const [catalogDir] = await Promise.all([sharedSampleCatalog(), bundlePlayground({ outDir: bundleDir })])
  const adapter: StorageAdapter = await createDuckDbAdapter({ catalogDir, threads: 1 })
  const faults: unknown[] = []
  const app = createApp({
    adapter,
    catalog: { createdAt: '2026-01-01T00:00:00.000Z', entities: {} },
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
    close: async () => {
      server.closeAllConnections()
      await new Promise<void>((closed) => server.close(() => closed()))
      await adapter.close()
      rmSync(bundleDir, { recursive: true, force: true })
    },
  }
}
