// The benchmark's catalogs, made once and kept: a generated snapshot and the catalog ingested from it, in a
// cache folder keyed by size, seed and format version, so a rerun (or a run at another size) only builds what
// it lacks. A folder counts only once it holds the marker written after its command succeeded: an interrupted
// build is rebuilt, never half-used.
import { spawn } from 'node:child_process'
import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { CATALOG_FORMAT_VERSION } from '@oqlkit/catalog'

/** The generator's snapshot format (its manifest's `formatVersion`). */
const GENERATED_SNAPSHOT_VERSION = 1
const COMPLETE_MARKER = '.bench-complete'
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))

export const snapshotCacheName = (works: number, seed: number): string =>
  `snapshot-w${works}-s${seed}-g${GENERATED_SNAPSHOT_VERSION}`
export const catalogCacheName = (works: number, seed: number): string =>
  `catalog-w${works}-s${seed}-c${CATALOG_FORMAT_VERSION}`

export const isComplete = (dir: string): boolean => existsSync(join(dir, COMPLETE_MARKER))

async function runCli(args: readonly string[], log: (line: string) => void): Promise<void> {
  log(`$ oqlkit ${args.join(' ')}`)
  const child = spawn(
    process.execPath,
    ['--conditions=@oqlkit/source', '--import', 'tsx', 'packages/cli/src/bin.ts', ...args],
    { cwd: REPO_ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  )
  const code = await new Promise<number | null>((done) => child.once('exit', done))
  if (code !== 0) throw new Error(`oqlkit ${args[0]} failed (exit ${code})`)
}

export interface CachedCatalog {
  readonly snapshotDir: string
  readonly catalogDir: string
  readonly built: { readonly generateMs?: number; readonly ingestMs?: number }
}

interface CacheOptions {
  readonly cacheDir: string
  readonly works: number
  readonly seed: number
  readonly log: (line: string) => void
}

/** The generated snapshot of a size, made when missing (a new one removes the catalog made from the old). */
export async function ensureSnapshot(
  options: CacheOptions,
): Promise<{ readonly snapshotDir: string; readonly generateMs?: number }> {
  const cacheDir = resolve(options.cacheDir)
  const snapshotDir = join(cacheDir, snapshotCacheName(options.works, options.seed))
  const catalogDir = join(cacheDir, catalogCacheName(options.works, options.seed))
  if (isComplete(snapshotDir)) {
    options.log(`cached snapshot ${snapshotDir}`)
    return { snapshotDir }
  }
  const started = performance.now()
  await runCli(
    [
      'generate',
      '--works',
      String(options.works),
      '--seed',
      String(options.seed),
      '--out',
      snapshotDir,
      '--overwrite',
    ],
    options.log,
  )
  writeFileSync(join(snapshotDir, COMPLETE_MARKER), '')
  rmSync(catalogDir, { recursive: true, force: true })
  return { snapshotDir, generateMs: performance.now() - started }
}

export async function ensureCatalog(
  options: CacheOptions & { readonly ingestMemoryLimit?: string | undefined },
): Promise<CachedCatalog> {
  const cacheDir = resolve(options.cacheDir)
  const catalogDir = join(cacheDir, catalogCacheName(options.works, options.seed))
  const built: { generateMs?: number; ingestMs?: number } = {}
  const { snapshotDir, generateMs } = await ensureSnapshot(options)
  if (generateMs !== undefined) built.generateMs = generateMs
  if (!isComplete(catalogDir)) {
    rmSync(catalogDir, { recursive: true, force: true })
    const started = performance.now()
    await runCli(
      [
        'ingest',
        snapshotDir,
        '--out',
        catalogDir,
        ...(options.ingestMemoryLimit === undefined ? [] : ['--memory-limit', options.ingestMemoryLimit]),
      ],
      options.log,
    )
    writeFileSync(join(catalogDir, COMPLETE_MARKER), '')
    built.ingestMs = performance.now() - started
  } else options.log(`cached catalog ${catalogDir}`)
  return { snapshotDir, catalogDir, built }
}
