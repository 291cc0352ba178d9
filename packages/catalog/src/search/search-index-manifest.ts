// The search index's entry in `catalog.json`: merged in after a build, read back by the query side.
import { extensionOf, withExtension } from '../layout/catalog-extensions.ts'
import { type CatalogManifest, SEARCH_DIR } from '../layout/catalog-layout.ts'
import {
  SEARCH_EXTENSION_KEY,
  SEARCH_INDEX_FORMAT,
  SEARCH_INDEX_FORMAT_VERSION,
  type SearchIndexManifest,
} from './search-index-layout.ts'

/**
 * The catalog manifest with the index recorded: `extensions.search` set, and the index files in `files` in
 * place of any an earlier index listed.
 */
export function withSearchIndex(manifest: CatalogManifest, index: SearchIndexManifest): CatalogManifest {
  return withExtension(manifest, SEARCH_EXTENSION_KEY, SEARCH_DIR, index)
}

/** The index a catalog records, or undefined when it has none or one of another format version. */
export function searchIndexOf(manifest: CatalogManifest): SearchIndexManifest | undefined {
  return extensionOf(manifest, SEARCH_EXTENSION_KEY, SEARCH_INDEX_FORMAT, SEARCH_INDEX_FORMAT_VERSION)
}

/** Whether the catalog records a search index that this version cannot read (another format version). */
export function hasUnreadableSearchIndex(manifest: CatalogManifest): boolean {
  return manifest.extensions[SEARCH_EXTENSION_KEY] !== undefined && searchIndexOf(manifest) === undefined
}
