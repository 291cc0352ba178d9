// The shared text features: terms, the vocabulary cut, TF-IDF weights, serialisation, abstracts rebuilt from
// their inverted index, and the bounded seeded sample of works a model trains on.
import { describe, expect, it } from 'vitest'
import { lowestKeyRows } from '../src/text-model/bounded-sample.ts'
import { textFromInvertedIndex } from '../src/text-model/inverted-index-text.ts'
import { seededIdFraction } from '../src/text-model/seeded-id-fraction.ts'
import { sparseDot } from '../src/text-model/sparse-term-vector.ts'
import { TermVectorizer, TermVectorizerFormatError } from '../src/text-model/term-vectorizer.ts'
import { TermVocabularyBuilder } from '../src/text-model/term-vocabulary-builder.ts'
import { textTerms } from '../src/text-model/text-terms.ts'

const corpus = [
  'Neural networks for protein folding',
  'Protein structure prediction with deep neural networks',
  'Soil bacteria and nitrogen fixation in farms',
  'Nitrogen cycling by soil microbes',
  'Deep learning of protein structure',
  'The economics of farms and soil erosion',
]

function fitted(options = {}): TermVectorizer {
  const builder = new TermVocabularyBuilder()
  for (const text of corpus) builder.addDocument(textTerms(text))
  return builder.build(options)
}

describe('textTerms', () => {
  it('stems, folds accents and case, drops apostrophes and one-character tokens', () => {
    expect(textTerms("Children's Networks in Łódź: a 3-D study")).toEqual([
      'children',
      'network',
      'in',
      'łodz',
      'studi',
    ])
  })
})

describe('TermVocabularyBuilder', () => {
  it('counts each term once per document and orders ids by document frequency, then term', () => {
    const vectorizer = fitted({ minDocumentFrequency: 1, maxDocumentShare: 1 })
    expect(vectorizer.documentCount).toBe(6)
    // protein: 3 documents; soil: 3; deep, farm, network, neural, nitrogen, structur: 2.
    expect([0, 1, 2, 3].map((id) => vectorizer.term(id))).toEqual(['protein', 'soil', 'and', 'deep'])
    expect(vectorizer.documentFrequency(vectorizer.termId('protein')!)).toBe(3)
  })

  it('cuts terms below the minimum document frequency, above the maximum share, and beyond the size', () => {
    const vectorizer = fitted({ minDocumentFrequency: 2, maxDocumentShare: 0.4 })
    expect(vectorizer.termId('fold')).toBeUndefined() // in one document
    expect(vectorizer.termId('protein')).toBeUndefined() // in 3 of 6 > 40%
    expect(vectorizer.termId('network')).toBeDefined()
    expect(fitted({ minDocumentFrequency: 1, maxDocumentShare: 1, maxVocabularySize: 3 }).size).toBe(3)
  })

  it('gives the same vocabulary whatever order the documents come in', () => {
    const reversed = new TermVocabularyBuilder()
    for (const text of [...corpus].reverse()) reversed.addDocument(textTerms(text))
    expect(reversed.build().serialize()).toEqual(fitted().serialize())
  })
})

describe('TermVectorizer', () => {
  const vectorizer = fitted({ minDocumentFrequency: 1, maxDocumentShare: 1 })

  it('makes L2-normalised vectors with ascending term ids and ignores unknown terms', () => {
    const vector = vectorizer.vectorize('Protein protein folding of zebrafish')
    expect([...vector.termIds]).toEqual([...vector.termIds].sort((a, b) => a - b))
    expect(vector.termIds.length).toBe(3) // protein, fold, of (zebrafish is unknown)
    expect(sparseDot(vector, vector)).toBeCloseTo(1, 5)
  })

  it('weighs rare terms over common ones and repeats sublinearly', () => {
    const vector = vectorizer.vectorize('protein folding')
    const weightOf = (term: string) => vector.weights[[...vector.termIds].indexOf(vectorizer.termId(term)!)]!
    expect(weightOf('fold')).toBeGreaterThan(weightOf('protein'))
    const repeated = vectorizer.vectorize('protein protein protein protein folding')
    const idf = (term: string) => vectorizer.idf(vectorizer.termId(term)!)
    const ratio =
      repeated.weights[[...repeated.termIds].indexOf(vectorizer.termId('protein')!)]! /
      repeated.weights[[...repeated.termIds].indexOf(vectorizer.termId('fold')!)]!
    expect(ratio).toBeCloseTo(((1 + Math.log(4)) * idf('protein')) / idf('fold'), 5)
  })

  it('scores related texts closer than unrelated ones', () => {
    const query = vectorizer.vectorize('deep neural networks predict protein structure')
    expect(sparseDot(query, vectorizer.vectorize(corpus[1]!))).toBeGreaterThan(
      sparseDot(query, vectorizer.vectorize(corpus[3]!)),
    )
  })

  it('gives an empty vector for text with no known term', () => {
    const vector = vectorizer.vectorize('zebrafish 🙂')
    expect(vector.termIds.length).toBe(0)
    expect(vector.weights.length).toBe(0)
  })

  it('round-trips through its binary form, also from an unaligned slice', () => {
    const bytes = vectorizer.serialize()
    const padded = new Uint8Array(bytes.length + 3)
    padded.set(bytes, 3)
    const restored = TermVectorizer.deserialize(padded.subarray(3))
    expect(restored.size).toBe(vectorizer.size)
    expect(restored.documentCount).toBe(6)
    const text = 'Soil nitrogen and deep protein networks'
    expect(restored.vectorize(text)).toEqual(vectorizer.vectorize(text))
    expect(restored.serialize()).toEqual(bytes)
  })

  it('rejects bytes that are not a vectoriser', () => {
    expect(() => TermVectorizer.deserialize(new Uint8Array(4))).toThrow(TermVectorizerFormatError)
    expect(() => TermVectorizer.deserialize(new Uint8Array(32))).toThrow(/bad magic/)
    const bytes = vectorizer.serialize()
    expect(() => TermVectorizer.deserialize(bytes.subarray(0, 20))).toThrow(/truncated/)
  })
})

describe('textFromInvertedIndex', () => {
  it('lays words at their positions and skips gaps', () => {
    expect(textFromInvertedIndex({ world: [1], Hello: [0], again: [4], hello: [3] })).toBe(
      'Hello world hello again',
    )
  })

  it('is empty for null, arrays and non-objects, and ignores bad positions', () => {
    expect(textFromInvertedIndex(null)).toBe('')
    expect(textFromInvertedIndex([1, 2])).toBe('')
    expect(textFromInvertedIndex('text')).toBe('')
    expect(textFromInvertedIndex({ ok: [0], bad: [-1, 1.5, 1e9], odd: 'x' })).toBe('ok')
  })
})

describe('lowestKeyRows: the bounded sample a model trains on', () => {
  it('picks the rows of the lowest keys, ascending by row, ties to the lower row', () => {
    const keys = [0.9, 0.1, 0.5, 0.1, 0.3, 0.7]
    expect([...lowestKeyRows(keys, 3)]).toEqual([1, 3, 4])
    expect([...lowestKeyRows(keys, 1)]).toEqual([1])
    expect([...lowestKeyRows(keys, 0)]).toEqual([])
  })

  it('never picks a row whose key is not a finite number, and takes every other when they are few', () => {
    const keys = [0.4, Number.NaN, 0.2, Number.POSITIVE_INFINITY, 0.6]
    expect([...lowestKeyRows(keys, 10)]).toEqual([0, 2, 4])
    expect([...lowestKeyRows(keys, 2)]).toEqual([0, 2])
  })

  it('picks the same rows whatever else is added past them in key order, and exactly as many as asked', () => {
    const keys = Array.from({ length: 10_000 }, (_, row) => seededIdFraction(`W${row}`, 1))
    const picked = lowestKeyRows(keys, 500)
    expect(picked).toHaveLength(500)
    const more = lowestKeyRows([...keys, ...Array.from({ length: 1000 }, () => 0.999_999_9)], 500)
    expect([...more]).toEqual([...picked])
    const threshold = Math.max(...[...picked].map((row) => keys[row]!))
    expect(keys.filter((key) => key <= threshold)).toHaveLength(500)
  })

  it('refuses a negative size', () => {
    expect(() => lowestKeyRows([0.5], -1)).toThrow(RangeError)
  })
})
