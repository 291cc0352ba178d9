// Which vectors a catalog's manifest offers: those of this format version, never those of another.
import { describe, expect, it } from 'vitest'
import type { CatalogManifest } from '../src/layout/catalog-layout.ts'
import { VECTOR_INDEX_FORMAT, VECTOR_INDEX_FORMAT_VERSION } from '../src/vectors/vector-index-layout.ts'
import { hasUnreadableVectors, vectorIndexOf } from '../src/vectors/vector-index-manifest.ts'

const manifestWith = (vectors: unknown): CatalogManifest =>
  ({ extensions: vectors === undefined ? {} : { vectors }, files: [] }) as unknown as CatalogManifest

describe('the vectors entry of catalog.json', () => {
  it('offers vectors of this format version, and calls those of another unreadable', () => {
    const current = { format: VECTOR_INDEX_FORMAT, formatVersion: VECTOR_INDEX_FORMAT_VERSION }
    expect(vectorIndexOf(manifestWith(current))).toBe(current)
    expect(hasUnreadableVectors(manifestWith(current))).toBe(false)
    const older = { format: VECTOR_INDEX_FORMAT, formatVersion: VECTOR_INDEX_FORMAT_VERSION - 1 }
    expect(vectorIndexOf(manifestWith(older))).toBeUndefined()
    expect(hasUnreadableVectors(manifestWith(older))).toBe(true)
    // No vectors at all is not an unreadable entry: there is simply nothing to offer.
    expect(vectorIndexOf(manifestWith(undefined))).toBeUndefined()
    expect(hasUnreadableVectors(manifestWith(undefined))).toBe(false)
  })
})
