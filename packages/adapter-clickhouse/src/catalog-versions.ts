// Which loaded version of a catalog is served. Each load fills a database of its own, `<catalog>__v<stamp>`;
// once every table is full and counted, one row in `<catalog>.catalog_versions` makes it the served one. A
// server resolves the newest row before each query (cached for a moment), so it reads all its tables from
// one version: the switch is atomic for every query, which a loop of per-table EXCHANGEs would not be (a
// query between two of them would join new works with old links). The previous version stays, so queries
// that started on it finish; older ones are dropped by the next load.
import type { ClickHouseClient } from '@clickhouse/client'
import { insertInto, runCommand, selectRows, tableExists } from './clickhouse-driver.ts'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import type { DdlTarget } from './clickhouse-schema.ts'

export interface CatalogVersion {
  readonly database: string
  readonly loadedAt: string
  /** `createdAt` of the catalog folder it was loaded from. */
  readonly catalogCreatedAt: string
  /** Rows of each entity (`works`, `work-types`, …), as the catalog's manifest counts them. */
  readonly entityRows: Readonly<Record<string, number>>
}

/** A new version database's name: the time of the load, then a random tail so two loads never collide. */
export const newVersionDatabase = (catalog: string, now: Date = new Date()): string => {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '_').slice(0, 15)
  const tail = Math.floor(Math.random() * 36 ** 4)
    .toString(36)
    .padStart(4, '0')
  return `${catalog}__v${stamp}_${tail}`
}

const versionsTable = (catalog: string) =>
  `${quoteIdentifier(catalog)}.${quoteIdentifier('catalog_versions')}`

/**
 * The statements that create the catalog's pointer database and table when missing. On a cluster the table is
 * one replicated table on every node (its Keeper path names no shard), so each server reads it locally.
 */
export const catalogVersionsStatements = (catalog: string, cluster?: string): readonly string[] => {
  const onCluster = cluster === undefined ? '' : ` ON CLUSTER ${quoteIdentifier(cluster)}`
  const engine =
    cluster === undefined
      ? 'MergeTree'
      : `ReplicatedMergeTree('/clickhouse/tables/all/${catalog}/catalog_versions', '{shard}_{replica}')`
  return [
    `CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(catalog)}${onCluster}`,
    `CREATE TABLE IF NOT EXISTS ${versionsTable(catalog)}${onCluster}\n(\n  \`database\` String,\n  \`loaded_at\` DateTime64(3, 'UTC'),\n  \`catalog_created_at\` String,\n  \`entity_rows\` String\n)\nENGINE = ${engine}\nORDER BY (\`loaded_at\`, \`database\`)`,
  ]
}

/** Makes `database` the served version of `target.database`'s catalog. */
export const publishVersion = async (
  client: ClickHouseClient,
  catalog: string,
  version: CatalogVersion,
): Promise<void> => {
  await insertInto(
    client,
    versionsTable(catalog),
    [
      {
        database: version.database,
        loaded_at: version.loadedAt,
        catalog_created_at: version.catalogCreatedAt,
        entity_rows: JSON.stringify(version.entityRows),
      },
    ],
    'JSONEachRow',
  )
}

/** Every published version, newest first; none when the catalog was never loaded. */
export const listVersions = async (client: ClickHouseClient, catalog: string): Promise<CatalogVersion[]> => {
  if (!(await tableExists(client, catalog, 'catalog_versions'))) return []
  const rows = await selectRows<{
    database: string
    loaded_at: string
    catalog_created_at: string
    entity_rows: string
  }>(
    client,
    `SELECT database, toString(loaded_at) AS loaded_at, catalog_created_at, entity_rows FROM ${versionsTable(catalog)} ORDER BY loaded_at DESC, database DESC`,
  )
  return rows.map((row) => ({
    database: row.database,
    loadedAt: row.loaded_at,
    catalogCreatedAt: row.catalog_created_at,
    entityRows: JSON.parse(row.entity_rows) as Record<string, number>,
  }))
}

/** The version queries read now, or undefined before the first load. */
export const servedVersion = async (
  client: ClickHouseClient,
  catalog: string,
): Promise<CatalogVersion | undefined> => (await listVersions(client, catalog))[0]

/** Drops the version databases published before the newest `keep` (and their pointer rows). */
export const dropOldVersions = async (
  client: ClickHouseClient,
  target: DdlTarget,
  keep: number,
): Promise<readonly string[]> => {
  const catalog = target.database
  const stale = (await listVersions(client, catalog)).slice(keep)
  const onCluster = target.cluster === undefined ? '' : ` ON CLUSTER ${quoteIdentifier(target.cluster)}`
  for (const version of stale) {
    await runCommand(client, `DROP DATABASE IF EXISTS ${quoteIdentifier(version.database)}${onCluster}`)
    await runCommand(client, `DELETE FROM ${versionsTable(catalog)} WHERE database = {database:String}`, {
      params: { database: version.database },
    })
  }
  return stale.map((version) => version.database)
}
