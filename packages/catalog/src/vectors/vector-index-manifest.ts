// The vectors' entry in `catalog.json`: merged in after a build, read back when a catalog is opened.
import { extensionOf, withExtension } from '../layout/catalog-extensions.ts'
import type { CatalogManifest } from '../layout/catalog-layout.ts'
import {
  VECTOR_INDEX_FORMAT,
  VECTOR_INDEX_FORMAT_VERSION,
  VECTORS_DIR,
  VECTORS_EXTENSION_KEY,
  type VectorIndexManifest,
} from './vector-index-layout.ts'

/** The catalog manifest with the vectors recorded, their files in place of any earlier vectors' files. */
export function withVectorIndex(manifest: CatalogManifest, vectors: VectorIndexManifest): CatalogManifest {
  return withExtension(manifest, VECTORS_EXTENSION_KEY, VECTORS_DIR, vectors)
}

/** Whether the catalog records vectors that this version cannot read (another format version). */
export function hasUnreadableVectors(manifest: CatalogManifest): boolean {
  return manifest.extensions[VECTORS_EXTENSION_KEY] !== undefined && vectorIndexOf(manifest) === undefined
}

/** The vectors a catalog records, or undefined when it has none or ones of another format version. */
export function vectorIndexOf(manifest: CatalogManifest): VectorIndexManifest | undefined {
  return extensionOf(manifest, VECTORS_EXTENSION_KEY, VECTOR_INDEX_FORMAT, VECTOR_INDEX_FORMAT_VERSION)
}
