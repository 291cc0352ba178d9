import { resolve } from 'node:path'
import {
  connectClickHouse,
  type LoadProgress,
  type LoadSummary,
  loadCatalogIntoClickHouse,
  readClickHouseTarget,
} from '@oqlkit/adapter-clickhouse'
import type { CliCommand, CommandContext, CommandResult } from './cli-command.ts'
import { integerOption, parseCommandLine, UsageProblem, withUsageProblems } from './command-line-parser.ts'
import { DEFAULT_CATALOG_DIR } from './ingest-command.ts'
import { withProgressBar } from './progress-bar.ts'

const OPTIONS = {
  catalog: { type: 'string', value: 'a catalog folder' },
  into: { type: 'string', value: 'a ClickHouse URL' },
  cluster: { type: 'string', value: 'a cluster name' },
  'keep-versions': { type: 'string', value: 'a whole number, 1 or more' },
} as const

const describeProgress = (event: LoadProgress): [number, number, string] => [
  event.tablesDone,
  event.tablesTotal,
  `${event.table}: ${event.rowsLoaded.toLocaleString('en-US')} of ${event.rowsTotal.toLocaleString('en-US')} rows`,
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
  usage: `oqlkit load --into http://[user[:password]@]host:8123/<catalog> [--catalog DIR] [--cluster NAME] [--keep-versions N]   (default --catalog ${DEFAULT_CATALOG_DIR}, catalog name oqlkit, 2 versions kept: the new one and the one served before)`,
  run(args, context) {
    return withUsageProblems(this, async () => {
      const { values } = parseCommandLine(args, OPTIONS)
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

const load = async (
  catalogDir: string,
  target: ReturnType<typeof readClickHouseTarget>,
  cluster: string | undefined,
  keepVersions: number | undefined,
  context: CommandContext,
): Promise<CommandResult> => {
  const client = connectClickHouse(target)
  try {
    const summary = await withProgressBar(context, (update) =>
      loadCatalogIntoClickHouse({
        catalogDir,
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
  }
}
