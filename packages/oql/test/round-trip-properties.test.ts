import { canonicalizeOqo, type Oqo } from '@oqlkit/oqo-schema'
import { oqoArbitrary } from '@oqlkit/oqo-schema/testing'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { oqoToUrl, parseOql, printOql, urlToOqo } from '../src/index.ts'
import { urlShapedOqoArbitrary } from './url-shaped-oqo.ts'

// The three forms are one query: OQO → OQL → OQO and OQO → URL → OQO are the identity on the sorted
// canonical form, for generated queries over every entity, column, operator and value kind.

const sorted = (oqo: Oqo): Oqo => canonicalizeOqo(oqo, { sortOperands: true })

describe('round trips', () => {
  it('OQO → OQL → OQO is the identity', () => {
    fc.assert(
      fc.property(oqoArbitrary(), (oqo) => {
        const canonical = sorted(oqo)
        const text = printOql(canonical)
        const parsed = parseOql(text)
        expect(parsed.ok ? [] : parsed.diagnostics, text).toEqual([])
        if (parsed.ok) expect(sorted(parsed.oqo), text).toEqual(canonical)
      }),
      { numRuns: 500 },
    )
  })

  it('printing is idempotent: OQL → OQO → OQL gives the same text', () => {
    let checked = 0
    fc.assert(
      fc.property(oqoArbitrary(), (oqo) => {
        const text = printOql(sorted(oqo))
        const parsed = parseOql(text)
        if (parsed.ok) {
          checked++
          expect(printOql(sorted(parsed.oqo))).toBe(text)
        }
      }),
      { numRuns: 300 },
    )
    // Every printed OQO parses (the first property), so every run reaches the comparison.
    expect(checked).toBe(300)
  })

  it('OQO → URL → OQO is the identity whenever a URL exists', () => {
    // URL-shaped OQOs, so most runs have a URL to read back (any OQO has one less than half the time).
    let checked = 0
    fc.assert(
      fc.property(urlShapedOqoArbitrary(), (oqo) => {
        const canonical = sorted(oqo)
        const url = oqoToUrl(canonical)
        if (url.url === null) return
        checked++
        const back = urlToOqo(url.url)
        expect(back.ok ? sorted(back.oqo) : back.errors, url.url).toEqual(canonical)
      }),
      { numRuns: 500 },
    )
    expect(checked, 'runs that had a URL to read back (about 390)').toBeGreaterThanOrEqual(340)
  })
})
