// The catalog's tables as its serving database holds them: each entity, link and id table of the catalog's
// layout (catalog-layout.ts) as a relation over the attached `catalog.duckdb`, with the columns and the row
// order of the table's Parquet file. The serving database holds every one of them (the narrow tables keep
// every entity column; a link row is its key and its work's row number; the external, merged and deleted ids
// are copied), which is what lets it be the catalog's only table store.
import type { CatalogManifest } from '@oqlkit/catalog'
import {
  type CatalogEntity,
  constantLiteral,
  type LinkTableSpec,
  narrowLinkKeyLetter,
  narrowLinkTableOf,
  quoteIdentifier,
} from '@oqlkit/catalog'
import {
  DELETED_IDS_VIEW,
  EXTERNAL_IDS_VIEW,
  MERGED_IDS_VIEW,
  NARROW_ROW_COLUMN,
  narrowEntityTable,
  SERVING_DATABASE_NAME,
} from '../query/catalog-views.ts'

/** A relation (SQL a FROM clause takes) for each table of the catalog, in its file's column and row order. */
export interface CatalogTableRelations {
  readonly entity: (entity: CatalogEntity) => string
  readonly link: (spec: LinkTableSpec) => string
  readonly externalIds: string
  readonly mergedIds: string
  readonly deletedIds: string
}

/**
 * The catalog's tables over its serving database attached as `database`. An entity's rows come in the order
 * of their row numbers, which is id order (an update in place numbers a new id after every other, and builds
 * the database whole otherwise); a link table's by key (its text) and then work; the ids as their files sort
 * them.
 */
export const servingTableRelations = (
  manifest: CatalogManifest,
  database: string = SERVING_DATABASE_NAME,
): CatalogTableRelations => {
  const table = (name: string) => `${quoteIdentifier(database)}.main.${name}`
  const columns = (names: readonly string[], alias: string) =>
    names.map((name) => `${alias}.${quoteIdentifier(name)}`).join(', ')
  const works = table(narrowEntityTable('works'))
  const row = quoteIdentifier(NARROW_ROW_COLUMN)
  return {
    entity: (entity) =>
      `(SELECT ${columns(
        manifest.entities[entity].columns.map((column) => column.name),
        'e',
      )} FROM ${table(narrowEntityTable(entity))} AS e ORDER BY e.${row})`,
    link: (spec) => {
      // A letter-id link holds each key as its number (`narrowLinkRowsSql`): the text is the letter again.
      const letter = narrowLinkKeyLetter(spec)
      const key = letter === null ? 'l.key' : `${constantLiteral(letter)} || CAST(l.key AS VARCHAR)`
      return `(SELECT ${key} AS key, w."id" AS work_id FROM ${table(quoteIdentifier(narrowLinkTableOf(spec.name)))} AS l JOIN ${works} AS w ON w.${row} = l.work_row ORDER BY 1, l.work_row)`
    },
    externalIds: `(SELECT entity, scheme, "value", "id" FROM ${table(quoteIdentifier(EXTERNAL_IDS_VIEW))} ORDER BY scheme, "value", entity, "id")`,
    mergedIds: `(SELECT * FROM ${table(quoteIdentifier(MERGED_IDS_VIEW))} ORDER BY entity, old_id)`,
    deletedIds: `(SELECT * FROM ${table(quoteIdentifier(DELETED_IDS_VIEW))} ORDER BY entity, "id")`,
  }
}
