// Updates a catalog's serving database in place for an update ingest: the database of the catalog being
// updated is copied into the new catalog, and of each entity only the rows the update changed are deleted
// and inserted, with their row locations, external ids, link rows (works) and autocomplete index. Building it
// whole (serving-database-builder.ts) writes every table again: 66 s of a 1% update's 178 s at 1M works.
//
// A row is kept as it was when the new catalog has its id with the same record location: an update keeps
// the record store it updates as the start of the new one, so a kept record keeps its offset and a revised
// or new one lies past the old store's end. Kept rows keep their row numbers; a revised row keeps its
// number too, and a new id is numbered after every other, which keeps the numbers in id order only when
// every new id sorts after the catalog's (as OpenAlex's new ids do: letter ids order by number): otherwise,
// or past a share of changed rows, the caller builds the database whole.
import { constants } from 'node:fs'
import { copyFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { CatalogEntityInfo, CatalogFile, CatalogIdOrder, CatalogManifest } from '@oqlkit/catalog'
import {
  CATALOG_ENTITIES,
  type CatalogEntity,
  constantLiteral,
  ID_NUMBER_COLUMN,
  idOrderSql,
  LINK_TABLES,
  linkViewOf,
  narrowLinkTableOf,
  quoteIdentifier,
  SERVING_DATABASE_FILE,
  sqlInteger,
} from '@oqlkit/catalog'
import { AUTOCOMPLETE_LAYOUT_TABLE, autocompleteIndexStatements } from '../query/autocomplete-index.ts'
import {
  EXTERNAL_IDS_VIEW,
  entityView,
  idListStatements,
  linkExtremesSql,
  locatedExternalIdsSql,
  NARROW_ROW_COLUMN,
  narrowEntityTable,
  narrowLinkRowsSql,
  narrowRowColumnsSql,
  readExternalIdLocations,
  readLinkExtremeColumns,
  readNarrowRowNumber,
  rowLocationTable,
  SERVING_DATABASE_NAME,
  served,
  servingTableColumns,
  servingTableExists,
} from '../query/catalog-views.ts'
import type { DuckDbConnectionLike } from '../query/duckdb-driver.ts'
import type { ServingDatabaseOptions } from './serving-database-builder.ts'
import { servingDatabaseRows, withServingDatabase } from './serving-database-session.ts'

/**
 * The share of an entity's rows that updates in place may have inserted (revised or added) since the database
 * was built. Inserted rows go after the others, out of the order the link tables' zone maps prune by, and a
 * build puts them back in order: as the search index merges its delta past a tenth.
 */
export const SERVING_UPDATE_MAX_SHARE = 0.1

/** The serving database's count, per entity, of the rows updates in place have inserted since it was built. */
const SERVING_UPDATES_TABLE = 'serving_updates'
const servingUpdates = served(quoteIdentifier(SERVING_UPDATES_TABLE))

export interface ServingDatabaseUpdateOptions extends ServingDatabaseOptions {
  /** The serving database of the catalog being updated. */
  readonly previousPath: string
  /** See `SERVING_UPDATE_MAX_SHARE`. */
  readonly maxChangedShare?: number
  /** The id order of the catalog being updated (`catalogIdOrder`): one in `by-text` order is built whole. */
  readonly previousIdOrder: CatalogIdOrder
  /**
   * When the manifest's tables hold an update's changes alone (ingest's `buildCatalogChanges`) rather than
   * every row: per entity the Parquet file of the ids whose rows the update does not keep. The rows of an
   * entity's table are then the rows it writes, its link rows and external ids theirs; every other row of
   * the database stays as it is. Without it, the tables hold every row, and the changes are found by
   * comparing them with the database.
   */
  readonly gone?: ReadonlyMap<CatalogEntity, string>
}

/** An entity's rows an update in place deleted (revised ones included) and inserted. */
export interface EntityCounts {
  readonly deleted: number
  readonly inserted: number
}

/** The rows of the tables an update's changes give only in part: each link table's, by name, and the external ids'. */
export interface ServedTableRows {
  readonly links: Readonly<Record<string, number>>
  readonly externalIds: number
}

/** What became of an update in place: done, with the database's file, or declined and why. */
export type ServingDatabaseUpdate =
  | {
      readonly updated: true
      readonly file: CatalogFile
      /** Per entity that changed, the rows deleted (revised ones included) and inserted. */
      readonly changed: ReadonlyMap<CatalogEntity, EntityCounts>
      /** The rows the database's link tables and external ids hold, changed. */
      readonly tableRows: ServedTableRows
    }
  | { readonly updated: false; readonly reason: string }

/** An entity's rows the update took away (`gone`: id and row number) and wrote (`fresh`: id), as temp tables. */
interface EntityChange {
  readonly info: CatalogEntityInfo
  readonly gone: string
  readonly fresh: string
  readonly deleted: number
  readonly inserted: number
  /** Rows inserted in place since the database was built, this update's included. */
  readonly since: number
}

/**
 * Writes `catalog.duckdb` into `catalogDir` from the previous catalog's, changed in place for `manifest` (the
 * new catalog's, whose files are written). Declines, leaving no file, when the database cannot be updated in
 * place; the caller then builds it (`buildServingDatabase`).
 */
export async function updateServingDatabase(
  catalogDir: string,
  manifest: CatalogManifest,
  options: ServingDatabaseUpdateOptions,
): Promise<ServingDatabaseUpdate> {
  const path = join(catalogDir, SERVING_DATABASE_FILE)
  const previous = await stat(options.previousPath).catch(() => undefined)
  if (previous === undefined)
    return { updated: false, reason: 'the catalog being updated has no serving database' }
  // A database left with a write-ahead log was not closed cleanly: what it holds is not certain.
  if ((await stat(`${options.previousPath}.wal`).catch(() => undefined)) !== undefined)
    return { updated: false, reason: 'the serving database being updated has a write-ahead log' }
  await rm(path, { force: true })
  await rm(`${path}.wal`, { force: true })
  await copyFile(options.previousPath, path, constants.COPYFILE_FICLONE)
  // A declined or failed update leaves no file: the caller builds the database whole.
  const remove = async () => {
    await rm(path, { force: true })
    await rm(`${path}.wal`, { force: true })
  }
  const outcome = await withServingDatabase(catalogDir, manifest, path, options.memoryLimit, async (db) => {
    const planned =
      (options.previousIdOrder === 'by-text'
        ? "the catalog being updated numbers its serving rows in the ids' text order (format 7 or earlier)"
        : undefined) ??
      (await layoutDeclined(db, manifest)) ??
      (await planChanges(db, options.maxChangedShare, options.gone))
    if (typeof planned === 'string') return planned
    await applyChanges(db, manifest, planned, options)
    const tableRows = await tableRowsOf(db, manifest)
    if (typeof tableRows === 'string') return tableRows
    return {
      rows: await servingDatabaseRows(db),
      changed: new Map(planned.map(({ info, deleted, inserted }) => [info.entity, { deleted, inserted }])),
      tableRows,
    }
  }).catch(async (error: unknown) => {
    await remove()
    throw error
  })
  if (typeof outcome === 'string') {
    await remove()
    return { updated: false, reason: outcome }
  }
  const file = { path: SERVING_DATABASE_FILE, bytes: (await stat(path)).size, rows: outcome.rows }
  return { updated: true, file, changed: outcome.changed, tableRows: outcome.tableRows }
}

/**
 * The rows each link table and the external ids hold once changed; or, when an entity does not hold the rows
 * the manifest says (changes and kept rows that do not add up), why the database must be built whole instead.
 */
async function tableRowsOf(
  db: DuckDbConnectionLike,
  manifest: CatalogManifest,
): Promise<ServedTableRows | string> {
  const count = async (table: string) =>
    Number((await db.all(`SELECT count(*) AS n FROM ${served(table)}`))[0]?.n ?? 0)
  for (const info of CATALOG_ENTITIES) {
    const rows = await count(narrowEntityTable(info.entity))
    const expected = manifest.entities[info.entity].rowCount
    if (rows !== expected)
      return `the serving database's ${info.entity} would hold ${rows} rows where the catalog has ${expected}`
  }
  const links: Record<string, number> = {}
  for (const spec of LINK_TABLES)
    links[spec.name] = await count(quoteIdentifier(narrowLinkTableOf(spec.name)))
  return { links, externalIds: await count(quoteIdentifier(EXTERNAL_IDS_VIEW)) }
}

/** Why the copied database cannot be changed in place: built before a column the tables now carry. */
async function layoutDeclined(
  db: DuckDbConnectionLike,
  manifest: CatalogManifest,
): Promise<string | undefined> {
  if ((await readNarrowRowNumber(db, SERVING_DATABASE_NAME)) === 'rowid')
    return 'the serving database being updated numbers its rows by rowid'
  if ((await readLinkExtremeColumns(db, SERVING_DATABASE_NAME)).size !== LINK_TABLES.length)
    return 'the serving database being updated has no link extremes'
  if (!(await readExternalIdLocations(db, SERVING_DATABASE_NAME)))
    return 'the serving database being updated has no record locations beside its external ids'
  if (!(await servingTableExists(db, SERVING_DATABASE_NAME, AUTOCOMPLETE_LAYOUT_TABLE)))
    return 'the serving database being updated has no autocomplete index'
  // Every entity's table, changed or not, is read by the columns the catalog lists (the only table store).
  for (const info of CATALOG_ENTITIES) {
    const held = await servingTableColumns(db, SERVING_DATABASE_NAME, `${info.table}__narrow`)
    const missing = manifest.entities[info.entity].columns.find((column) => !held.has(column.name))
    if (missing !== undefined)
      return `the serving database being updated has no column ${missing.name} in its ${info.entity}`
  }
  return undefined
}

/**
 * Every entity's change, or why the database must be built whole: the changed rows are found and checked
 * for every entity before any is changed.
 */
async function planChanges(
  db: DuckDbConnectionLike,
  maxShare = SERVING_UPDATE_MAX_SHARE,
  goneIds?: ReadonlyMap<CatalogEntity, string>,
): Promise<EntityChange[] | string> {
  const changes: EntityChange[] = []
  const insertedBefore = new Map(
    !(await servingTableExists(db, SERVING_DATABASE_NAME, SERVING_UPDATES_TABLE))
      ? []
      : (await db.all(`SELECT entity, inserted FROM ${servingUpdates}`)).map(
          (row) => [String(row.entity), Number(row.inserted)] as const,
        ),
  )
  for (const [index, info] of CATALOG_ENTITIES.entries()) {
    const narrow = served(narrowEntityTable(info.entity))
    const view = entityView(info.entity)
    const gone = `__serving_gone_${index}`
    const fresh = `__serving_fresh_${index}`
    const sameRecord = (a: string, b: string) =>
      `${a}."id" = ${b}."id" AND ${a}.record_offset = ${b}.record_offset AND ${a}.record_bytes = ${b}.record_bytes`
    const row = quoteIdentifier(NARROW_ROW_COLUMN)
    if (goneIds === undefined) {
      await db.all(
        `CREATE TEMP TABLE ${gone} AS SELECT n."id", n.${row} AS "row" FROM ${narrow} AS n WHERE NOT EXISTS (SELECT 1 FROM ${view} AS v WHERE ${sameRecord('v', 'n')})`,
      )
      await db.all(
        `CREATE TEMP TABLE ${fresh} AS SELECT v."id", v.${quoteIdentifier(ID_NUMBER_COLUMN)} FROM ${view} AS v WHERE NOT EXISTS (SELECT 1 FROM ${narrow} AS n WHERE ${sameRecord('n', 'v')})`,
      )
    } else {
      // The changes are given: the rows the update does not keep, and the rows it writes (its view's).
      const file = goneIds.get(info.entity)
      const ids =
        file === undefined
          ? '(SELECT NULL::VARCHAR AS "id" WHERE FALSE)'
          : `read_parquet(${constantLiteral(file)})`
      await db.all(
        `CREATE TEMP TABLE ${gone} AS SELECT n."id", n.${row} AS "row" FROM ${narrow} AS n WHERE n."id" IN (SELECT "id" FROM ${ids})`,
      )
      await db.all(
        `CREATE TEMP TABLE ${fresh} AS SELECT v."id", v.${quoteIdentifier(ID_NUMBER_COLUMN)} FROM ${view} AS v`,
      )
    }
    // The last row in id order is the one numbered last; a new id must come after it.
    const last = `(SELECT (${idOrderSql(info, 'n.')}) FROM ${narrow} AS n ORDER BY n.${quoteIdentifier(NARROW_ROW_COLUMN)} DESC LIMIT 1)`
    const [counts] = await db.all(
      `SELECT (SELECT count(*) FROM ${gone}) AS gone, (SELECT count(*) FROM ${fresh}) AS fresh, (SELECT count(*) FROM ${narrow}) AS "rows", (SELECT count(*) FROM ${fresh} AS f WHERE f."id" NOT IN (SELECT "id" FROM ${gone}) AND (${idOrderSql(info, 'f.')}) <= ${last}) AS "unordered"`,
    )
    const deleted = Number(counts?.gone ?? 0)
    const inserted = Number(counts?.fresh ?? 0)
    if (deleted === 0 && inserted === 0) {
      await db.all(`DROP TABLE ${gone}`)
      await db.all(`DROP TABLE ${fresh}`)
      continue
    }
    if (Number(counts?.unordered ?? 0) > 0)
      return `${Number(counts?.unordered)} new ${info.entity} ids sort before the catalog's last (rows are numbered in id order)`
    const since = (insertedBefore.get(info.entity) ?? 0) + inserted
    if (since > maxShare * Math.max(1, Number(counts?.rows ?? 0)))
      return `updates in place would have inserted ${since} rows of ${Number(counts?.rows ?? 0)} ${info.entity} since the serving database was built, more than ${maxShare} of them`
    if (!(await sameColumns(db, info))) return `the ${info.entity} table's columns changed`
    changes.push({ info, gone, fresh, deleted, inserted, since })
  }
  return changes
}

/** The link rows of the works an update wrote, staged once per link table (both the extremes and the rows read them). */
const freshLinkRows = (spec: (typeof LINK_TABLES)[number]): string =>
  `__serving_links_${LINK_TABLES.indexOf(spec)}`

/**
 * The narrow row of `info` as this version writes it, from the catalog's files (the works' link extremes from
 * `linkRowsOf`, each link table's rows of the works inserted).
 */
const narrowRowSelect = (
  info: CatalogEntityInfo,
  numbered: string,
  linkRowsOf: (spec: (typeof LINK_TABLES)[number]) => string,
): string => {
  const works = info.entity === 'works'
  const extremes = works ? linkExtremesSql('e', linkRowsOf) : undefined
  return `SELECT ${narrowRowColumnsSql(info)}${extremes === undefined ? '' : `, ${extremes.columns}`}, num."row" AS ${quoteIdentifier(NARROW_ROW_COLUMN)} FROM ${entityView(info.entity)} AS e JOIN ${numbered} AS num ON num."id" = e."id"${extremes === undefined ? '' : ` ${extremes.joins}`}`
}

/** Whether the narrow table the database holds has the columns this version writes, by name. */
async function sameColumns(db: DuckDbConnectionLike, info: CatalogEntityInfo): Promise<boolean> {
  const held = await servingTableColumns(db, SERVING_DATABASE_NAME, `${info.table}__narrow`)
  const written = await db.all(
    `DESCRIBE ${narrowRowSelect(info, '(SELECT NULL AS "id", NULL AS "row" WHERE FALSE)', () => '(SELECT NULL AS key, NULL AS work_id WHERE FALSE)')}`,
  )
  return held.size === written.length && written.every((row) => held.has(String(row.column_name)))
}

async function applyChanges(
  db: DuckDbConnectionLike,
  manifest: CatalogManifest,
  changes: readonly EntityChange[],
  options: ServingDatabaseUpdateOptions,
): Promise<void> {
  const row = quoteIdentifier(NARROW_ROW_COLUMN)
  const steps: string[] = []
  for (const { info, gone, fresh } of changes) {
    const narrow = served(narrowEntityTable(info.entity))
    const numbered = `${fresh}_numbered`
    // A revised row keeps its number; a new id takes the next ones, in id order (after every other id).
    const works = info.entity === 'works'
    steps.push(
      `CREATE TEMP TABLE ${numbered} AS SELECT f."id", g."row" FROM ${fresh} AS f JOIN ${gone} AS g ON g."id" = f."id" UNION ALL SELECT "id", CAST((SELECT coalesce(max(${row}), -1) FROM ${narrow}) + row_number() OVER (ORDER BY ${idOrderSql(info)}) AS UINTEGER) FROM ${fresh} WHERE "id" NOT IN (SELECT "id" FROM ${gone})`,
      // Each link file read once for the works written, not once for their extremes and again for their link
      // rows: the update in place of 10,000 of 1M works 17.4 -> 15.9 s.
      ...(works
        ? LINK_TABLES.map(
            (spec) =>
              `CREATE TEMP TABLE ${freshLinkRows(spec)} AS SELECT key, work_id FROM ${quoteIdentifier(linkViewOf(spec.name))} WHERE work_id IN (SELECT "id" FROM ${fresh})`,
          )
        : []),
      `DELETE FROM ${narrow} WHERE "id" IN (SELECT "id" FROM ${gone})`,
      `INSERT INTO ${narrow} BY NAME ${narrowRowSelect(info, numbered, freshLinkRows)} ORDER BY num."row"`,
      `DELETE FROM ${served(rowLocationTable(info.entity))} WHERE "row" IN (SELECT "row" FROM ${gone})`,
      `INSERT INTO ${served(rowLocationTable(info.entity))} SELECT CAST(n.${row} AS BIGINT), n."id", n.record_offset, n.record_bytes FROM ${narrow} AS n WHERE n."id" IN (SELECT "id" FROM ${fresh}) ORDER BY n.${row}`,
      `DELETE FROM ${served(quoteIdentifier(EXTERNAL_IDS_VIEW))} WHERE entity = ${constantLiteral(info.entity)} AND "id" IN (SELECT "id" FROM ${gone})`,
      `INSERT INTO ${served(quoteIdentifier(EXTERNAL_IDS_VIEW))} BY NAME ${locatedExternalIdsSql(info.entity, fresh)}`,
    )
    // A work's link rows go with it (a link row names its work by row number).
    if (works)
      for (const spec of LINK_TABLES) {
        const links = served(quoteIdentifier(narrowLinkTableOf(spec.name)))
        steps.push(
          `DELETE FROM ${links} WHERE work_row IN (SELECT "row" FROM ${gone})`,
          `INSERT INTO ${links} BY NAME ${narrowLinkRowsSql(spec, freshLinkRows(spec))}`,
          `DROP TABLE ${freshLinkRows(spec)}`,
        )
      }
    steps.push(`DROP TABLE ${numbered}`)
  }
  // The changed entities' autocomplete indexes, made again from their narrow tables.
  steps.push(
    ...autocompleteIndexStatements(
      served,
      (entity) => manifest.entities[entity]?.rowCount ?? 0,
      options.autocomplete,
      new Set(changes.map((change) => change.info.entity)),
    ),
  )
  for (const { gone, fresh } of changes) steps.push(`DROP TABLE ${gone}`, `DROP TABLE ${fresh}`)
  steps.push(`CREATE TABLE IF NOT EXISTS ${servingUpdates} (entity VARCHAR, inserted BIGINT)`)
  for (const { info, since } of changes)
    steps.push(
      `DELETE FROM ${servingUpdates} WHERE entity = ${constantLiteral(info.entity)}`,
      `INSERT INTO ${servingUpdates} VALUES (${constantLiteral(info.entity)}, ${sqlInteger(since)})`,
    )
  // The merged and deleted ids are logs of every update: copied whole, whether or not any entity changed.
  steps.push(...idListStatements())
  for (const [done, statement] of steps.entries()) {
    options.onStep?.(done, steps.length)
    await db.all(statement)
  }
  options.onStep?.(steps.length, steps.length)
  await db.all(`CHECKPOINT ${SERVING_DATABASE_NAME}`)
}
