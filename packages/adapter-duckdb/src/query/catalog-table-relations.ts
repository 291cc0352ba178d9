// Where a catalog's tables are read from: the Parquet files its manifest lists (format 8 and before), or,
// for a table whose manifest lists no file (format 9, where the serving database is the only table store),
// its serving database, attached under a name the caller gives. The serving database holds every table of
// the layout (catalog-layout.ts): the narrow tables keep every entity column, a link row is its key and its
// work's row number, and the external, merged and deleted ids are copied; read here with the columns and row
// order of the table's Parquet file.
import { join } from 'node:path'
import {
  CATALOG_ENTITIES,
  type CatalogEntity,
  type CatalogManifest,
  type CatalogTable,
  constantLiteral,
  isCatalogRelativePath,
  LINK_TABLES,
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
} from './catalog-views.ts'

/** A relation (SQL a FROM clause takes) for each table of the catalog, in its file's column and row order. */
export interface CatalogTableRelations {
  readonly entity: (entity: CatalogEntity) => string
  readonly link: (spec: LinkTableSpec) => string
  readonly externalIds: string
  readonly mergedIds: string
  readonly deletedIds: string
}

export interface ServingTableRelationOptions {
  /** The name the serving database is attached under (default `SERVING_DATABASE_NAME`). */
  readonly database?: string
  /** In the files' row order (default), or unordered. */
  readonly ordered?: boolean
  /**
   * The name of a column to add to each entity relation: the row's place in id order (its row number in the
   * file, or in the serving database, where rows an update in place deleted leave gaps).
   */
  readonly position?: string
}

/**
 * The catalog's tables over its serving database attached as `options.database`. An entity's rows come in the order
 * of their row numbers, which is id order (an update in place numbers a new id after every other, and builds
 * the database whole otherwise); a link table's by key (its text) and then work; the ids as their files sort
 * them.
 */
export const servingTableRelations = (
  manifest: CatalogManifest,
  options: ServingTableRelationOptions = {},
): CatalogTableRelations => {
  const database = options.database ?? SERVING_DATABASE_NAME
  // Without the order, a relation is a plain read: what a filter or a join over it wants.
  const order = (by: string) => (options.ordered === false ? '' : ` ORDER BY ${by}`)
  const position = (row: string) =>
    options.position === undefined ? '' : `, ${row} AS ${quoteIdentifier(options.position)}`
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
      )}${position(`e.${row}`)} FROM ${table(narrowEntityTable(entity))} AS e${order(`e.${row}`)})`,
    link: (spec) => {
      // A letter-id link holds each key as its number (`narrowLinkRowsSql`): the text is the letter again.
      const letter = narrowLinkKeyLetter(spec)
      const key = letter === null ? 'l.key' : `${constantLiteral(letter)} || CAST(l.key AS VARCHAR)`
      return `(SELECT ${key} AS key, w."id" AS work_id FROM ${table(quoteIdentifier(narrowLinkTableOf(spec.name)))} AS l JOIN ${works} AS w ON w.${row} = l.work_row${order('1, l.work_row')})`
    },
    externalIds: `(SELECT entity, scheme, "value", "id" FROM ${table(quoteIdentifier(EXTERNAL_IDS_VIEW))}${order('scheme, "value", entity, "id"')})`,
    mergedIds: `(SELECT * FROM ${table(quoteIdentifier(MERGED_IDS_VIEW))}${order('entity, old_id')})`,
    deletedIds: `(SELECT * FROM ${table(quoteIdentifier(DELETED_IDS_VIEW))}${order('entity, "id"')})`,
  }
}

/**
 * A Parquet read of a table's files (catalog-relative paths under `catalogDir`), in their order; with
 * `position`, each row's number in its file, in a column of that name (of a table of one file: a build's
 * table sorted in id ranges is a file per range, and only the serving database made of them is read so).
 */
export const parquetRelation = (catalogDir: string, table: CatalogTable, position?: string): string => {
  for (const file of table.files)
    if (!isCatalogRelativePath(file))
      throw new Error(`catalog.json names a file outside the catalog: ${file}`)
  if (position !== undefined && table.files.length > 1)
    throw new Error(`a row's position is its number in its file, and this table has ${table.files.length}`)
  const paths = table.files.map((file) => constantLiteral(join(catalogDir, ...file.split('/'))))
  const read = `read_parquet([${paths.join(', ')}], hive_partitioning = false${position === undefined ? '' : ', file_row_number = true'})`
  return position === undefined
    ? read
    : `(SELECT * EXCLUDE (file_row_number), file_row_number AS ${quoteIdentifier(position)} FROM ${read})`
}

/** Every table of the catalog, entity, link and id tables, with its spec where it has one. */
const tablesOf = (manifest: CatalogManifest): readonly (CatalogTable | undefined)[] => [
  ...CATALOG_ENTITIES.map((info) => manifest.entities[info.entity]),
  ...LINK_TABLES.map((spec) => manifest.links[spec.name]),
  manifest.externalIds,
  manifest.mergedIds,
  manifest.deletedIds,
]

/** Whether a table of the catalog is held by its serving database alone (no file of its own). */
export const tablesInServingDatabase = (manifest: CatalogManifest): boolean =>
  tablesOf(manifest).some((table) => table !== undefined && table.files.length === 0)

/**
 * Each table of the catalog as a relation: its Parquet files where the manifest lists some, else its rows in
 * the serving database attached as `options.database` (in the files' order unless `ordered: false`).
 */
export function catalogTableRelations(
  catalogDir: string,
  manifest: CatalogManifest,
  options: ServingTableRelationOptions = {},
): CatalogTableRelations {
  const served = servingTableRelations(manifest, options)
  const pick = (table: CatalogTable | undefined, fromServing: string): string =>
    table === undefined || table.files.length === 0 ? fromServing : parquetRelation(catalogDir, table)
  return {
    entity: (entity) => {
      const table = manifest.entities[entity]
      return table.files.length === 0
        ? served.entity(entity)
        : parquetRelation(catalogDir, table, options.position)
    },
    link: (spec) => pick(manifest.links[spec.name], served.link(spec)),
    externalIds: pick(manifest.externalIds, served.externalIds),
    mergedIds: pick(manifest.mergedIds, served.mergedIds),
    deletedIds: pick(manifest.deletedIds, served.deletedIds),
  }
}
