// Which search index a catalog's manifest offers: one of this format version, never one of another (format 3
// stores no scores, so a format 2 index is built again rather than read).
import { describe, expect, it } from 'vitest'
import type { CatalogManifest } from '../src/layout/catalog-layout.ts'
import { SEARCH_INDEX_FORMAT, SEARCH_INDEX_FORMAT_VERSION } from '../src/search/search-index-layout.ts'
import { hasUnreadableSearchIndex, searchIndexOf } from '../src/search/search-index-manifest.ts'

const manifestWith = (search: unknown): CatalogManifest =>
  ({ extensions: search === undefined ? {} : { search }, files: [] }) as unknown as CatalogManifest

describe('the search entry of catalog.json', () => {
  it('offers an index of this format version, and calls one of another unreadable', () => {
    const current = { format: SEARCH_INDEX_FORMAT, formatVersion: SEARCH_INDEX_FORMAT_VERSION }
    expect(searchIndexOf(manifestWith(current))).toBe(current)
    expect(hasUnreadableSearchIndex(manifestWith(current))).toBe(false)
    const older = { format: SEARCH_INDEX_FORMAT, formatVersion: 2 }
    expect(searchIndexOf(manifestWith(older))).toBeUndefined()
    expect(hasUnreadableSearchIndex(manifestWith(older))).toBe(true)
    // No index at all is not an unreadable entry: there is simply nothing to offer.
    expect(hasUnreadableSearchIndex(manifestWith(undefined))).toBe(false)
  })
})
