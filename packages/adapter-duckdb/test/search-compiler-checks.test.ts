// The pure parts of the DuckDB search compiler: the prefix range of a wildcard, and the checks `compileSearch`
// makes before it writes any SQL (wildcard limits, proximity, fields), which come back as problems, not
// exceptions. (The stemmer and tokenizer are tested in @oqlkit/text-models.)

import type { SearchEntityIndex } from '@oqlkit/catalog'
import {
  allOf,
  not,
  phrase,
  prefixEnd,
  proximity,
  type SearchNode,
  type SearchProblemCode,
  type SearchQuery,
  word,
} from '@oqlkit/catalog'
import { describe, expect, it } from 'vitest'
import { compileSearch } from '../src/search/search-compiler.ts'

describe('prefixEnd', () => {
  it('gives the first string past a prefix range', () => {
    expect(prefixEnd('abc')).toBe('abd')
    expect(prefixEnd('caf\u00e9')).toBe('caf\u00ea')
    expect(prefixEnd('a\ud7ff')).toBe('a\ue000')
  })
})

describe('compileSearch problems', () => {
  // An index's files and statistics as the manifest records them; these tests never run the SQL.
  const INDEX: SearchEntityIndex = {
    docs: 2,
    idPrefix: 'W',
    fields: [{ name: 'display_name', code: 0, docs: 2, tokens: 6, avgLength: 3 }],
    files: {
      docs: 'search/works/docs.parquet',
      docStats: 'search/works/doc-stats.parquet',
      fieldStats: 'search/works/field-stats.parquet',
      exact: {
        postings: ['search/works/exact-postings/00000.parquet'],
        bounds: [''],
        terms: 'search/works/exact-terms.parquet',
        frequent: { the: 2 },
      },
      stemmed: {
        postings: ['search/works/stemmed-postings/00000.parquet'],
        bounds: [''],
        terms: 'search/works/stemmed-terms.parquet',
        frequent: { the: 2 },
      },
    },
    terms: { exact: 4, stemmed: 4 },
  }
  const query = (match: SearchNode, overrides: Partial<SearchQuery> = {}): SearchQuery => ({
    entity: 'works',
    field: 'display_name',
    mode: 'exact',
    match,
    ...overrides,
  })
  const problemCodes = (q: SearchQuery): SearchProblemCode[] => {
    const result = compileSearch(q, { catalogDir: '/nowhere', index: INDEX })
    return result.ok ? [] : result.problems.map((problem) => problem.code)
  }

  it.each<[string, SearchQuery, SearchProblemCode]>([
    ['a wildcard in stemmed mode', query(word('bar*'), { mode: 'stemmed' }), 'wildcard-needs-exact'],
    ['a leading *', query(word('*cycle')), 'leading-wildcard'],
    ['a leading ?', query(word('?cycle')), 'leading-wildcard'],
    ['fewer than 3 letters before *', query(word('ab*')), 'short-wildcard-prefix'],
    ['two wildcards with a short prefix', query(phrase('pro* pre*')), 'multi-wildcard-short-prefix'],
    ['three wildcards', query(proximity(3, 'prot*', 'pret*', 'abcd*')), 'too-many-wildcards'],
    ['one proximity operand', query(proximity(3, 'smart')), 'bad-proximity'],
    ['a fractional window', query(proximity(1.5, 'smart', 'phone')), 'bad-proximity'],
    ['a window past the segment gap', query(proximity(5000, 'smart', 'phone')), 'bad-proximity'],
    ['an unknown works field', query(word('x'), { field: 'text' }), 'unknown-field'],
    ['an unknown author field', query(word('x'), { entity: 'authors', field: 'abstract' }), 'unknown-field'],
    ['a term without letters', query(allOf(word('climate'), not(word('!!!')))), 'empty-term'],
    ['an empty group', query(allOf()), 'empty-group'],
    ['a zero boost', query(word('x', 0)), 'bad-boost'],
  ])('rejects %s', (_, q, code) => {
    expect(problemCodes(q)).toStrictEqual([code])
  })

  it.each<[string, SearchQuery]>([
    ['a ? wildcard', query(word('wom?n'))],
    ['a 3-letter prefix', query(word('bar*'))],
    ['two wildcards with 4-letter prefixes', query(proximity(3, 'prot*', 'pret*'))],
    ['a stemmed phrase', query(phrase('whopper junior'), { mode: 'stemmed' })],
    ['exact search on a non-works entity', query(word('smith'), { entity: 'authors', field: 'text' })],
  ])('accepts %s', (_, q) => {
    expect(problemCodes(q)).toStrictEqual([])
  })

  it('binds every query word as a parameter and numbers parameters from firstParam', () => {
    const result = compileSearch(query(phrase("O'Brien; DROP TABLE x; --")), {
      catalogDir: '/c',
      index: INDEX,
      firstParam: 4,
    })
    if (!result.ok) throw new Error('expected SQL')
    expect(result.sql).not.toMatch(/brien|drop|;/i)
    expect(result.params).toContain('obrien')
    expect(result.params).toContain('drop')
    expect(result.sql).toContain('$4')
    expect(result.sql).not.toMatch(/\$[123]\b/)
  })
})
