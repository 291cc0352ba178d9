import { resolve } from 'node:path'
import { type GenerateProgress, type GenerateSummary, generateSnapshot } from '@oqlkit/snapshot'
import { type CliCommand, usageError } from './cli-command.ts'
import { createProgressBar } from './progress-bar.ts'

const optionValue = (args: readonly string[], name: string): string | undefined => {
  const index = args.indexOf(name)
  return index === -1 ? undefined : args[index + 1]
}

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
  usage: 'oqlkit generate --works N --out <dir> [--seed S] [--workers N] [--overwrite]',
  summary:
    'Write a synthetic snapshot of N works (legacy layout, realistic skew) on every core, deterministic for a seed.',
  async run(args, context) {
    const works = Number(optionValue(args, '--works'))
    const out = optionValue(args, '--out')
    const seedText = optionValue(args, '--seed')
    const seed = seedText === undefined ? 1 : Number(seedText)
    const workersText = optionValue(args, '--workers')
    const workers = workersText === undefined ? undefined : Number(workersText)
    if (!Number.isInteger(works) || works < 1)
      return usageError(this, '--works needs a positive whole number')
    if (out === undefined || out.startsWith('--')) return usageError(this, '--out needs a folder')
    if (!Number.isInteger(seed)) return usageError(this, '--seed needs a whole number')
    if (workers !== undefined && !(Number.isInteger(workers) && workers >= 0))
      return usageError(this, '--workers needs a whole number, 0 or more')
    const bar = createProgressBar(context.writeProgress, { interactive: context.interactive })
    try {
      const summary = await generateSnapshot({
        works,
        outDir: resolve(out),
        seed,
        ...(workers === undefined ? {} : { workers }),
        overwrite: args.includes('--overwrite'),
        onProgress: (event) => bar.update(...describeProgress(event)),
      })
      bar.finish()
      return { exitCode: 0, stdout: formatSummary(summary) }
    } catch (error) {
      bar.finish()
      return {
        exitCode: 1,
        stderr: `oqlkit generate: ${error instanceof Error ? error.message : String(error)}\n`,
      }
    }
  },
}
