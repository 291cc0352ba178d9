import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import {
  connectClickHouse,
  type LoadProgress,
  type LoadSummary,
  loadCatalogIntoClickHouse,
  readClickHouseTarget,
} from '@oqlkit/adapter-clickhouse'
import { exportCatalogTables, tablesInServingDatabase } from '@oqlkit/adapter-duckdb'
import { type CatalogManifest, readCatalogManifest, SERVING_DATABASE_FILE } from '@oqlkit/catalog'
import type { CliCommand, CommandContext, CommandResult } from './cli-command.ts'
import { integerOption, parseCommandLine, UsageProblem, withUsageProblems } from './command-line-parser.ts'
import { DEFAULT_CATALOG_DIR } from './ingest-command-line.ts'
import { LOAD_COMMAND_LINE } from './load-command-line.ts'
import { withProgressBar } from './progress-bar.ts'

const describeProgress = (event: LoadProgress): [number, number, string] => [
  event.tablesDone,
  event.tablesTotal,
  `${event.table}: ${event.rowsLoaded.toLocaleString('en-US')} of ${event.rowsTotal.toLocaleString('en-US')} rows`,
]

const describeExport = (path: string, done: number, total: number): [number, number, string] => [
  done,
  total,
  path === ''
    ? `exported ${total} tables from ${SERVING_DATABASE_FILE}`
    : `exporting ${path} from ${SERVING_DATABASE_FILE} (${done + 1} of ${total} tables)`,
]

const formatSummary = (summary: LoadSummary, endpoint: string, catalog: string): string =>
  [
    `loaded ${summary.rows.toLocaleString('en-US')} rows in ${summary.tables} tables into ${endpoint}, database ${summary.database}, in ${summary.seconds.toFixed(1)} s`,
    `served now as catalog ${catalog}`,
    ...(summary.droppedVersions.length === 0
      ? []
      : [`dropped earlier versions: ${summary.droppedVersions.join(', ')}`]),
    '',
  ].join('\n')

export const loadCommand: CliCommand = {
  name: 'load',
  usage: `${LOAD_COMMAND_LINE.synopsis}  (oqlkit load --help describes every option)`,
  run(args, context) {
    return withUsageProblems(this, async () => {
      const { values } = parseCommandLine(args, LOAD_COMMAND_LINE.options)
      if (values.into === undefined)
        throw new UsageProblem(
          '--into is required: the ClickHouse server to load into, such as http://localhost:8123/oqlkit',
        )
      let target: ReturnType<typeof readClickHouseTarget>
      try {
        target = readClickHouseTarget(values.into)
      } catch (error) {
        throw new UsageProblem(`--into: ${(error as Error).message}`)
      }
      const keepVersions = integerOption(
        '--keep-versions',
        values['keep-versions'],
        'a whole number, 1 or more',
        1,
      )
      if (values.cluster !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(values.cluster))
        throw new UsageProblem('--cluster needs a cluster name of letters, digits and underscores')
      return load(
        resolve(values.catalog ?? DEFAULT_CATALOG_DIR),
        target,
        values.cluster,
        keepVersions,
        context,
      )
    })
  },
}

/**
 * The catalog's entity, link and id tables as Parquet files in a new temporary folder, for a catalog that keeps
 * them in its serving database alone (format 9), which ClickHouse cannot read; the folder's path, which the
 * caller removes. Progress is a bar of its own, before the load's.
 */
const exportTables = async (
  catalogDir: string,
  manifest: CatalogManifest,
  context: CommandContext,
): Promise<string> => {
  const tableFiles = await mkdtemp(join(tmpdir(), 'oqlkit-load-tables-'))
  try {
    await withProgressBar(context, (update) =>
      exportCatalogTables(catalogDir, manifest, tableFiles, {
        onFile: (path, done, total) => update(...describeExport(path, done, total)),
      }),
    )
    return tableFiles
  } catch (error) {
    await rm(tableFiles, { recursive: true, force: true })
    const message = error instanceof Error ? error.message : String(error)
    throw new Error(
      `Exporting the tables of ${catalogDir} from its serving database (${SERVING_DATABASE_FILE}) for ClickHouse failed, and nothing served changed: ${message}`,
      { cause: error },
    )
  }
}

const load = async (
  catalogDir: string,
  target: ReturnType<typeof readClickHouseTarget>,
  cluster: string | undefined,
  keepVersions: number | undefined,
  context: CommandContext,
): Promise<CommandResult> => {
  const client = connectClickHouse(target)
  let tableFiles: string | undefined
  try {
    // A folder without a catalog goes to the loader as it is: its error says how to make one.
    const read = await readCatalogManifest(catalogDir)
    if (read.ok && tablesInServingDatabase(read.manifest)) {
      // The server first: an export of a big catalog takes a while, and is no use when none answers.
      const ping = await client.ping()
      if (!ping.success)
        throw new Error(
          `Loading ${catalogDir} into ClickHouse failed, and nothing served changed: ${ping.error.message}`,
          { cause: ping.error },
        )
      tableFiles = await exportTables(catalogDir, read.manifest, context)
    }
    const summary = await withProgressBar(context, (update) =>
      loadCatalogIntoClickHouse({
        catalogDir,
        ...(tableFiles === undefined ? {} : { tableFiles }),
        client,
        catalog: target.catalog,
        ...(cluster === undefined ? {} : { cluster }),
        ...(keepVersions === undefined ? {} : { keepVersions }),
        onProgress: (event) => update(...describeProgress(event)),
      }),
    )
    return { exitCode: 0, stdout: formatSummary(summary, target.endpoint, target.catalog) }
  } catch (error) {
    // A load's errors say what failed and that nothing served changed.
    const message = error instanceof Error ? error.message : String(error)
    return { exitCode: 1, stderr: `oqlkit load: ${message}\n` }
  } finally {
    await client.close()
    if (tableFiles !== undefined) await rm(tableFiles, { recursive: true, force: true })
  }
}
