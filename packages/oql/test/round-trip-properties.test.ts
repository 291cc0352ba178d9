import { canonicalizeOqo, type Oqo } from '@oqlkit/oqo-schema'
import { oqoArbitrary } from '@oqlkit/oqo-schema/testing'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { oqoToUrl, parseOql, printOql, urlToOqo } from '../src/index.ts'

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
    fc.assert(
      fc.property(oqoArbitrary(), (oqo) => {
        const text = printOql(sorted(oqo))
        const parsed = parseOql(text)
        if (parsed.ok) expect(printOql(sorted(parsed.oqo))).toBe(text)
      }),
      { numRuns: 300 },
    )
  })

  it('OQO → URL → OQO is the identity whenever a URL exists', () => {
    fc.assert(
      fc.property(oqoArbitrary(), (oqo) => {
        const canonical = sorted(oqo)
        const url = oqoToUrl(canonical)
        if (url.url === null) return
        const back = urlToOqo(url.url)
        expect(back.ok ? sorted(back.oqo) : back.errors, url.url).toEqual(canonical)
      }),
      { numRuns: 500 },
    )
  })
})
