// Opening a catalog at once: the serving database (`catalog.duckdb`), built at ingest, attached read-only by
// `narrow` mode, so that opening copies nothing into memory and several processes can serve one catalog at
// once; and the vectors, read on the first semantic search but checked at open.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { readCatalogManifest, SERVING_DATABASE_FILE, vectorIndexOf } from '@oqlkit/catalog'
import { keepTablesAsFiles } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { catalogViewStatements } from '../src/query/catalog-view-statements.ts'
import { createDuckDbAdapter } from '../src/query/duckdb-adapter.ts'
import { openDuckDbDatabase } from '../src/query/duckdb-driver.ts'
import { buildServingDatabase } from '../src/serving/serving-database-builder.ts'
import { ingestSampleCatalog } from './query-sample-fixture.ts'

const REPOSITORY = fileURLToPath(new URL('../../../', import.meta.url))
const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex')

let catalogDir: string
let dispose: () => void
beforeAll(async () => {
  ;({ catalogDir, dispose } = await ingestSampleCatalog())
}, 240_000)
afterAll(() => dispose?.())

/** A work of the sample and its record as the adapter answers it, in narrow mode. */
const someWork = async (): Promise<{ id: string; record: string }> => {
  const adapter = await createDuckDbAdapter({ catalogDir, load: 'narrow', threads: 1 })
  try {
    const found = await adapter.findById('works', 'W2741809807')
    if (found.status !== 'found') throw new Error(`the sample's first work: ${found.status}`)
    return { id: 'W2741809807', record: JSON.stringify(found.record) }
  } finally {
    await adapter.close()
  }
}

describe('the serving database', () => {
  it('is listed in the manifest with the file ingest wrote', async () => {
    const manifest = await readCatalogManifest(catalogDir)
    if (!manifest.ok) throw new Error(manifest.message)
    const entry = manifest.manifest.files.find((file) => file.path === SERVING_DATABASE_FILE)
    expect(entry?.bytes).toBe(readFileSync(join(catalogDir, SERVING_DATABASE_FILE)).length)
    // Narrow tables, locations, external ids and link tables: more rows than the works alone.
    expect(entry?.rows).toBeGreaterThan(manifest.manifest.entities.works.rowCount)
  })

  it('leaves narrow mode nothing to copy: its own statements only create views', async () => {
    const manifest = await readCatalogManifest(catalogDir)
    if (!manifest.ok) throw new Error(manifest.message)
    const statements = catalogViewStatements(catalogDir, manifest.manifest, 'narrow')
    expect(statements.length).toBeGreaterThan(0)
    expect(statements.filter((statement) => !statement.startsWith('CREATE VIEW '))).toEqual([])
  })

  it('is served by two adapters at once, read-only: both answer, and the file is unchanged', async () => {
    const before = sha256(join(catalogDir, SERVING_DATABASE_FILE))
    const [first, second] = await Promise.all([
      createDuckDbAdapter({ catalogDir, load: 'narrow', threads: 1 }),
      createDuckDbAdapter({ catalogDir, load: 'narrow', threads: 1 }),
    ])
    try {
      const [a, b] = await Promise.all([
        first.findByExternalId('works', 'doi', '10.7717/peerj.4375'),
        second.findById('works', 'W2741809807'),
      ])
      expect(a.status).toBe('found')
      expect(b.status).toBe('found')
      if (a.status === 'found' && b.status === 'found') expect(a.record.id).toBe(b.record.id)
    } finally {
      await first.close()
      await second.close()
    }
    expect(sha256(join(catalogDir, SERVING_DATABASE_FILE))).toBe(before)
  })

  it('is served by another process while this one holds it open', async () => {
    const expected = await someWork()
    const holder = await createDuckDbAdapter({ catalogDir, load: 'narrow', threads: 1 })
    try {
      const script = [
        `const { createDuckDbAdapter } = await import('@oqlkit/adapter-duckdb')`,
        `const adapter = await createDuckDbAdapter({ catalogDir: ${JSON.stringify(catalogDir)}, load: 'narrow', threads: 1 })`,
        `const found = await adapter.findById('works', ${JSON.stringify(expected.id)})`,
        'process.stdout.write(JSON.stringify(found.record))',
        'await adapter.close()',
      ].join('\n')
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--conditions=@oqlkit/source', '--import', 'tsx', '--input-type=module', '-e', script],
        { cwd: REPOSITORY, timeout: 60_000 },
      )
      expect(stdout).toBe(expected.record)
      expect((await holder.findById('works', expected.id)).status).toBe('found')
    } finally {
      await holder.close()
    }
  }, 90_000)

  it('is built within the memory limit it is given, spilling inside the catalog folder, and leaves no spill behind', async () => {
    // DuckDB's own default spill folder is `.tmp` in the working folder: a big build must not write there.
    const spillIn = mkdtempSync(join(tmpdir(), 'oqlkit-spill-'))
    const db = await openDuckDbDatabase({ connections: 1, tempDirectory: spillIn })
    try {
      const [setting] = await db.all("SELECT current_setting('temp_directory') AS dir")
      expect(setting?.dir).toBe(spillIn)
    } finally {
      await db.close()
      rmSync(spillIn, { recursive: true, force: true })
    }
    const copy = mkdtempSync(join(tmpdir(), 'oqlkit-serving-'))
    try {
      cpSync(catalogDir, copy, { recursive: true })
      // Built again from the tables' files, which the catalog lists as format 8 did.
      const manifest = await keepTablesAsFiles(copy)
      const built = await buildServingDatabase(copy, manifest, { memoryLimit: '256MiB' })
      const listed = manifest.files.find((file) => file.path === SERVING_DATABASE_FILE)
      expect(built.rows).toBe(listed?.rows)
      expect(existsSync(join(copy, '.serving-spill'))).toBe(false)
      const adapter = await createDuckDbAdapter({ catalogDir: copy, load: 'narrow', threads: 1 })
      try {
        expect((await adapter.findById('works', 'W2741809807')).status).toBe('found')
      } finally {
        await adapter.close()
      }
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  }, 120_000)

  it('missing, refuses narrow mode and says to ingest again', async () => {
    const copy = mkdtempSync(join(tmpdir(), 'oqlkit-serving-'))
    try {
      cpSync(catalogDir, copy, { recursive: true })
      rmSync(join(copy, SERVING_DATABASE_FILE))
      await expect(createDuckDbAdapter({ catalogDir: copy, load: 'narrow' })).rejects.toThrow(
        /no serving database \(catalog\.duckdb\); ingest the snapshot again/,
      )
      // A catalog that keeps its tables there has nothing to open in any mode.
      await expect(createDuckDbAdapter({ catalogDir: copy, load: 'tables' })).rejects.toThrow(
        /no serving database \(catalog\.duckdb\); ingest the snapshot again/,
      )
    } finally {
      rmSync(copy, { recursive: true, force: true })
    }
  })
})

describe('the vectors at open', () => {
  it('are read on the first semantic search, but checked at open: a cut matrix file refuses to open', async () => {
    const manifest = await readCatalogManifest(catalogDir)
    if (!manifest.ok) throw new Error(manifest.message)
    const vectors = vectorIndexOf(manifest.manifest)
    if (vectors === undefined) throw new Error('the sample catalog has vectors')
    const matrix = join(catalogDir, ...vectors.matrixFile.split('/'))
    truncateSync(matrix, vectors.count * vectors.dimensions - 1)
    await expect(createDuckDbAdapter({ catalogDir, load: 'tables' })).rejects.toThrow(
      new RegExp(
        `holds ${vectors.count * vectors.dimensions - 1} bytes where catalog\\.json says ${vectors.count} works`,
      ),
    )
    rmSync(matrix)
    await expect(createDuckDbAdapter({ catalogDir, load: 'tables' })).rejects.toThrow(/is missing/)
  })
})
