// Reads and checks catalog.json. Used by ingest (to update a catalog in place) and by the query adapter.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CATALOG_ENTITY_NAMES } from './catalog-entities.ts'
import {
  CATALOG_FORMAT,
  CATALOG_MANIFEST_FILE,
  type CatalogManifest,
  READABLE_CATALOG_FORMAT_VERSIONS,
} from './catalog-layout.ts'

export type CatalogManifestResult =
  | { readonly ok: true; readonly manifest: CatalogManifest }
  | { readonly ok: false; readonly problem: 'missing' | 'invalid'; readonly message: string }

/** Reads `<catalogDir>/catalog.json`; `missing` when there is none, `invalid` when it is not ours. */
export async function readCatalogManifest(catalogDir: string): Promise<CatalogManifestResult> {
  const path = join(catalogDir, CATALOG_MANIFEST_FILE)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return { ok: false, problem: 'missing', message: `${path} does not exist` }
    }
    return { ok: false, problem: 'invalid', message: `${path} cannot be read: ${(error as Error).message}` }
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { ok: false, problem: 'invalid', message: `${path} is not JSON: ${(error as Error).message}` }
  }
  const problem = catalogManifestProblem(value)
  if (problem !== undefined) return { ok: false, problem: 'invalid', message: `${path}: ${problem}` }
  return { ok: true, manifest: value as CatalogManifest }
}

function catalogManifestProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'expected a JSON object'
  const manifest = value as Record<string, unknown>
  if (manifest.format !== CATALOG_FORMAT) {
    return `expected format ${JSON.stringify(CATALOG_FORMAT)}, found ${JSON.stringify(manifest.format)}`
  }
  if (!(READABLE_CATALOG_FORMAT_VERSIONS as readonly unknown[]).includes(manifest.formatVersion)) {
    return `expected formatVersion ${READABLE_CATALOG_FORMAT_VERSIONS.join(' or ')}, found ${JSON.stringify(manifest.formatVersion)}`
  }
  const entities = manifest.entities
  if (typeof entities !== 'object' || entities === null) return 'expected an entities object'
  for (const name of CATALOG_ENTITY_NAMES) {
    const table = (entities as Record<string, unknown>)[name] as { files?: unknown } | undefined
    if (!table || !Array.isArray(table.files) || !table.files.every(isCatalogRelativePath)) {
      return `entity ${name}: expected a files list of catalog-relative paths`
    }
  }
  for (const key of ['externalIds', 'mergedIds', 'deletedIds'] as const) {
    const table = manifest[key] as { files?: unknown } | undefined
    if (!table || !Array.isArray(table.files) || !table.files.every(isCatalogRelativePath)) {
      return `${key}: expected a files list of catalog-relative paths`
    }
  }
  return undefined
}

/** A path inside the catalog: relative, `/`-separated, no `..` segment. */
export function isCatalogRelativePath(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value !== '' &&
    !value.startsWith('/') &&
    !value.includes('\\') &&
    value.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..')
  )
}
