// The text side of search: the Porter stemmer and the tokenizer that query words and the text models go
// through. (The index's SQL tokenizer is checked against this one in adapter-duckdb's search-sample test.)
import { describe, expect, it } from 'vitest'
import { porterStem } from '../src/tokenizer/porter-stemmer.ts'
import { exactTokens, queryTokens, stemmedTokens } from '../src/tokenizer/search-tokenizer.ts'

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
})
