// The catalog an ingest updates: its manifest and record counts, and where its files are, for the steps that
// keep its rows (its ids compete with the snapshot's; its record stores begin the new ones).
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  CATALOG_ENTITIES,
  CATALOG_MANIFEST_FILE,
  type CatalogEntity,
  type CatalogEntityInfo,
  type CatalogManifest,
  readCatalogManifest,
} from '@oqlkit/catalog'
import { IngestError, ingestErrorDetails } from '../ingest-error.ts'
import type { PreviousCatalogFiles } from './catalog-builder.ts'
import type { BuildFolder } from './catalog-swap.ts'

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

export function previousCatalogFiles(previous: PreviousCatalog): PreviousCatalogFiles {
  const files = (table: { readonly files: readonly string[] }) =>
    table.files.map((path) => previousFile(previous, path))
  return {
    entities: new Map(
      previousEntities(previous).map((info) => [info.entity, files(previous.manifest.entities[info.entity])]),
    ),
    links: new Map(Object.entries(previous.manifest.links).map(([name, table]) => [name, files(table)])),
    externalIds: files(previous.manifest.externalIds),
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
