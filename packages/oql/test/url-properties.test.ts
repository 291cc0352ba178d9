import { canonicalizeOqo } from '@oqlkit/oqo-schema'
import { oqoArbitrary } from '@oqlkit/oqo-schema/testing'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeUrlComponent, encodeUrlComponent, oqoToUrl, urlToOqo } from '../src/url/index.ts'
import { okRows, readSpecJson } from './corpus-fixtures.ts'
import { urlShapedOqoArbitrary } from './url-shaped-oqo.ts'

const corpusUrls = okRows().flatMap((row) => (typeof row.oxurl === 'string' ? [row.oxurl] : []))
const exampleUrls = readSpecJson<string[]>('conformance/api-example-urls.json')
const seedUrls = [...corpusUrls, ...exampleUrls]

// Characters the classic grammar gives a meaning, plus ordinary text, so random strings hit the parsers' edges.
const GRAMMAR_CHARACTERS = [
  ...'abcxyzW123:,|!"+-<>=()~*?&%/._ \t',
  'AND',
  'OR',
  'NOT',
  '%2',
  '%ZZ',
  '%22',
  'é',
  '😀',
]

const grammarText = fc.string({ unit: fc.constantFrom(...GRAMMAR_CHARACTERS), maxLength: 40 })

/** A corpus or example URL with characters inserted, deleted or replaced at random places. */
const mutatedUrl = fc
  .record({
    url: fc.constantFrom(...seedUrls),
    edits: fc.array(
      fc.record({
        kind: fc.constantFrom('insert', 'delete', 'replace'),
        at: fc.nat(),
        text: fc.oneof(fc.constantFrom(...GRAMMAR_CHARACTERS), fc.string({ maxLength: 3 })),
      }),
      { minLength: 1, maxLength: 4 },
    ),
  })
  .map(({ url, edits }) =>
    edits.reduce((text, { kind, at, text: piece }) => {
      const position = text.length === 0 ? 0 : at % (text.length + 1)
      if (kind === 'insert') return text.slice(0, position) + piece + text.slice(position)
      if (kind === 'delete') return text.slice(0, position) + text.slice(position + 1)
      return text.slice(0, position) + piece + text.slice(position + 1)
    }, url),
  )

const expectNoThrowAndWellFormed = (input: string): void => {
  const result = urlToOqo(input)
  if (result.ok) return
  expect(result.errors.length).toBeGreaterThan(0)
  for (const error of result.errors) {
    expect(error.severity).toBe('error')
    expect(error.message.length).toBeGreaterThan(0)
  }
}

describe('OQO → URL → OQO', () => {
  it('is the identity on the sorted canonical form whenever a URL exists', () => {
    let written = 0
    let runs = 0
    fc.assert(
      fc.property(oqoArbitrary(), (oqo) => {
        runs++
        const canonical = canonicalizeOqo(oqo, { sortOperands: true })
        const result = oqoToUrl(oqo)
        if (result.url === null) {
          // Every refusal names a §6.3 construct: the writer's own rules cover every OQO of the arbitrary,
          // so the read-back safety net never has to catch one.
          expect(result.warning.reason).not.toBe('read_back_mismatch')
          return
        }
        written++
        const back = urlToOqo(result.url)
        expect(back.ok ? back.oqo : back.errors).toEqual(canonical)
      }),
      { numRuns: 1000 },
    )
    // Most random OQOs mix columns under an OR or negate a comparison; a good share must still get a URL.
    expect(written / runs).toBeGreaterThan(0.3)
  })

  it('writes the same URL for an OQO and its canonical form', () => {
    fc.assert(
      fc.property(oqoArbitrary(), (oqo) => {
        expect(oqoToUrl(oqo)).toEqual(oqoToUrl(canonicalizeOqo(oqo, { sortOperands: true })))
      }),
      { numRuns: 200 },
    )
  })
})

describe('urlToOqo never throws', () => {
  it('on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), expectNoThrowAndWellFormed), { numRuns: 1000 })
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 80 }), expectNoThrowAndWellFormed), {
      numRuns: 500,
    })
  })

  it('on strings made of the grammar’s own characters, in any position of a list URL', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('works', 'authors', 'sources', 'work-types'),
        fc.constantFrom(
          'filter=',
          'filter=type:',
          'filter=title_and_abstract.search:',
          'search=',
          'group_by=',
          '',
        ),
        grammarText,
        (entity, parameter, text) => {
          expectNoThrowAndWellFormed(`https://api.openalex.org/${entity}?${parameter}${text}`)
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('on mutations of the corpus and example URLs', () => {
    fc.assert(fc.property(mutatedUrl, expectNoThrowAndWellFormed), { numRuns: 2000 })
  })

  it('and what it reads writes back to the same query, or to no URL', () => {
    // Most mutated URLs do not read (about one in seven does), so they are one draw in four; the others are
    // the corpus and example URLs as they are, and URLs written for URL-shaped OQOs.
    const readable = fc.oneof(
      { weight: 1, arbitrary: mutatedUrl },
      { weight: 1, arbitrary: fc.constantFrom(...seedUrls) },
      {
        weight: 2,
        arbitrary: urlShapedOqoArbitrary().map(
          (oqo) => oqoToUrl(oqo).url ?? `https://openalex.org/${oqo.get_rows}`,
        ),
      },
    )
    let checked = 0
    fc.assert(
      fc.property(readable, (url) => {
        const result = urlToOqo(url)
        if (!result.ok) return
        const written = oqoToUrl(result.oqo)
        if (written.url === null) return
        checked++
        const again = urlToOqo(written.url)
        expect(again.ok ? again.oqo : again.errors).toEqual(result.oqo)
      }),
      { numRuns: 2000 },
    )
    expect(checked, 'runs that read a query and wrote a URL for it (about 1,450)').toBeGreaterThanOrEqual(
      1200,
    )
  })
})

describe('percent-encoding', () => {
  it('decodes what it encodes, and leaves the grammar characters literal', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const encoded = encodeUrlComponent(text)
        expect(encoded).toMatch(/^[A-Za-z0-9_.\-~:|,!<>=*()/%]*$/)
        expect(decodeUrlComponent(encoded)).toBe(text)
      }),
    )
  })
})
