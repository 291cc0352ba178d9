import { resolve } from 'node:path'
import { type IngestProgress, type IngestSummary, ingestSnapshot, type VectorsChoice } from '@oqlkit/ingest'
import { createOpenAiEmbedder } from '@oqlkit/text-models'
import type { CliCommand, CommandContext, CommandResult } from './cli-command.ts'
import {
  memoryLimitOption,
  parseCommandLine,
  UsageProblem,
  withUsageProblems,
} from './command-line-parser.ts'
import { DEFAULT_CATALOG_DIR, INGEST_COMMAND_LINE } from './ingest-command-line.ts'
import { withProgressBar } from './progress-bar.ts'
import { zstdBuildNote } from './zstd-build-note.ts'

const megabytes = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MB`

/** `42 s`, `3 min 05 s`, `2 h 07 min`: what a person reads at a glance. */
export const formatDuration = (seconds: number): string => {
  const whole = Math.round(seconds)
  if (whole < 60) return `${whole} s`
  if (whole < 3600) return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`
  return `${Math.floor(whole / 3600)} h ${String(Math.floor((whole % 3600) / 60)).padStart(2, '0')} min`
}

const count = (value: number): string => value.toLocaleString('en-US')

export const describeProgress = (event: IngestProgress): [number, number, string] => {
  if (event.phase === 'build')
    return [event.stepsDone, event.stepsTotal, `building ${event.step ?? ''}`.trimEnd()]
  const records =
    event.phase === 'read' && event.recordsTotal !== null
      ? `${count(event.recordsRead)} of ${count(event.recordsTotal)} records`
      : `${count(event.recordsRead)} records`
  const rate =
    event.recordsPerSecond === null
      ? ''
      : `, ${count(Math.round(event.recordsPerSecond))}/s${event.parseSecondsLeft === null ? '' : `, parse ${formatDuration(event.parseSecondsLeft)} left`}`
  return [
    event.bytesDone,
    event.bytesTotal,
    `${event.phase} ${records}${event.entity === null ? '' : ` (${event.entity})`}${rate}${event.partsResumed === 0 ? '' : `, resumed after ${event.partsResumed} files`}`,
  ]
}

export const formatIngestSummary = (summary: IngestSummary): string => {
  const lines = [
    `${summary.mode} catalog ${summary.catalogDir} from ${summary.snapshotDir} (${summary.layout} layout)`,
    `read ${summary.recordsRead.toLocaleString('en-US')} records from ${summary.filesRead} files (${megabytes(summary.bytesRead)}) in ${(summary.durationMs / 1000).toFixed(1)} s` +
      ` (${Math.round(summary.recordsRead / Math.max(summary.durationMs / 1000, 0.001)).toLocaleString('en-US')} records/s)`,
    `wrote ${summary.recordsWritten.toLocaleString('en-US')} records, ${summary.linkRows.toLocaleString('en-US')} link rows, ${summary.externalIds.toLocaleString('en-US')} external ids; catalog ${megabytes(summary.catalogBytes)}`,
    `merged ids ${summary.mergedIds}, deleted ids ${summary.deletedIds}`,
    ...(summary.partsResumed === 0
      ? []
      : [
          `resumed: ${summary.partsResumed} part files were parsed by an earlier run that stopped, and not read again`,
        ]),
    ...Object.entries({
      'LSA model': summary.modelsKept.lsa,
      'tag model': summary.modelsKept.textTagger,
    }).flatMap(([model, changed]) =>
      changed === undefined
        ? []
        : [
            `kept the ${model}: ${changed.toLocaleString('en-US')} works changed since it was trained (--retrain-models trains it again)`,
          ],
    ),
    '',
    `${'entity'.padEnd(18)} ${'read'.padStart(9)} ${'kept'.padStart(9)} ${'replaced'.padStart(9)} ${'deleted'.padStart(8)} ${'merged'.padStart(7)}`,
    ...Object.entries(summary.entities)
      .filter(([, counts]) => counts.recordsRead + counts.previousRecords > 0)
      .map(
        ([entity, counts]) =>
          `${entity.padEnd(18)} ${String(counts.recordsRead).padStart(9)} ${String(counts.recordsWritten).padStart(9)} ${String(counts.superseded).padStart(9)} ${String(counts.deleted).padStart(8)} ${String(counts.merged).padStart(7)}`,
      ),
    ...summary.warnings.map((warning) => `warning: ${warning}`),
  ]
  return `${lines.join('\n')}\n`
}

/** What `--embedder` takes. */
const EMBEDDERS = ['lsa', 'use-lite', 'url']

export const ingestCommand: CliCommand = {
  name: 'ingest',
  usage: `${INGEST_COMMAND_LINE.synopsis}  (oqlkit ingest --help describes every option)`,
  run(args, context) {
    return withUsageProblems(this, async () => {
      const { values, positionals } = parseCommandLine(args, INGEST_COMMAND_LINE.options, {
        names: ['snapshot folder'],
      })
      const embeddingsUrl = values['embeddings-url']
      const embeddingsModel = values['embeddings-model']
      if (embeddingsUrl !== undefined && embeddingsModel === undefined)
        throw new UsageProblem(
          '--embeddings-url needs --embeddings-model too (the model the server should use)',
        )
      if (embeddingsModel !== undefined && embeddingsUrl === undefined)
        throw new UsageProblem('--embeddings-model needs --embeddings-url (the server that has the model)')
      if (values['no-vectors'] === true && embeddingsUrl !== undefined)
        throw new UsageProblem('--no-vectors and --embeddings-url contradict each other: drop one')
      const embedder = values.embedder ?? (embeddingsUrl === undefined ? 'lsa' : 'url')
      if (!EMBEDDERS.includes(embedder))
        throw new UsageProblem(
          `--embedder ${embedder}: no such embedder. Give lsa (the default), use-lite (the built-in sentence encoder) or url (with --embeddings-url)`,
        )
      if ((embedder === 'url') !== (embeddingsUrl !== undefined))
        throw new UsageProblem(
          embedder === 'url'
            ? '--embedder url embeds with a server: give its --embeddings-url and --embeddings-model'
            : `--embedder ${embedder} is built in; --embeddings-url names a server: give one`,
        )
      if (values['no-vectors'] === true && values.embedder !== undefined)
        throw new UsageProblem('--no-vectors and --embedder contradict each other: drop one')
      const memoryLimit = memoryLimitOption(values['memory-limit'])
      return ingest({
        snapshotDir: positionals[0]!,
        out: values.out ?? DEFAULT_CATALOG_DIR,
        noVectors: values['no-vectors'] === true,
        noSearchIndex: values['no-search-index'] === true,
        noTextTagger: values['no-text-tagger'] === true,
        replace: values.replace === true,
        noResume: values['no-resume'] === true,
        retrainModels: values['retrain-models'] === true,
        useLite: embedder === 'use-lite',
        embeddingsUrl,
        embeddingsModel,
        memoryLimit,
        tableFiles: values['table-files'],
        context,
      })
    })
  },
}

const ingest = async ({
  snapshotDir,
  out,
  noVectors,
  noSearchIndex,
  noTextTagger,
  replace,
  noResume,
  retrainModels,
  useLite,
  embeddingsUrl,
  embeddingsModel,
  memoryLimit,
  tableFiles,
  context,
}: {
  snapshotDir: string
  out: string
  noVectors: boolean
  noSearchIndex: boolean
  noTextTagger: boolean
  replace: boolean
  noResume: boolean
  retrainModels: boolean
  /** Embed with the built-in sentence encoder rather than LSA. */
  useLite: boolean
  embeddingsUrl: string | undefined
  embeddingsModel: string | undefined
  memoryLimit: string | undefined
  tableFiles: string | undefined
  context: CommandContext
}): Promise<CommandResult> => {
  let vectors: VectorsChoice | false | undefined = noVectors
    ? false
    : useLite
      ? { kind: 'use-lite' }
      : undefined
  if (embeddingsUrl !== undefined && embeddingsModel !== undefined) {
    try {
      const embedder = await createOpenAiEmbedder({ url: embeddingsUrl, model: embeddingsModel })
      vectors = { kind: 'openai-compatible', embedder, model: embeddingsModel }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      return { exitCode: 1, stderr: `oqlkit ingest: ${message}\nNothing was changed in ${resolve(out)}.\n` }
    }
  }
  context.writeProgress(zstdBuildNote())
  try {
    const summary = await withProgressBar(context, (update) =>
      ingestSnapshot({
        ...(vectors === undefined ? {} : { vectors }),
        snapshotDir: resolve(snapshotDir),
        outDir: resolve(out),
        ...(noSearchIndex ? { searchIndex: false } : {}),
        ...(noTextTagger ? { textTagger: false } : {}),
        ...(replace ? { mode: 'replace' as const } : {}),
        ...(noResume ? { resume: false } : {}),
        ...(retrainModels ? { retrainModels: true } : {}),
        ...(memoryLimit === undefined ? {} : { memoryLimit }),
        ...(tableFiles === undefined ? {} : { tableFilesDir: resolve(tableFiles) }),
        onProgress: (event) => update(...describeProgress(event)),
      }),
    )
    return { exitCode: 0, stdout: formatIngestSummary(summary) }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    return { exitCode: 1, stderr: `oqlkit ingest: ${message}\nNothing was changed in ${resolve(out)}.\n` }
  }
}
