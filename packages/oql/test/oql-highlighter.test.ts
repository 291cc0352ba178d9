import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { highlightOql, type OqlHighlightRole } from '../src/index.ts'

// Highlighting reads the text with the parser's own lexer and grammar: each token gets the role the
// query gives it, on complete and incomplete text alike.

/** `text:role` for every span, in order, so a table reads like the query. */
const roles = (text: string): string[] =>
  highlightOql(text).map((span) => `${text.slice(span.start, span.end)}:${span.role}`)

const TABLE: readonly (readonly [string, readonly string[]])[] = [
  ['works where year is 2020', ['works:entity', 'where:keyword', 'year:field', 'is:operator', '2020:number']],
  [
    'works where type is (article or "book") and not is_oa is true',
    [
      'works:entity',
      'where:keyword',
      'type:field',
      'is:operator',
      '(:punctuation',
      'article:value',
      'or:connective',
      '"book":string',
      '):punctuation',
      'and:connective',
      'not:keyword',
      'is_oa:field',
      'is:operator',
      'true:value',
    ],
  ],
  [
    'works where institution is I136199984 [Harvard]',
    [
      'works:entity',
      'where:keyword',
      'institution:field',
      'is:operator',
      'I136199984:id',
      '[Harvard]:annotation',
    ],
  ],
  // The same word is a field after `where` and a search term after `has`.
  [
    'works where title has title',
    ['works:entity', 'where:keyword', 'title:field', 'has:operator', 'title:value'],
  ],
  [
    'works where abstract has within 3 (deep, learning) or title has stemmed "neural nets"',
    [
      'works:entity',
      'where:keyword',
      'abstract:field',
      'has:operator',
      'within:keyword',
      '3:number',
      '(:punctuation',
      'deep:value',
      ',:punctuation',
      'learning:value',
      '):punctuation',
      'or:connective',
      'title:field',
      'has:operator',
      'stemmed:keyword',
      '"neural nets":string',
    ],
  ],
  [
    'works (all corpora) where it cites W2741809807',
    [
      'works:entity',
      '(:corpus',
      'all:corpus',
      'corpora:corpus',
      '):corpus',
      'where:keyword',
      'it:verb',
      'cites:verb',
      'W2741809807:id',
    ],
  ],
  [
    'works where year > 2000 group by year, type sample 10 seed abc;',
    [
      'works:entity',
      'where:keyword',
      'year:field',
      '>:operator',
      '2000:number',
      'group:directive',
      'by:directive',
      'year:field',
      ',:punctuation',
      'type:field',
      'sample:directive',
      '10:number',
      'seed:directive',
      'abc:value',
      ';:punctuation',
    ],
  ],
  // Text the grammar cannot place is an error (the rest of a clause it skipped is left plain), while the
  // rest keeps its roles.
  [
    'works where yaer is 2020 and title contains x',
    [
      'works:entity',
      'where:keyword',
      'yaer:error',
      'and:connective',
      'title:field',
      'contains:error',
      'x:value',
    ],
  ],
  ['wroks where year is 2020', ['wroks:error']],
  // Incomplete text, as it is typed.
  ['works where ye', ['works:entity', 'where:keyword', 'ye:error']],
  [
    'works where year is (2020 or ',
    [
      'works:entity',
      'where:keyword',
      'year:field',
      'is:operator',
      '(:punctuation',
      '2020:number',
      'or:connective',
    ],
  ],
  [
    'works where title has "climate ch',
    ['works:entity', 'where:keyword', 'title:field', 'has:operator', '"climate ch:string'],
  ],
  [
    'works where institution is I27 [Harv',
    ['works:entity', 'where:keyword', 'institution:field', 'is:operator', 'I27:id', '[Harv:annotation'],
  ],
  ['', []],
  ['   ', []],
]

describe('highlightOql', () => {
  it.each(TABLE)('%s', (text, expected) => {
    expect(roles(text)).toEqual(expected)
  })

  it('keeps typographic quotes at their offsets', () => {
    const text = 'works where title has \u201Cclimate\u201D'
    const last = highlightOql(text).at(-1)
    expect(last).toEqual({ start: 22, end: text.length, role: 'string' })
  })

  it('gives ordered, non-overlapping spans inside the text for any input, and never throws', () => {
    const pieces = fc.constantFrom(
      'works',
      'where',
      'year',
      'is',
      'not',
      'and',
      'or',
      '(',
      ')',
      '"',
      '[',
      ']',
      'title',
      'has',
      'type',
      'article',
      '2020',
      ',',
      ';',
      'group',
      'by',
      'sample',
      'within',
      'it',
      'cites',
      '!',
      'x',
      ' ',
      '\n',
    )
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 24 }), (parts) => {
        const text = parts.join(' ')
        const spans = highlightOql(text)
        let previous = 0
        for (const span of spans) {
          expect(span.start).toBeGreaterThanOrEqual(previous)
          expect(span.end).toBeGreaterThan(span.start)
          expect(span.end).toBeLessThanOrEqual(text.length)
          expect(text.slice(span.start, span.end).trim()).not.toBe('')
          previous = span.end
        }
      }),
      { numRuns: 400 },
    )
  })

  it('answers a non-string with no spans', () => {
    expect(highlightOql(undefined as unknown as string)).toEqual([])
  })

  it('uses only its documented roles', () => {
    const known: readonly OqlHighlightRole[] = [
      'entity',
      'corpus',
      'keyword',
      'field',
      'verb',
      'operator',
      'value',
      'annotation',
      'connective',
      'punctuation',
      'string',
      'number',
      'id',
      'directive',
      'error',
    ]
    for (const [query] of TABLE) for (const span of highlightOql(query)) expect(known).toContain(span.role)
  })
})
