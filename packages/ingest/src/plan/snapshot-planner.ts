// Finds the snapshot layout under a folder, reads the manifests, and checks them against the files on disk
// before anything is read: every listed file exists with the stated size, every part file is listed, and
// the totals add up. Record counts are checked later, while the files are read.
import type { Dirent } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve, sep } from 'node:path'
import type { SnapshotLayout } from '@oqlkit/catalog'
import { CATALOG_ENTITIES, type CatalogEntityInfo, catalogEntityInfo } from '@oqlkit/catalog'
import { IngestError, ingestErrorDetails } from '../ingest-error.ts'
import {
  type EntityManifest,
  type ManifestEntry,
  parseCombinedManifest,
  parseEntityManifest,
} from './snapshot-manifest-parser.ts'
import type { SnapshotIdFile, SnapshotPart, SnapshotPlan } from './snapshot-plan.ts'

export interface PlanOptions {
  /** Which copy to read when a snapshot holds both 2026 formats. Default `jsonl` (the records as written). */
  readonly preferFormat?: 'jsonl' | 'parquet'
}

interface LayoutRoot {
  readonly layout: SnapshotLayout
  readonly root: string
  /** The folder above `data/` (where `legacy-data/` sits), for 2026 layouts. */
  readonly top: string
}

const LEGACY_MANIFEST = 'manifest'
const MANIFEST_JSON = 'manifest.json'
const MERGED_IDS = 'merged_ids'
const DELETED_IDS_FILES = ['deleted_ids.csv.gz', 'deleted_ids.csv'] as const
const PARTITION = /^updated_date=(\d{4}-\d{2}-\d{2})$/
const DATE_IN_NAME = /^(\d{4}-\d{2}-\d{2})/
const ENTITY_ORDER: ReadonlyMap<string, number> = new Map(
  CATALOG_ENTITIES.map((info, index) => [info.entity, index]),
)

export async function planSnapshot(snapshotDir: string, options: PlanOptions = {}): Promise<SnapshotPlan> {
  const dir = resolve(snapshotDir)
  const found = await findLayoutRoot(dir, options.preferFormat ?? 'jsonl')
  if (found === undefined) {
    throw new IngestError({ code: 'unknown-layout', file: dir, detail: ingestErrorDetails.unknownLayout() })
  }
  const { layout, root, top } = found
  const warnings: string[] = []
  const combinedPath = join(root, MANIFEST_JSON)
  const combined =
    layout !== 'legacy' && (await isFile(combinedPath))
      ? parseCombinedManifest(combinedPath, await readFile(combinedPath, 'utf8'))
      : undefined

  const parts: SnapshotPart[] = []
  const idFiles: SnapshotIdFile[] = []
  for (const entry of await listDir(root)) {
    if (!entry.isDirectory() || entry.name === MERGED_IDS || entry.name.startsWith('.')) continue
    const info = catalogEntityInfo(entry.name)
    if (info === undefined) {
      warnings.push(`skipped ${join(root, entry.name)}: not an entity folder`)
      continue
    }
    const entityDir = join(root, entry.name)
    const onDisk = await listPartFiles(entityDir)
    const manifest = await readEntityManifest(layout, entityDir, info, combined, combinedPath)
    if (manifest === undefined) {
      if (onDisk.length > 0) {
        throw new IngestError({
          code: 'manifest-missing',
          file: entityDir,
          detail: ingestErrorDetails.manifestMissing(info.entity),
        })
      }
    } else {
      parts.push(...(await checkManifest(root, info, manifest, onDisk, layout)))
    }
    idFiles.push(...(await deletedIdFiles(entityDir, info)))
  }
  for (const mergedDir of mergedIdDirs(layout, root, top))
    idFiles.push(...(await mergedIdFiles(mergedDir, warnings)))

  parts.sort(
    (a, b) =>
      ENTITY_ORDER.get(a.entity.entity)! - ENTITY_ORDER.get(b.entity.entity)! ||
      compareText(a.partitionDate ?? '', b.partitionDate ?? '') ||
      compareText(a.relativePath, b.relativePath),
  )
  idFiles.sort((a, b) => compareText(a.kind, b.kind) || compareText(a.path, b.path))
  return { layout, snapshotDir: dir, root, parts, idFiles, warnings }
}

async function findLayoutRoot(dir: string, prefer: 'jsonl' | 'parquet'): Promise<LayoutRoot | undefined> {
  const formats = prefer === 'jsonl' ? (['jsonl', 'parquet'] as const) : (['parquet', 'jsonl'] as const)
  for (const format of formats) {
    for (const [candidate, top] of [
      [join(dir, 'data', format), dir],
      [join(dir, format), dir],
    ] as const) {
      if (await looksLike2026(candidate)) return { layout: format, root: candidate, top }
    }
  }
  if (await looksLike2026(dir)) {
    const name = basename(dir)
    const format = name === 'parquet' || name === 'jsonl' ? name : await guessFormat(dir)
    const parent = dirname(dir)
    return { layout: format, root: dir, top: basename(parent) === 'data' ? dirname(parent) : parent }
  }
  for (const candidate of [dir, join(dir, 'data'), join(dir, 'legacy-data')]) {
    if (await looksLikeLegacy(candidate)) return { layout: 'legacy', root: candidate, top: dir }
  }
  return undefined
}

async function looksLike2026(dir: string): Promise<boolean> {
  if (await isFile(join(dir, MANIFEST_JSON))) return true
  for (const entry of await listDir(dir)) {
    if (
      entry.isDirectory() &&
      catalogEntityInfo(entry.name) &&
      (await isFile(join(dir, entry.name, MANIFEST_JSON)))
    ) {
      return true
    }
  }
  return false
}

async function looksLikeLegacy(dir: string): Promise<boolean> {
  for (const entry of await listDir(dir)) {
    if (!entry.isDirectory() || !catalogEntityInfo(entry.name)) continue
    const entityDir = join(dir, entry.name)
    if (await isFile(join(entityDir, LEGACY_MANIFEST))) return true
    if ((await listDir(entityDir)).some((child) => child.isDirectory() && PARTITION.test(child.name)))
      return true
  }
  return false
}

async function guessFormat(root: string): Promise<'jsonl' | 'parquet'> {
  for (const entry of await listDir(root)) {
    if (!entry.isDirectory()) continue
    const files = await listPartFiles(join(root, entry.name))
    if (files.length > 0) return files[0]!.endsWith('.parquet') ? 'parquet' : 'jsonl'
  }
  return 'jsonl'
}

async function readEntityManifest(
  layout: SnapshotLayout,
  entityDir: string,
  info: CatalogEntityInfo,
  combined: ReadonlyMap<string, EntityManifest> | undefined,
  combinedPath: string,
): Promise<EntityManifest | undefined> {
  const own = join(entityDir, layout === 'legacy' ? LEGACY_MANIFEST : MANIFEST_JSON)
  if (await isFile(own)) return parseEntityManifest(own, await readFile(own, 'utf8'))
  const section = combined?.get(info.entity)
  return section === undefined ? undefined : { ...section, path: combinedPath }
}

async function checkManifest(
  root: string,
  info: CatalogEntityInfo,
  manifest: EntityManifest,
  onDisk: readonly string[],
  layout: SnapshotLayout,
): Promise<SnapshotPart[]> {
  const mismatch = (entry: ManifestEntry | undefined, detail: string): IngestError =>
    new IngestError({
      code: 'manifest-mismatch',
      file: manifest.path,
      ...(entry?.line === undefined ? {} : { line: entry.line }),
      detail,
    })
  const parts: SnapshotPart[] = []
  const listed = new Set<string>()
  for (const entry of manifest.entries) {
    const relativePath = partPathOfUrl(entry.url, info.entity)
    if (relativePath === undefined) {
      throw mismatch(entry, ingestErrorDetails.manifestInvalid(`cannot place ${entry.url} in the snapshot`))
    }
    if (listed.has(relativePath)) {
      throw mismatch(entry, ingestErrorDetails.manifestInvalid(`${relativePath} is listed twice`))
    }
    listed.add(relativePath)
    const path = join(root, ...relativePath.split('/'))
    const size = await fileSize(path)
    if (size === undefined) throw mismatch(entry, ingestErrorDetails.listedFileMissing(relativePath))
    if (entry.contentLength !== null && entry.contentLength !== size) {
      throw mismatch(entry, ingestErrorDetails.contentLengthMismatch(relativePath, entry.contentLength, size))
    }
    const partition = relativePath.split('/').map((segment) => PARTITION.exec(segment)?.[1])
    parts.push({
      entity: info,
      path,
      relativePath,
      format: relativePath.endsWith('.parquet') || layout === 'parquet' ? 'parquet' : 'jsonl',
      partitionDate: partition.find((date) => date !== undefined) ?? null,
      bytes: size,
      expectedRecords: entry.recordCount,
      manifestPath: manifest.path,
      manifestLine: entry.line,
    })
  }
  for (const path of onDisk) {
    const relativePath = path
      .slice(root.length + 1)
      .split(sep)
      .join('/')
    if (!listed.has(relativePath)) throw mismatch(undefined, ingestErrorDetails.unlistedFile(relativePath))
  }
  // A total the manifest states must be what its entries add up to, where every entry states its own.
  const checkTotal = (
    what: 'record_count' | 'content_length',
    total: number | null,
    values: readonly (number | null)[],
  ): void => {
    if (total === null || !values.every((value) => value !== null)) return
    const sum = (values as number[]).reduce((a, b) => a + b, 0)
    if (sum !== total) throw mismatch(undefined, ingestErrorDetails.totalMismatch(what, total, sum))
  }
  checkTotal(
    'record_count',
    manifest.totalRecordCount,
    manifest.entries.map((entry) => entry.recordCount),
  )
  checkTotal(
    'content_length',
    manifest.totalContentLength,
    manifest.entries.map((entry) => entry.contentLength),
  )
  return parts
}

/**
 * Where a manifest url points inside the snapshot: `s3://openalex/data/works/updated_date=…/part_000.gz` and
 * `s3://openalex/data/jsonl/works/…` both give `works/updated_date=…/part_000.gz`.
 */
export function partPathOfUrl(url: string, entity: string): string | undefined {
  const marker = `/${entity}/`
  const index = url.lastIndexOf(marker)
  let relative: string | undefined
  if (index !== -1) relative = url.slice(index + 1)
  else if (url.startsWith(`${entity}/`)) relative = url
  else if (!url.includes('://') && !url.startsWith('/')) relative = `${entity}/${url}`
  if (relative === undefined) return undefined
  const segments = relative.split('/')
  return segments.every((segment) => segment !== '' && segment !== '.' && segment !== '..')
    ? relative
    : undefined
}

/** Part files on disk: everything inside `updated_date=` folders, plus part-looking files at the top. */
async function listPartFiles(entityDir: string): Promise<string[]> {
  const files: string[] = []
  for (const entry of await listDir(entityDir)) {
    if (entry.name.startsWith('.')) continue
    const path = join(entityDir, entry.name)
    if (entry.isDirectory() && PARTITION.test(entry.name)) {
      for (const child of await listDir(path)) {
        if (child.isFile() && !child.name.startsWith('.')) files.push(join(path, child.name))
      }
    } else if (entry.isFile() && /^(?:\d+_)?part_/.test(entry.name)) {
      files.push(path)
    }
  }
  return files.sort()
}

async function deletedIdFiles(entityDir: string, info: CatalogEntityInfo): Promise<SnapshotIdFile[]> {
  // The 2026 works folder has both deleted_ids.csv.gz and the same list as deleted_ids.csv: read one.
  for (const name of DELETED_IDS_FILES) {
    const path = join(entityDir, name)
    const bytes = await fileSize(path)
    if (bytes !== undefined) return [{ kind: 'deleted', entity: info, path, bytes, fileDate: null }]
  }
  return []
}

function mergedIdDirs(layout: SnapshotLayout, root: string, top: string): string[] {
  const dirs = [join(root, MERGED_IDS)]
  if (layout !== 'legacy') dirs.push(join(top, 'legacy-data', MERGED_IDS))
  return [...new Set(dirs)]
}

async function mergedIdFiles(mergedDir: string, warnings: string[]): Promise<SnapshotIdFile[]> {
  const files: SnapshotIdFile[] = []
  for (const entry of await listDir(mergedDir)) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue
    const info = catalogEntityInfo(entry.name)
    if (info === undefined) {
      warnings.push(`skipped ${join(mergedDir, entry.name)}: not an entity of the catalog`)
      continue
    }
    for (const file of await listDir(join(mergedDir, entry.name))) {
      if (!file.isFile() || !/\.csv(?:\.gz)?$/.test(file.name)) continue
      const path = join(mergedDir, entry.name, file.name)
      files.push({
        kind: 'merged',
        entity: info,
        path,
        bytes: (await fileSize(path)) ?? 0,
        fileDate: DATE_IN_NAME.exec(file.name)?.[1] ?? null,
      })
    }
  }
  return files
}

async function listDir(dir: string): Promise<Dirent[]> {
  try {
    return (await readdir(dir, { withFileTypes: true })).sort((a, b) => compareText(a.name, b.name))
  } catch {
    return []
  }
}

async function isFile(path: string): Promise<boolean> {
  return (await fileSize(path)) !== undefined
}

async function fileSize(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path)
    return info.isFile() ? info.size : undefined
  } catch {
    return undefined
  }
}

const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
