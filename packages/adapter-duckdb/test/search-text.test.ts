// The pure parts of search: the Porter stemmer, the tokenizer, and the checks `compileSearch` makes before it
// writes any SQL (wildcard limits, proximity, fields), which come back as problems, not exceptions.
import { describe, expect, it } from 'vitest'
import { porterStem } from '../src/search/porter-stemmer.ts'
import { compileSearch } from '../src/search/search-compiler.ts'
import type { SearchEntityIndex } from '../src/search/search-index-layout.ts'
import { prefixEnd } from '../src/search/search-plan.ts'
import {
  allOf,
  not,
  phrase,
  proximity,
  type SearchNode,
  type SearchProblemCode,
  type SearchQuery,
  word,
} from '../src/search/search-query.ts'
import { exactTokens, queryTokens, stemmedTokens } from '../src/search/search-tokenizer.ts'

describe('porterStem', () => {
  // Examples from Porter's paper (each run through the whole algorithm) and common title words.
  const cases: Record<string, string> = {
    caresses: 'caress',
    ponies: 'poni',
    ties: 'ti',
    caress: 'caress',
    cats: 'cat',
    feed: 'feed',
    agreed: 'agre',
    plastered: 'plaster',
    bled: 'bled',
    motoring: 'motor',
    sing: 'sing',
    conflated: 'conflat',
    troubled: 'troubl',
    sized: 'size',
    hopping: 'hop',
    tanned: 'tan',
    falling: 'fall',
    hissing: 'hiss',
    fizzed: 'fizz',
    failing: 'fail',
    filing: 'file',
    happy: 'happi',
    sky: 'sky',
    relational: 'relat',
    conditional: 'condit',
    rational: 'ration',
    valenci: 'valenc',
    hesitanci: 'hesit',
    digitizer: 'digit',
    conformabli: 'conform',
    radicalli: 'radic',
    differentli: 'differ',
    vileli: 'vile',
    analogousli: 'analog',
    vietnamization: 'vietnam',
    predication: 'predic',
    operator: 'oper',
    feudalism: 'feudal',
    decisiveness: 'decis',
    hopefulness: 'hope',
    callousness: 'callous',
    formaliti: 'formal',
    sensitiviti: 'sensit',
    sensibiliti: 'sensibl',
    triplicate: 'triplic',
    formative: 'form',
    formalize: 'formal',
    electriciti: 'electr',
    electrical: 'electr',
    hopeful: 'hope',
    goodness: 'good',
    revival: 'reviv',
    allowance: 'allow',
    inference: 'infer',
    airliner: 'airlin',
    gyroscopic: 'gyroscop',
    adjustable: 'adjust',
    defensible: 'defens',
    irritant: 'irrit',
    replacement: 'replac',
    adjustment: 'adjust',
    dependent: 'depend',
    adoption: 'adopt',
    homologou: 'homolog',
    communism: 'commun',
    activate: 'activ',
    angulariti: 'angular',
    homologous: 'homolog',
    effective: 'effect',
    bowdlerize: 'bowdler',
    probate: 'probat',
    rate: 'rate',
    cease: 'ceas',
    controlling: 'control',
    rolling: 'roll',
    generalizations: 'gener',
    oscillators: 'oscil',
    studies: 'studi',
    study: 'studi',
    networks: 'network',
    learning: 'learn',
    climate: 'climat',
    climates: 'climat',
    change: 'chang',
    changing: 'chang',
    biology: 'biologi',
    biological: 'biolog',
  }
  it.each(Object.entries(cases))('%s → %s', (input, stem) => {
    expect(porterStem(input)).toBe(stem)
  })

  it('leaves short words, numbers, mixed and non-Latin tokens alone', () => {
    for (const token of ['as', 'is', '2020', 'covid19', '3xtg', 'łodz', 'straße', '東京大学', 'ωmega']) {
      expect(porterStem(token)).toBe(token)
    }
  })

  it('maps singular and plural to one stem, and is idempotent on the stems of this list', () => {
    expect(porterStem('network')).toBe(porterStem('networks'))
    expect(porterStem('woman')).not.toBe(porterStem('women'))
    for (const stem of ['cat', 'caress', 'network', 'learn']) expect(porterStem(stem)).toBe(stem)
  })
})

describe('tokenizer', () => {
  it('lower-cases, folds accents, deletes apostrophes and splits on everything else', () => {
    expect(exactTokens("Café au lait: O'Brien’s 3xTg-AD mice (ÉCOLE, naïve) Łódź")).toStrictEqual([
      'cafe',
      'au',
      'lait',
      'obriens',
      '3xtg',
      'ad',
      'mice',
      'ecole',
      'naive',
      'łodz',
    ])
    expect(exactTokens(' -- ; ')).toStrictEqual([])
  })

  it('stems each exact token', () => {
    expect(stemmedTokens('Neural Networks, learning')).toStrictEqual(['neural', 'network', 'learn'])
  })

  it('keeps wildcards inside query tokens only', () => {
    expect(queryTokens('Wom?n "smart phone*" x')).toStrictEqual(['wom?n', 'smart', 'phone*', 'x'])
  })

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
