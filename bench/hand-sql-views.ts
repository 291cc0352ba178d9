// The hand-written DuckDB side of the benchmarks: a fresh in-memory DuckDB with plain views over the catalog's
// Parquet files, as someone writing the SQL by hand would set it up (no record store, no caches of ours).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DuckDBConnection } from '@duckdb/node-api'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'

interface ManifestFiles {
  readonly entities: Record<string, { readonly files: string[]; readonly rowCount: number }>
  readonly links: Record<string, { readonly files: string[] }>
  readonly externalIds: { readonly files: string[] }
  readonly extensions: Record<string, unknown>
}

export interface HandSqlDatabase {
  readonly connection: DuckDBConnection
  readonly manifest: ManifestFiles
  readonly close: () => void
}

export async function openHandSqlViews(catalogDir: string): Promise<HandSqlDatabase> {
  const manifest = JSON.parse(readFileSync(join(catalogDir, 'catalog.json'), 'utf8')) as ManifestFiles
  // File names come from our own manifest, not from a user; quoted all the same.
  const fileList = (files: readonly string[]) =>
    `[${files.map((file) => `'${join(catalogDir, file).replaceAll("'", "''")}'`).join(', ')}]`
  const instance = await createDuckDbInstance()
  const connection = await instance.connect()
  await connection.run('SET parquet_metadata_cache = true')
  const views: Record<string, readonly string[] | undefined> = {
    works: manifest.entities.works?.files,
    authorships: manifest.links['works-authors']?.files,
    work_institutions: manifest.links['works-institutions']?.files,
    work_topics: manifest.links['works-topics']?.files,
    citations: manifest.links['works-referenced-works']?.files,
    work_institution_countries: manifest.links['works-institution-countries']?.files,
    external_ids: manifest.externalIds.files,
  }
  for (const [view, files] of Object.entries(views)) {
    if (files === undefined) throw new Error(`the catalog in ${catalogDir} has no files for ${view}`)
    await connection.run(`CREATE VIEW ${view} AS SELECT * FROM read_parquet(${fileList(files)})`)
  }
  return {
    connection,
    manifest,
    close: () => {
      connection.closeSync()
      instance.closeSync()
    },
  }
}
