import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { OqlDiagnostic } from '../src/diagnostics/index.ts'
import { type ParseContext, parseContext, parseOql, validateOql } from '../src/parser/index.ts'
import { corpusRows } from './corpus-fixtures.ts'

// The parser returns on every string: a result, never an exception or a hang. Diagnostics always
// point inside the text.

const CONTEXT_STATES: ReadonlySet<ParseContext['state']> = new Set([
  'entity',
  'after-entity',
  'corpus',
  'field',
  'verb-phrase',
  'operator',
  'value',
  'search-term',
  'connective',
  'group-by-field',
  'sample-size',
  'seed',
  'directive',
  'none',
])

const checkDiagnostic = (text: string, diagnostic: OqlDiagnostic): void => {
  expect(Number.isInteger(diagnostic.position)).toBe(true)
  expect(diagnostic.span.start).toBe(diagnostic.position)
  expect(diagnostic.span.start).toBeGreaterThanOrEqual(0)
  expect(diagnostic.span.end).toBeGreaterThanOrEqual(diagnostic.span.start)
  expect(diagnostic.span.end).toBeLessThanOrEqual(text.length)
  expect(diagnostic.message.endsWith(diagnostic.fix)).toBe(true)
  // The catch-all is for nesting too deep to parse; anything else would be a parser bug caught by the safety net.
  if (diagnostic.code === 'OQL_PARSE_ERROR') expect(diagnostic.message).toContain('nest')
}

/** Everything the parser offers, on one text: none of it may throw, and all of it must be well formed. */
const exercise = (text: string): void => {
  const result = parseOql(text)
  if (result.ok) expect(typeof result.oqo.get_rows).toBe('string')
  else {
    expect(result.diagnostics.length).toBeGreaterThan(0)
    for (const diagnostic of result.diagnostics) checkDiagnostic(text, diagnostic)
  }
  for (const diagnostic of validateOql(text)) checkDiagnostic(text, diagnostic)
}

const corpusTexts = corpusRows()
  .map((row) => row.oql)
  .filter((text): text is string => typeof text === 'string' && text.length > 0)

// Pieces of OQL that mutations splice into corpus strings: the characters and words that steer the grammar.
const PIECES = [
  '(',
  ')',
  '"',
  '[',
  ']',
  ',',
  ';',
  '!',
  '~',
  '|',
  '\\',
  '*',
  '?',
  ' and ',
  ' or ',
  ' not ',
  ' & ',
  ' is ',
  ' is not ',
  ' has ',
  ' does not have ',
  ' >= ',
  ' within 3 ',
  ' stemmed ',
  ' it ',
  " it's ",
  ' the ',
  ' unknown ',
  ' group by ',
  ' sample ',
  ' seed ',
  ' where ',
  '\n',
  '“',
  '’',
  '2019-2023',
  'col_x',
  'W123',
]

type Mutation =
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'delete'; readonly at: number; readonly length: number }
  | { readonly kind: 'replace'; readonly at: number; readonly text: string }
  | { readonly kind: 'drop-token'; readonly at: number }
  | { readonly kind: 'swap-tokens'; readonly at: number }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 3 })),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
  fc.record({
    kind: fc.constant('replace' as const),
    at: fc.nat(),
    text: fc.oneof(fc.constantFrom(...PIECES), fc.string({ minLength: 1, maxLength: 1 })),
  }),
  fc.record({ kind: fc.constant('drop-token' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('swap-tokens' as const), at: fc.nat() }),
)

const applyMutation = (text: string, change: Mutation): string => {
  const at = text.length === 0 ? 0 : change.at % (text.length + 1)
  switch (change.kind) {
    case 'insert':
      return text.slice(0, at) + change.text + text.slice(at)
    case 'delete':
      return text.slice(0, at) + text.slice(at + change.length)
    case 'replace':
      return text.slice(0, at) + change.text + text.slice(at + 1)
    case 'drop-token':
    case 'swap-tokens': {
      const tokens = text.split(/(\s+)/)
      const index = change.at % Math.max(1, tokens.length)
      if (change.kind === 'drop-token') tokens.splice(index, 1)
      else if (index + 2 < tokens.length)
        [tokens[index], tokens[index + 2]] = [tokens[index + 2]!, tokens[index]!]
      return tokens.join('')
    }
  }
}

const mutatedCorpusText = fc
  .tuple(fc.constantFrom(...corpusTexts), fc.array(mutation, { minLength: 1, maxLength: 6 }))
  .map(([text, changes]) => changes.reduce(applyMutation, text))

describe('the parser never throws', () => {
  it('on arbitrary strings', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), exercise), { numRuns: 1000 })
  })

  it('on arbitrary full-Unicode strings (any code point, lone surrogates included)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), exercise), { numRuns: 1000 })
  })

  it('on arbitrary strings that start like a query', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (tail) => exercise(`works where ${tail}`)),
      { numRuns: 1000 },
    )
  })

  it('on mutations of corpus strings (characters and tokens inserted, deleted, replaced)', () => {
    fc.assert(fc.property(mutatedCorpusText, exercise), { numRuns: 2000 })
  })

  it('on sequences of OQL words and punctuation', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...PIECES, 'title', 'year', 'type', 'x', '2020'), { maxLength: 40 }),
        (words) => exercise(`works where ${words.join(' ')}`),
      ),
      { numRuns: 1000 },
    )
  })

  it('on texts that once sent a loop round without reading', () => {
    for (const text of [
      'works where t sample  has (not dog)',
      'works where title/abs group by tract has (va and "x" unknown )]',
      'authors where has ORCI?D is (true) and author countr sample  is (BR [Brazil])',
    ])
      exercise(text)
  })

  it('on deep nesting and long inputs', () => {
    for (const depth of [63, 64, 65, 1000, 20_000]) {
      exercise(`works where ${'('.repeat(depth)}year is 1${')'.repeat(depth)}`)
      exercise(`works where title has ${'('.repeat(depth)}`)
      exercise(`works where ${'not '.repeat(depth)}year is 1`)
    }
    const long = `works where title has (${Array.from({ length: 5000 }, (_, index) => `term${index}`).join(' or ')})`
    const result = parseOql(long)
    expect(result.ok).toBe(true)
    exercise(`works where ${'year is 1 and '.repeat(3000)}year is 2`)
  })

  it('parses nesting up to its limit', () => {
    const nested = (depth: number): string => `works where ${'('.repeat(depth)}year is 1${')'.repeat(depth)}`
    expect(parseOql(nested(63)).ok).toBe(true)
    expect(parseOql(nested(200))).toMatchObject({ ok: false, diagnostics: [{ code: 'OQL_PARSE_ERROR' }] })
  })

  it('answers a non-string with a diagnostic', () => {
    expect(parseOql(undefined as unknown as string)).toMatchObject({
      ok: false,
      diagnostics: [{ code: 'OQL_PARSE_ERROR' }],
    })
    expect(validateOql(42 as unknown as string)).toMatchObject([{ code: 'OQL_PARSE_ERROR' }])
  })
})

describe('parseContext never throws', () => {
  it('at any position of arbitrary and mutated texts', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 80 }), mutatedCorpusText),
        fc.integer({ min: -5, max: 400 }),
        (text, at) => {
          const context = parseContext(text, at)
          expect(CONTEXT_STATES.has(context.state)).toBe(true)
          expect(context.replaceRange.start).toBeLessThanOrEqual(context.replaceRange.end)
          expect(context.replaceRange.end).toBeLessThanOrEqual(text.length)
          expect(text.slice(context.replaceRange.start, context.replaceRange.end)).toBe(context.prefix)
        },
      ),
      { numRuns: 1000 },
    )
  })
})
