import { resolve } from 'node:path'
import {
  type IngestProgress,
  type IngestSummary,
  ingestSnapshot,
  type VectorsChoice,
} from '@oqlkit/adapter-duckdb'
import { createOpenAiEmbedder } from '@oqlkit/text-models'
import { type CliCommand, usageError } from './cli-command.ts'
import { createProgressBar } from './progress-bar.ts'

/** Where `oqlkit serve` looks for a catalog unless told otherwise. */
export const DEFAULT_CATALOG_DIR = '.catalog'

const megabytes = (bytes: number): string => `${(bytes / 1_048_576).toFixed(1)} MB`

const describeProgress = (event: IngestProgress): [number, number, string] => {
  if (event.phase === 'build')
    return [event.stepsDone, event.stepsTotal, `building ${event.step ?? ''}`.trimEnd()]
  return [
    event.bytesDone,
    event.bytesTotal,
    `${event.phase} ${event.recordsRead.toLocaleString('en-US')} records${event.entity === null ? '' : ` (${event.entity})`}`,
  ]
}

export const formatIngestSummary = (summary: IngestSummary): string => {
  const lines = [
    `${summary.mode} catalog ${summary.catalogDir} from ${summary.snapshotDir} (${summary.layout} layout)`,
    `read ${summary.recordsRead.toLocaleString('en-US')} records from ${summary.filesRead} files (${megabytes(summary.bytesRead)}) in ${(summary.durationMs / 1000).toFixed(1)} s` +
      ` (${Math.round(summary.recordsRead / Math.max(summary.durationMs / 1000, 0.001)).toLocaleString('en-US')} records/s)`,
    `wrote ${summary.recordsWritten.toLocaleString('en-US')} records, ${summary.linkRows.toLocaleString('en-US')} link rows, ${summary.externalIds.toLocaleString('en-US')} external ids; catalog ${megabytes(summary.catalogBytes)}`,
    `merged ids ${summary.mergedIds}, deleted ids ${summary.deletedIds}`,
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

export const ingestCommand: CliCommand = {
  name: 'ingest',
  usage: `oqlkit ingest <snapshot-dir> [--out <catalog-dir>] [--no-search-index] [--no-text-tagger] [--no-vectors | --embeddings-url URL --embeddings-model M] [--memory-limit 8GB]   (default --out ${DEFAULT_CATALOG_DIR}; DuckDB gets 30% of memory, at most 3 GB, unless --memory-limit says; vectors by the built-in LSA model unless an embeddings server is given)`,
  summary: 'Build (or update) a catalog from an OpenAlex snapshot in either public layout, with progress.',
  async run(args, context) {
    const valued = new Map<string, number>()
    for (const name of ['--out', '--memory-limit', '--embeddings-url', '--embeddings-model']) {
      const index = args.indexOf(name)
      if (index !== -1) valued.set(name, index)
    }
    const optionValue = (name: string): string | undefined => {
      const index = valued.get(name)
      return index === undefined ? undefined : args[index + 1]
    }
    const taken = new Set([...valued.values()].flatMap((index) => [index, index + 1]))
    const noSearchIndex = args.includes('--no-search-index')
    const noVectors = args.includes('--no-vectors')
    const noTextTagger = args.includes('--no-text-tagger')
    const switches = new Set(['--no-search-index', '--no-vectors', '--no-text-tagger'])
    const positional = args.filter((arg, index) => !taken.has(index) && !switches.has(arg))
    const embeddingsUrl = optionValue('--embeddings-url')
    const embeddingsModel = optionValue('--embeddings-model')
    if (valued.has('--embeddings-url') && (embeddingsUrl === undefined || embeddingsUrl.startsWith('--')))
      return usageError(this, '--embeddings-url needs the URL of an OpenAI-compatible embeddings server')
    if (
      valued.has('--embeddings-model') &&
      (embeddingsModel === undefined || embeddingsModel.startsWith('--'))
    )
      return usageError(this, '--embeddings-model needs the name of the server’s model')
    if (embeddingsUrl !== undefined && embeddingsModel === undefined)
      return usageError(
        this,
        '--embeddings-url needs --embeddings-model too (the model the server should use)',
      )
    if (embeddingsModel !== undefined && embeddingsUrl === undefined)
      return usageError(this, '--embeddings-model needs --embeddings-url (the server that has the model)')
    if (noVectors && embeddingsUrl !== undefined)
      return usageError(this, '--no-vectors and --embeddings-url contradict each other: drop one')
    const out = valued.has('--out') ? optionValue('--out') : DEFAULT_CATALOG_DIR
    if (out === undefined || out.startsWith('--')) return usageError(this, '--out needs a folder')
    const memoryLimit = optionValue('--memory-limit')
    if (
      valued.has('--memory-limit') &&
      (memoryLimit === undefined || !/^\d+(\.\d+)?\s*[KMGT]i?B$/i.test(memoryLimit))
    )
      return usageError(this, '--memory-limit needs a size such as 8GB')
    const unknown = positional.filter((arg) => arg.startsWith('--'))
    if (unknown.length > 0) return usageError(this, `unknown option ${unknown[0]}`)
    if (positional.length !== 1)
      return usageError(
        this,
        positional.length === 0
          ? 'no snapshot folder given'
          : `unexpected arguments: ${positional.slice(1).join(' ')}`,
      )
    let vectors: VectorsChoice | false | undefined = noVectors ? false : undefined
    if (embeddingsUrl !== undefined && embeddingsModel !== undefined) {
      try {
        const embedder = await createOpenAiEmbedder({ url: embeddingsUrl, model: embeddingsModel })
        vectors = { kind: 'openai-compatible', embedder, model: embeddingsModel }
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        return { exitCode: 1, stderr: `oqlkit ingest: ${message}\nNothing was changed in ${resolve(out)}.\n` }
      }
    }
    const bar = createProgressBar(context.writeProgress, { interactive: context.interactive })
    try {
      const summary = await ingestSnapshot({
        ...(vectors === undefined ? {} : { vectors }),
        snapshotDir: resolve(positional[0]!),
        outDir: resolve(out),
        ...(noSearchIndex ? { searchIndex: false } : {}),
        ...(noTextTagger ? { textTagger: false } : {}),
        ...(memoryLimit === undefined ? {} : { memoryLimit }),
        onProgress: (event) => bar.update(...describeProgress(event)),
      })
      bar.finish()
      return { exitCode: 0, stdout: formatIngestSummary(summary) }
    } catch (error) {
      bar.finish()
      const message = error instanceof Error ? error.message : String(error)
      return { exitCode: 1, stderr: `oqlkit ingest: ${message}\nNothing was changed in ${resolve(out)}.\n` }
    }
  },
}
