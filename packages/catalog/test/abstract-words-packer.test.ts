// A work's abstract packed as its words: every record comes back byte for byte, packed or not; the sample's
// real works with an abstract are packed (and smaller), in compact JSON and as Python writes it; and an
// inverted index the words cannot give back exactly is stored as it came.

import { sampleSnapshotLines } from '@oqlkit/ingest/test-support'
import { describe, expect, it } from 'vitest'
import {
  packAbstractWords,
  unpackAbstractWords,
  withoutAbstractWords,
} from '../src/records/abstract-words-packer.ts'

const roundTrip = (json: string) => Buffer.from(unpackAbstractWords(packAbstractWords(json))).toString('utf8')
const isPacked = (json: string) => packAbstractWords(json)[0] === 0x01

describe('packAbstractWords', () => {
  it('gives back every sample work byte for byte and packs those with an abstract', () => {
    const works = sampleSnapshotLines('works')
    const withAbstract = works.filter((work) => /"abstract_inverted_index":\{/.test(work))
    expect(withAbstract.length).toBeGreaterThan(100)
    for (const work of works) expect(roundTrip(work)).toBe(work)
    const packed = withAbstract.filter(isPacked)
    expect(packed.length).toBeGreaterThan(withAbstract.length * 0.8)
    const bytes = (list: readonly string[], measure: (work: string) => number) =>
      list.reduce((sum, work) => sum + measure(work), 0)
    expect(bytes(packed, (work) => packAbstractWords(work).length)).toBeLessThan(
      bytes(packed, (work) => Buffer.byteLength(work)) * 0.95,
    )
  })

  it('packs an abstract written as Python writes JSON: spaced, non-ASCII escaped', () => {
    const json =
      '{"id": "https://openalex.org/W1", "abstract_inverted_index": {"Caf\\u00e9": [0, 2], "au": [1], "\\"lait\\"": [3], "\\ud83d\\ude00": [4]}, "cited_by_count": 3}'
    expect(isPacked(json)).toBe(true)
    expect(roundTrip(json)).toBe(json)
    const unescaped = '{"abstract_inverted_index":{"Café":[0,2],"au":[1],"2020":[3]},"x":null}'
    expect(isPacked(unescaped)).toBe(true)
    expect(roundTrip(unescaped)).toBe(unescaped)
  })

  it('keeps escapes as they are written, packed', () => {
    const json = '{"abstract_inverted_index":{"a\\u0000":[0],"\\"":[1],"\\\\":[2],"a\\u0020b":[3]}}'
    expect(isPacked(json)).toBe(true)
    expect(roundTrip(json)).toBe(json)
  })

  it('packs keys in the order JavaScript keeps them and positions no word holds', () => {
    // JSON.stringify of a parsed record puts whole-number keys first: the sample's works went through it.
    const javascript = JSON.stringify({
      abstract_inverted_index: JSON.parse('{"in":[0],"2020":[1],"7":[3],"we":[2]}'),
    })
    expect(javascript).toBe('{"abstract_inverted_index":{"7":[3],"2020":[1],"in":[0],"we":[2]}}')
    const holes = '{"abstract_inverted_index":{"a":[0,4],"b":[2]},"n":1}'
    for (const json of [javascript, holes]) {
      expect(isPacked(json)).toBe(true)
      expect(roundTrip(json)).toBe(json)
    }
  })

  it.each([
    ['no abstract', '{"id":"W1","abstract_inverted_index":null}'],
    ['an empty index', '{"abstract_inverted_index":{}}'],
    ['a position past the text', '{"abstract_inverted_index":{"a":[0],"b":[5000]}}'],
    ['a position held twice', '{"abstract_inverted_index":{"a":[0,1],"b":[1]}}'],
    ['keys out of first-occurrence order', '{"abstract_inverted_index":{"b":[1],"a":[0]}}'],
    ['a word holding a space', '{"abstract_inverted_index":{"a b":[0]}}'],
    ['a leading zero', '{"abstract_inverted_index":{"a":[00]}}'],
    ['separators of two styles', '{"abstract_inverted_index": {"a": [0],"b": [1]}}'],
    ['a fraction', '{"abstract_inverted_index":{"a":[0.5]}}'],
    ['a nested object', '{"abstract_inverted_index":{"a":{"b":[0]}}}'],
    ['a key not closed', '{"abstract_inverted_index":{"\\"}'],
    ['text cut short', '{"abstract_inverted_index":{"a":[0'],
  ])('stores %s as it came', (_, json) => {
    expect(isPacked(json)).toBe(false)
    expect(packAbstractWords(json).toString('utf8')).toBe(json)
    expect(roundTrip(json)).toBe(json)
  })

  it('gives back random abstracts in every spelling, and their mutations, byte for byte', () => {
    // A seeded generator: the same cases every run.
    let seed = 20261127
    const next = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed % below
    }
    const alphabet = ['a', 'b', 'Z', '1', '0', '"', '\\', 'é', '😀', '\n', '\u007f', '-', '.', ' ']
    let packed = 0
    for (let round = 0; round < 400; round++) {
      const vocabulary = Array.from({ length: 1 + next(12) }, () =>
        Array.from({ length: next(4) }, () => alphabet[next(alphabet.length)]).join(''),
      )
      const words = Array.from({ length: 1 + next(30) }, () => vocabulary[next(vocabulary.length)]!)
      const spaced = next(2) === 1
      const escaped = next(2) === 1
      const order = [...new Set(words)]
      if (next(5) === 0) order.reverse()
      const key = (word: string) => {
        const text = JSON.stringify(word)
        return escaped
          ? text.replace(
              /[\u007f-\uffff]/g,
              (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
            )
          : text
      }
      const comma = spaced ? ', ' : ','
      const colon = spaced ? ': ' : ':'
      const entries = order.map((word) => {
        const at = words.flatMap((each, index) => (each === word ? [index] : []))
        if (next(20) === 0) at.pop()
        return `${key(word)}${colon}[${at.join(comma)}]`
      })
      const json = `{"id"${colon}"W${round}"${comma}"abstract_inverted_index"${colon}{${entries.join(comma)}}${comma}"n"${colon}${round}}`
      expect(roundTrip(json)).toBe(json)
      if (isPacked(json)) packed++
    }
    // Most are packable (no space in a word, keys in an order it writes); the rest are kept as they came.
    expect(packed).toBeGreaterThan(100)
    expect(packed).toBeLessThan(400)
  })
})

describe('unpackAbstractWords on a damaged record', () => {
  it('throws on a header cut short or holding other bytes, rather than reading past its end', () => {
    const packed = packAbstractWords(
      JSON.stringify({ id: 'W1', abstract_inverted_index: { deep: [0], learning: [1, 3], again: [2] } }),
    )
    expect(packed[0]).toBe(1)
    const headerEnd = packed.indexOf(1, 1)
    for (const damaged of [
      packed.subarray(0, 4),
      packed.subarray(0, headerEnd - 1),
      Buffer.from('\u00010x,y'),
    ])
      expect(() => unpackAbstractWords(damaged)).toThrow(/damaged header/)
  })
})

describe('withoutAbstractWords', () => {
  it('gives every sample work as JSON with the same fields, its abstract null where it was packed', () => {
    const works = sampleSnapshotLines('works')
    let packed = 0
    for (const work of works) {
      const record = JSON.parse(work) as Record<string, unknown>
      const stored = packAbstractWords(work)
      const read = JSON.parse(Buffer.from(withoutAbstractWords(stored)).toString('utf8')) as Record<
        string,
        unknown
      >
      if (stored[0] === 0x01) {
        packed++
        expect(read).toEqual({ ...record, abstract_inverted_index: null })
        // The same fields in the same order: a select picks them as from the whole record.
        expect(Object.keys(read)).toEqual(Object.keys(record))
      } else expect(read).toEqual(record)
    }
    expect(packed).toBeGreaterThan(100)
  })

  it('gives a Python-spaced record valid JSON too', () => {
    const json =
      '{"id": "https://openalex.org/W1", "abstract_inverted_index": {"a": [0], "b": [1]}, "cited_by_count": 3}'
    expect(JSON.parse(Buffer.from(withoutAbstractWords(packAbstractWords(json))).toString('utf8'))).toEqual({
      id: 'https://openalex.org/W1',
      abstract_inverted_index: null,
      cited_by_count: 3,
    })
  })
})
