// The app under contract test: the bundled sample ingested once per test run (not once per file: ingest takes
// ~10 s on two cores) into a temporary folder, opened with the DuckDB adapter and wrapped by `createApp`.
// Test files of one vitest run share the catalog through a folder keyed by the vitest main process; the first
// worker builds it under a lock, the others wait for it. Folders of finished runs are removed on the next run.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createDuckDbAdapter,
  ingestSnapshot,
  loadCatalogTagger,
  readCatalogManifest,
} from '@oqlkit/adapter-duckdb'
import { createApp } from '@oqlkit/http'
import { afterAll, beforeAll } from 'vitest'
import { SAMPLE_SNAPSHOT_DIR } from './sample-oracle.ts'

const PREFIX = 'oqlkit-contract-'

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

function removeStaleCatalogs(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(PREFIX)) continue
    const pid = Number(name.slice(PREFIX.length))
    if (Number.isInteger(pid) && pid !== process.ppid && !isAlive(pid))
      rmSync(join(tmpdir(), name), { recursive: true, force: true })
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** The shared sample catalog folder of this vitest run, built on first use. */
async function sharedCatalogDir(): Promise<string> {
  const root = join(tmpdir(), `${PREFIX}${process.ppid}`)
  const catalogDir = join(root, 'catalog')
  const lock = join(root, 'lock')
  mkdirSync(root, { recursive: true })
  if (existsSync(join(catalogDir, 'catalog.json'))) return catalogDir
  let owner = false
  try {
    mkdirSync(lock)
    owner = true
  } catch {
    // another worker is building it
  }
  if (owner) {
    removeStaleCatalogs()
    const building = join(root, `building-${process.pid}`)
    try {
      await ingestSnapshot({ snapshotDir: SAMPLE_SNAPSHOT_DIR, outDir: building, mode: 'replace' })
    } catch (error) {
      rmSync(lock, { recursive: true, force: true })
      throw error
    }
    renameSync(building, catalogDir)
    return catalogDir
  }
  for (let waited = 0; waited < 180_000; waited += 250) {
    if (existsSync(join(catalogDir, 'catalog.json'))) return catalogDir
    // the builder failed and released the lock: build it here instead
    if (!existsSync(lock)) return sharedCatalogDir()
    await sleep(250)
  }
  throw new Error(`the shared sample catalog in ${root} was not built in 3 minutes`)
}

export interface ContractApp {
  readonly app: ReturnType<typeof createApp>
}

/** Registers hooks that open the sample app for the calling test file; `app` is set once `beforeAll` ran. */
export function useContractApp(): ContractApp {
  const opened = {} as { app: ReturnType<typeof createApp>; close: () => Promise<void> }
  beforeAll(async () => {
    const catalogDir = await sharedCatalogDir()
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
