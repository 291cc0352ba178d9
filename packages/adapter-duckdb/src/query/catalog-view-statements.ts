// The statements that open a catalog's tables under the names queries read them by (catalog-views.ts): views
// over where the tables lie (catalog-table-relations.ts), or in-memory copies of them.
import type { CatalogManifest } from '@oqlkit/catalog'
import { CATALOG_ENTITIES, LINK_TABLES, linkViewOf, quoteIdentifier } from '@oqlkit/catalog'
import { catalogTableRelations } from './catalog-table-relations.ts'
import {
  type CatalogLoadMode,
  DELETED_IDS_VIEW,
  EXTERNAL_IDS_VIEW,
  entityView,
  MERGED_IDS_VIEW,
} from './catalog-views.ts'

/**
 * `CREATE VIEW` (or, in `tables` mode, `CREATE TABLE … AS`) statements for every table of the catalog, over
 * its files or, where it keeps a table only in its serving database (format 9), over that database, which
 * must then be attached as `SERVING_DATABASE_NAME` (`catalogTableRelations`). In `narrow` mode the external
 * ids are not among them: the serving database holds them, indexed.
 */
export const catalogViewStatements = (
  catalogDir: string,
  manifest: CatalogManifest,
  mode: CatalogLoadMode = 'views',
): string[] => {
  const create = mode === 'tables' ? 'CREATE TABLE' : 'CREATE VIEW'
  // Tables are copied in their files' order (what their zone maps prune by); views are read as they lie.
  const relations = catalogTableRelations(catalogDir, manifest, { ordered: mode === 'tables' })
  const statements: string[] = []
  for (const info of CATALOG_ENTITIES)
    statements.push(`${create} ${entityView(info.entity)} AS SELECT * FROM ${relations.entity(info.entity)}`)
  for (const spec of LINK_TABLES) {
    const source =
      manifest.links[spec.name] === undefined
        ? 'SELECT CAST(NULL AS VARCHAR) AS key, CAST(NULL AS VARCHAR) AS work_id WHERE FALSE'
        : `SELECT * FROM ${relations.link(spec)}`
    statements.push(`${create} ${quoteIdentifier(linkViewOf(spec.name))} AS ${source}`)
  }
  // External ids are looked up with parameters, which do not prune Parquet row groups: a DOI read every
  // row group of the view (14 ms at 100k works). In memory with an index on the value it takes 3 ms.
  const externalIds = `SELECT * FROM ${relations.externalIds}`
  if (mode === 'views') statements.push(`CREATE VIEW ${quoteIdentifier(EXTERNAL_IDS_VIEW)} AS ${externalIds}`)
  if (mode === 'tables')
    statements.push(
      `CREATE TABLE ${quoteIdentifier(EXTERNAL_IDS_VIEW)} AS ${externalIds}`,
      `CREATE INDEX "external_ids_value" ON ${quoteIdentifier(EXTERNAL_IDS_VIEW)} ("value")`,
    )
  statements.push(
    `${create} ${quoteIdentifier(MERGED_IDS_VIEW)} AS SELECT * FROM ${relations.mergedIds}`,
    `${create} ${quoteIdentifier(DELETED_IDS_VIEW)} AS SELECT * FROM ${relations.deletedIds}`,
  )
  return statements
}
