// The catalog an ingest updates: its manifest and record counts, and where its tables and files are, for the
// steps that keep its rows (its ids compete with the snapshot's; its record stores begin the new ones).
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { catalogTableRelations, tablesInServingDatabase } from '@oqlkit/adapter-duckdb'
import {
  CATALOG_ENTITIES,
  CATALOG_MANIFEST_FILE,
  type CatalogEntity,
  type CatalogEntityInfo,
  type CatalogManifest,
  constantLiteral,
  LINK_TABLES,
  readCatalogManifest,
  SERVING_DATABASE_FILE,
} from '@oqlkit/catalog'
import { IngestError, ingestErrorDetails } from '../ingest-error.ts'
import type { PreviousCatalogTables } from './catalog-builder.ts'
import type { BuildFolder } from './catalog-swap.ts'
import type { StagingDatabase } from './staging-database.ts'

export interface PreviousCatalog {
  readonly manifest: CatalogManifest
  readonly records: ReadonlyMap<CatalogEntity, number>
  readonly outDir: string
}

/** A file of the catalog being updated, by its catalog-relative path. */
export const previousFile = (previous: PreviousCatalog, relative: string): string =>
  join(previous.outDir, ...relative.split('/'))

/**
 * The size the entity's record store had in the catalog being updated. The updated catalog's store begins
 * with it (`../parse/snapshot-record-stager.ts`) and a kept row keeps its record's offset, so the rows whose
 * record lies below this offset are exactly those the update kept as they were.
 */
export async function keptRecordBytes(previous: PreviousCatalog, entity: CatalogEntity): Promise<number> {
  const table = previous.manifest.entities[entity]
  return table.rowCount === 0 ? 0 : (await stat(previousFile(previous, table.recordStore.file))).size
}

/** The entities the catalog being updated has rows of. */
export const previousEntities = (previous: PreviousCatalog): CatalogEntityInfo[] =>
  CATALOG_ENTITIES.filter((info) => previous.manifest.entities[info.entity].rowCount > 0)

/**
 * The name the catalog being updated's serving database is attached under in the staging session, when its
 * tables are kept there alone (format 9; `attachPreviousCatalog`).
 */
export const PREVIOUS_CATALOG_DATABASE = 'previous_catalog'

/**
 * Attaches the serving database of the catalog being updated to the staging session, read-only, when it is
 * where the catalog keeps its tables (format 9); a catalog of Parquet files is read from them instead.
 */
export async function attachPreviousCatalog(db: StagingDatabase, previous: PreviousCatalog): Promise<void> {
  if (!tablesInServingDatabase(previous.manifest)) return
  await db.run(
    `ATTACH ${constantLiteral(previousFile(previous, SERVING_DATABASE_FILE))} AS ${PREVIOUS_CATALOG_DATABASE} (READ_ONLY)`,
  )
}

/**
 * The tables of the catalog being updated as relations of the staging session: its Parquet files, or its
 * serving database as `attachPreviousCatalog` attached it. Unordered: every reader sorts what it keeps.
 */
export function previousCatalogTables(previous: PreviousCatalog): PreviousCatalogTables {
  const relations = catalogTableRelations(previous.outDir, previous.manifest, {
    database: PREVIOUS_CATALOG_DATABASE,
    ordered: false,
  })
  return {
    entities: new Map(previousEntities(previous).map((info) => [info.entity, relations.entity(info.entity)])),
    links: new Map(LINK_TABLES.map((spec) => [spec.name, relations.link(spec)])),
    externalIds: relations.externalIds,
    mergedIds: relations.mergedIds,
    deletedIds: relations.deletedIds,
  }
}

export async function readPreviousCatalog(build: BuildFolder): Promise<PreviousCatalog> {
  const result = await readCatalogManifest(build.outDir)
  if (!result.ok) {
    throw new IngestError({
      code: 'catalog-invalid',
      file: join(build.outDir, CATALOG_MANIFEST_FILE),
      detail: ingestErrorDetails.catalogInvalid(result.message),
    })
  }
  const records = new Map<CatalogEntity, number>()
  for (const info of CATALOG_ENTITIES)
    records.set(info.entity, result.manifest.entities[info.entity].rowCount)
  return { manifest: result.manifest, records, outDir: build.outDir }
}

export const catalogInvalid = (file: string, error: unknown): IngestError =>
  new IngestError(
    { code: 'catalog-invalid', file, detail: ingestErrorDetails.catalogInvalid((error as Error).message) },
    { cause: error },
  )
