// A catalog folder `oqlkit serve` serves, opened on DuckDB (the bundled sample built into it on a first start),
// with its text tagger and the model that embeds semantic queries. The versions a ClickHouse keeps are opened
// by clickhouse-versions-opener.ts.
import { existsSync, readdirSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import {
  catalogVersionOf,
  hasUnreadableSearchIndex,
  hasUnreadableVectors,
  loadCatalogTagger,
  readCatalogManifest,
  vectorIndexOf,
} from '@oqlkit/catalog'
import type { Embedder, StorageAdapter } from '@oqlkit/engine'
import type { CatalogInfo } from '@oqlkit/http'
import { REAL_SAMPLE_SNAPSHOT_DIR, SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot/sample-location'
import { createOpenAiEmbedder } from '@oqlkit/text-models'
import { type CliCommand, type CommandContext, type CommandResult, usageError } from './cli-command.ts'
import { withProgressBar } from './progress-bar.ts'
import type { ServeSettings } from './serve-settings-reader.ts'
import { zstdBuildNote } from './zstd-build-note.ts'

/** The name a server gives the one catalog it serves. */
const DEFAULT_DATA_VERSION_NAME = 'default'

/** The message of anything thrown. */
export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** `oqlkit serve` ending, before it listens, with what went wrong. */
export const serveFailure = (message: string): CommandResult => ({
  exitCode: 1,
  stderr: `oqlkit serve: ${message}\n`,
})

/** A catalog served: its adapter, its text tagger, what the API says of it, and how the start message names it. */
export interface OpenedCatalog {
  readonly adapter: StorageAdapter
  readonly tagger: Awaited<ReturnType<typeof loadCatalogTagger>>
  readonly catalogInfo: CatalogInfo
  readonly vectors: ReturnType<typeof vectorIndexOf>
  /** The catalog records a search index of a format this version does not read (its searches are refused). */
  readonly unreadableSearchIndex?: boolean
  readonly serving: string
}

/** The catalog under the name `data_version=` picks it by (`--catalog NAME=DIR`). */
export const namedCatalog = (opened: OpenedCatalog, name: string): OpenedCatalog => ({
  ...opened,
  catalogInfo: { ...opened.catalogInfo, version: { ...opened.catalogInfo.version!, name } },
})

/** The catalog folder (the bundled sample built into it on a first start), on DuckDB. */
export const openCatalogFolder = async (
  command: CliCommand,
  settings: ServeSettings,
  connections: number,
  context: CommandContext,
): Promise<OpenedCatalog | CommandResult> => {
  const { catalogDir, embeddingsUrl } = settings
  const hasCatalog = existsSync(join(catalogDir, 'catalog.json'))
  // A folder given with --catalog that holds other things is not the place to build the sample in.
  if (!hasCatalog && settings.catalogGiven && readdirSync(catalogDir).length > 0)
    return usageError(
      command,
      `--catalog ${catalogDir} holds no catalog (no catalog.json). Build one with \`oqlkit ingest <snapshot> --out ${catalogDir}\`, or give an empty folder to serve the bundled sample`,
    )
  if (!hasCatalog || (await isStaleSampleCatalog(catalogDir))) {
    // First start on a fresh clone: the catalog is built from the committed snapshot, once.
    // A stale sample catalog is rebuilt from the sample it was built from, whatever --sample says now.
    const recorded = hasCatalog ? await recordedSampleOf(catalogDir) : undefined
    const sampleDir =
      recorded ?? (settings.sample === 'real' ? REAL_SAMPLE_SNAPSHOT_DIR : SAMPLE_SNAPSHOT_DIR)
    context.writeProgress(
      `No catalog this oqlkit can read in ${catalogDir}: building it from the bundled sample${sampleDir === REAL_SAMPLE_SNAPSHOT_DIR ? ' of 4,431 real works (about a minute, once)' : ''} (${sampleDir}).\n${zstdBuildNote()}`,
    )
    try {
      // Loaded here alone: ingest is some 45 modules a server that has its catalog never needs.
      const { ingestSnapshot } = await import('@oqlkit/ingest')
      await withProgressBar(context, (update) =>
        ingestSnapshot({
          snapshotDir: sampleDir,
          outDir: catalogDir,
          mode: 'replace',
          onProgress: (event) =>
            update(
              event.phase === 'build' ? event.stepsDone : event.bytesDone,
              event.phase === 'build' ? event.stepsTotal : event.bytesTotal,
              event.phase,
            ),
        }),
      )
    } catch (error) {
      return serveFailure(`could not build the sample catalog: ${messageOf(error)}`)
    }
  }

  const manifest = await readCatalogManifest(catalogDir)
  if (!manifest.ok) return serveFailure(manifest.message)
  // Semantic search embeds queries with the catalog's own model, or with the embeddings server its vectors
  // came from; the model defaults to the one the catalog records.
  const vectors = vectorIndexOf(manifest.manifest)
  const embeddingsModel = settings.embeddingsModel ?? vectors?.embedder.model
  let embedder: Embedder | undefined
  if (embeddingsUrl !== undefined) {
    if (embeddingsModel === undefined)
      return usageError(
        command,
        '--embeddings-url needs --embeddings-model (this catalog records no served model)',
      )
    try {
      embedder = await createOpenAiEmbedder({ url: embeddingsUrl, model: embeddingsModel })
    } catch (error) {
      return serveFailure(messageOf(error))
    }
  }
  let adapter: Awaited<ReturnType<typeof createDuckDbAdapter>>
  try {
    adapter = await createDuckDbAdapter({
      catalogDir,
      connections,
      ...(embedder === undefined ? {} : { embedder }),
    })
  } catch (error) {
    return serveFailure(messageOf(error))
  }
  // The text-tagging model trained at ingest; a catalog without one serves everything but /text.
  let tagger: Awaited<ReturnType<typeof loadCatalogTagger>>
  try {
    tagger = await loadCatalogTagger(catalogDir)
  } catch (error) {
    await adapter.close()
    return serveFailure(
      `the catalog's text-tagging model cannot be read (${messageOf(error)}); re-ingest the catalog.`,
    )
  }
  return {
    adapter,
    tagger,
    catalogInfo: {
      createdAt: manifest.manifest.createdAt,
      entities: Object.fromEntries(
        Object.entries(manifest.manifest.entities).map(([entity, table]) => [entity, table.rowCount]),
      ),
      version: { name: DEFAULT_DATA_VERSION_NAME, ...catalogVersionOf(manifest.manifest) },
    },
    vectors,
    ...(hasUnreadableSearchIndex(manifest.manifest) ? { unreadableSearchIndex: true } : {}),
    serving: catalogDir,
  }
}

/**
 * A catalog built from the bundled sample by an older oqlkit (another catalog format, or vectors of an older
 * format): rebuilt on start, since it holds nothing but the sample. Any other catalog of another format is
 * the user's to re-ingest.
 */
/**
 * Whether an ingest's snapshot was the bundled sample: this installation's, another's (an installed package's
 * path changes with each install, and npx has its own), or the repository's from before it moved into
 * @oqlkit/snapshot (`data/sample-snapshot`).
 */
export const isBundledSample = (source: unknown): boolean =>
  typeof source === 'string' &&
  (source === SAMPLE_SNAPSHOT_DIR ||
    source === REAL_SAMPLE_SNAPSHOT_DIR ||
    /[\\/](?:data|snapshot)[\\/]sample-snapshot[\\/]?$|[\\/]snapshot[\\/]real-sample-snapshot[\\/]?$/.test(
      source,
    ))

/** The bundled sample a catalog's last ingest read (this installation's copy of it), or undefined for another. */
const recordedSampleOf = async (catalogDir: string): Promise<string | undefined> => {
  try {
    const stated = JSON.parse(await readFile(join(catalogDir, 'catalog.json'), 'utf8')) as {
      ingests?: { snapshotDir?: unknown }[]
    }
    const source = stated.ingests?.at(-1)?.snapshotDir
    if (!isBundledSample(source)) return undefined
    return /real-sample-snapshot[\\/]?$/.test(String(source)) ? REAL_SAMPLE_SNAPSHOT_DIR : SAMPLE_SNAPSHOT_DIR
  } catch {
    return undefined
  }
}

const isStaleSampleCatalog = async (catalogDir: string): Promise<boolean> => {
  const manifest = await readCatalogManifest(catalogDir)
  // Vectors or a search index of an older format are not read (their searches would be refused): a sample
  // rebuilt has them.
  if (manifest.ok && !hasUnreadableVectors(manifest.manifest) && !hasUnreadableSearchIndex(manifest.manifest))
    return false
  try {
    const stated = JSON.parse(await readFile(join(catalogDir, 'catalog.json'), 'utf8')) as {
      ingests?: { snapshotDir?: unknown }[]
    }
    const sources = (stated.ingests ?? []).map((ingest) => ingest.snapshotDir)
    return sources.length > 0 && sources.every(isBundledSample)
  } catch {
    return false
  }
}
