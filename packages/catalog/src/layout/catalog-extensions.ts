// The parts built on top of a catalog (the search index, the vectors): each is recorded in `catalog.json` under
// its key, with its files listed among the catalog's, and read back only in the format this version reads.
import type { CatalogFile, CatalogManifest } from './catalog-layout.ts'

/**
 * The catalog manifest with an extension recorded under `key`: `extensions[key]` set, and its files in `files`
 * in place of any that an earlier build listed in its folder `dir`.
 */
export function withExtension(
  manifest: CatalogManifest,
  key: string,
  dir: string,
  extension: { readonly files: readonly CatalogFile[] },
): CatalogManifest {
  const others = manifest.files.filter((file) => !file.path.startsWith(`${dir}/`))
  return {
    ...manifest,
    files: [...others, ...extension.files],
    extensions: { ...manifest.extensions, [key]: extension },
  }
}

/** The extension a catalog records under `key`, or undefined when it has none or one of another format version. */
export function extensionOf<T>(
  manifest: CatalogManifest,
  key: string,
  format: string,
  formatVersion: number,
): T | undefined {
  const value = manifest.extensions[key]
  if (typeof value !== 'object' || value === null) return undefined
  const recorded = value as { readonly format?: unknown; readonly formatVersion?: unknown }
  return recorded.format === format && recorded.formatVersion === formatVersion ? (value as T) : undefined
}
