import { existsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import {
  type GeneratedVocabulary,
  GenerateError,
  type GenerateProgress,
  type GenerateSummary,
  generateSnapshot,
  MAX_GENERATED_WORKS,
} from '@oqlkit/snapshot'
import type { CliCommand, CommandContext, CommandResult } from './cli-command.ts'
import { integerOption, parseCommandLine, UsageProblem, withUsageProblems } from './command-line-parser.ts'
import { GENERATE_COMMAND_LINE } from './generate-command-line.ts'
import { withProgressBar } from './progress-bar.ts'

const describeProgress = (event: GenerateProgress): [number, number, string] =>
  event.phase === 'entities'
    ? [
        event.worksDone,
        event.worksTotal,
        `writing ${event.entity ?? 'entities'} (${event.entityRecords.toLocaleString('en-US')} records)`,
      ]
    : [event.worksDone, event.worksTotal, `${event.phase} ${event.worksDone.toLocaleString('en-US')} works`]

const formatSummary = (summary: GenerateSummary): string =>
  [
    `generated ${summary.works.toLocaleString('en-US')} works (seed ${summary.seed}) into ${summary.dataDir}`,
    `${summary.files} files, ${(summary.bytes / 1_048_576).toFixed(1)} MB, ${(summary.durationMs / 1000).toFixed(1)} s (${Math.round(summary.worksPerSecond).toLocaleString('en-US')} works/s, ${summary.workers} worker threads)`,
    ...summary.entities.map(
      (entity) => `  ${entity.entity.padEnd(18)} ${String(entity.records).padStart(12)}`,
    ),
    '',
  ].join('\n')

export const generateCommand: CliCommand = {
  name: 'generate',
  usage: `${GENERATE_COMMAND_LINE.synopsis}  (oqlkit generate --help describes every option)`,
  run(args, context) {
    return withUsageProblems(this, async () => {
      const { values } = parseCommandLine(args, GENERATE_COMMAND_LINE.options)
      const works = integerOption(
        '--works',
        values.works,
        `a whole number from 1 to ${MAX_GENERATED_WORKS}`,
        1,
        MAX_GENERATED_WORKS,
      )
      if (works === undefined) throw new UsageProblem('--works is required: how many works to write')
      if (values.out === undefined) throw new UsageProblem('--out is required: the folder to write into')
      const seed = integerOption('--seed', values.seed, 'a whole number', Number.MIN_SAFE_INTEGER) ?? 1
      const workers = integerOption('--workers', values.workers, 'a whole number, 0 or more', 0)
      // The generator checks the value (`invalid-vocabulary`, a usage problem below).
      const vocabulary = values.vocabulary as GeneratedVocabulary | undefined
      return generate(
        { works, out: values.out, seed, workers, vocabulary },
        values.overwrite === true,
        context,
      )
    })
  },
}

/** The nearest existing path at or above `path`, when it is a file rather than a folder. */
const fileOnPath = (path: string): string | undefined => {
  for (let at = path; ; at = dirname(at)) {
    if (existsSync(at)) return statSync(at).isDirectory() ? undefined : at
    if (dirname(at) === at) return undefined
  }
}

interface GenerateRequest {
  readonly works: number
  readonly out: string
  readonly seed: number
  readonly workers: number | undefined
  readonly vocabulary: GeneratedVocabulary | undefined
}

const generate = async (
  { works, out, seed, workers, vocabulary }: GenerateRequest,
  overwrite: boolean,
  context: CommandContext,
): Promise<CommandResult> => {
  // A file where the folder (or one above it) should be would fail deep in the writer, in its words (ENOTDIR).
  const file = fileOnPath(resolve(out))
  if (file !== undefined)
    return {
      exitCode: 1,
      stderr: `oqlkit generate: ${file} is a file, not a folder: give --out a folder to write the snapshot into\n`,
    }
  try {
    const summary = await withProgressBar(context, (update) =>
      generateSnapshot({
        works,
        outDir: resolve(out),
        seed,
        ...(workers === undefined ? {} : { workers }),
        ...(vocabulary === undefined ? {} : { vocabulary }),
        overwrite,
        onProgress: (event) => update(...describeProgress(event)),
      }),
    )
    return { exitCode: 0, stdout: formatSummary(summary) }
  } catch (error) {
    // The library's messages name its options (`overwrite`, `workers`); here they are flags.
    if (error instanceof GenerateError && error.code === 'output-exists')
      return {
        exitCode: 1,
        stderr: `oqlkit generate: ${resolve(out)} already holds a snapshot: pass --overwrite to replace it\n`,
      }
    if (
      error instanceof GenerateError &&
      (error.code === 'invalid-workers' || error.code === 'invalid-vocabulary')
    )
      return { exitCode: 2, stderr: `oqlkit generate: --${error.message}\nUsage: ${generateCommand.usage}\n` }
    return {
      exitCode: 1,
      stderr: `oqlkit generate: ${error instanceof Error ? error.message : String(error)}\n`,
    }
  }
}
