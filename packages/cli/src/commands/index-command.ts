import { resolve } from 'node:path'
import { indexCatalogSearch, type SearchBuildProgress } from '@oqlkit/adapter-duckdb'
import { type CliCommand, usageError } from './cli-command.ts'
import { createProgressBar } from './progress-bar.ts'

const megabytes = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MB`

const describeProgress = (event: SearchBuildProgress): [number, number, string] => [
  event.done,
  event.total,
  `${event.entity}: ${event.step}`,
]

/** `--name value` options, each at most once; the rest are positional. */
const parseArgs = (
  args: readonly string[],
  names: readonly string[],
): { options: Map<string, string>; positional: string[]; problem?: string } => {
  const options = new Map<string, string>()
  const positional: string[] = []
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!
    if (!arg.startsWith('--')) {
      positional.push(arg)
      continue
    }
    const name = arg.slice(2)
    const value = args[index + 1]
    if (!names.includes(name)) return { options, positional, problem: `unknown option ${arg}` }
    if (value === undefined || value.startsWith('--'))
      return { options, positional, problem: `${arg} needs a value` }
    options.set(name, value)
    index++
  }
  return { options, positional }
}

export const indexCommand: CliCommand = {
  name: 'index',
  usage: 'oqlkit index <catalog-dir> [--memory-limit 2GB] [--threads N] [--segment-docs N]',
  summary: "Build (or rebuild) a catalog's full-text search index in place, with progress.",
  async run(args, context) {
    const parsed = parseArgs(args, ['memory-limit', 'threads', 'segment-docs'])
    if (parsed.problem !== undefined) return usageError(this, parsed.problem)
    if (parsed.positional.length !== 1)
      return usageError(
        this,
        parsed.positional.length === 0
          ? 'no catalog folder given'
          : `unexpected arguments: ${parsed.positional.slice(1).join(' ')}`,
      )
    const count = (name: string): number | undefined | null => {
      const value = parsed.options.get(name)
      if (value === undefined) return undefined
      return /^[1-9][0-9]*$/.test(value) ? Number(value) : null
    }
    const threads = count('threads')
    const segmentDocs = count('segment-docs')
    if (threads === null) return usageError(this, '--threads takes a positive whole number')
    if (segmentDocs === null) return usageError(this, '--segment-docs takes a positive whole number')
    const memoryLimit = parsed.options.get('memory-limit')
    const catalogDir = resolve(parsed.positional[0]!)

    const bar = createProgressBar(context.writeProgress, { interactive: context.interactive })
    try {
      const result = await indexCatalogSearch({
        catalogDir,
        ...(memoryLimit === undefined ? {} : { memoryLimit }),
        ...(threads === undefined ? {} : { threads }),
        ...(segmentDocs === undefined ? {} : { segmentDocs }),
        onProgress: (event) => bar.update(...describeProgress(event)),
      })
      bar.finish()
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
      bar.finish()
      const message = error instanceof Error ? error.message : String(error)
      return { exitCode: 1, stderr: `oqlkit index: ${message}\nThe catalog's index was not changed.\n` }
    }
  },
}
