import { resolve } from 'node:path'
import { indexCatalogSearch, type SearchBuildProgress } from '@oqlkit/ingest'
import type { CliCommand, CommandContext, CommandResult } from './cli-command.ts'
import {
  integerOption,
  memoryLimitOption,
  parseCommandLine,
  withUsageProblems,
} from './command-line-parser.ts'
import { INDEX_COMMAND_LINE } from './index-command-line.ts'
import { withProgressBar } from './progress-bar.ts'

const megabytes = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MB`

const describeProgress = (event: SearchBuildProgress): [number, number, string] => [
  event.done,
  event.total,
  `${event.entity}: ${event.step}`,
]

export const indexCommand: CliCommand = {
  name: 'index',
  usage: `${INDEX_COMMAND_LINE.synopsis}  (oqlkit index --help describes every option)`,
  run(args, context) {
    return withUsageProblems(this, () => {
      const { values, positionals } = parseCommandLine(args, INDEX_COMMAND_LINE.options, {
        names: ['catalog folder'],
      })
      const threads = integerOption('--threads', values.threads, 'a positive whole number', 1)
      const segmentDocs = integerOption(
        '--segment-docs',
        values['segment-docs'],
        'a positive whole number',
        1,
      )
      const memoryLimit = memoryLimitOption(values['memory-limit'])
      return index(resolve(positionals[0]!), memoryLimit, threads, segmentDocs, context)
    })
  },
}

const index = async (
  catalogDir: string,
  memoryLimit: string | undefined,
  threads: number | undefined,
  segmentDocs: number | undefined,
  context: CommandContext,
): Promise<CommandResult> => {
  try {
    const result = await withProgressBar(context, (update) =>
      indexCatalogSearch({
        catalogDir,
        ...(memoryLimit === undefined ? {} : { memoryLimit }),
        ...(threads === undefined ? {} : { threads }),
        ...(segmentDocs === undefined ? {} : { segmentDocs }),
        onProgress: (event) => update(...describeProgress(event)),
      }),
    )
    const entities = Object.entries(result.index.entities)
    const lines = [
      `indexed ${entities.length} entities of ${result.catalogDir} in ${(result.durationMs / 1000).toFixed(1)} s; index ${megabytes(result.bytes)}`,
      '',
      `${'entity'.padEnd(18)} ${'records'.padStart(10)} ${'terms'.padStart(10)} ${'buckets'.padStart(8)}`,
      ...entities.map(
        ([entity, index]) =>
          `${entity.padEnd(18)} ${String(index.docs).padStart(10)} ${String(index.terms.stemmed).padStart(10)} ${String(index.files.stemmed.postings.length).padStart(8)}`,
      ),
    ]
    return { exitCode: 0, stdout: `${lines.join('\n')}\n` }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { exitCode: 1, stderr: `oqlkit index: ${message}\nThe catalog's index was not changed.\n` }
  }
}
