// The conformance suite compares records with `expectSameJson`, whose own walk decides before vitest's
// `toEqual` does: it must pass exactly the JSON values that are equal, and fail with `toEqual`'s report
// on every other.
import { describe, expect, it } from 'vitest'
import { expectSameJson } from '../src/testing/json-expectation.ts'

const record = {
  id: 'https://openalex.org/W1',
  title: 'A',
  cited_by_count: 3,
  is_oa: false,
  doi: null,
  authorships: [{ author: { id: 'A1' }, countries: ['FR', 'DE'] }],
}

describe('expectSameJson', () => {
  it('passes equal JSON values, whatever the order of their keys', () => {
    expectSameJson(record, JSON.parse(JSON.stringify(record)))
    expectSameJson({ b: [1, { c: 'x' }], a: null }, { a: null, b: [1, { c: 'x' }] })
    expectSameJson([], [])
    expectSameJson('text', 'text')
  })

  it('fails values that differ anywhere, as toEqual reports them', () => {
    const differing: [unknown, unknown][] = [
      [record, { ...record, title: 'B' }],
      [record, { ...record, extra: 1 }],
      [record, { ...record, authorships: [{ author: { id: 'A1' }, countries: ['DE', 'FR'] }] }],
      [record, { ...record, cited_by_count: '3' }],
      [record, { ...record, doi: undefined, is_oa: false }],
      [
        [1, 2],
        [1, 2, 3],
      ],
      [{ a: [] }, { a: {} }],
      [null, {}],
      [record, undefined],
    ]
    for (const [actual, expected] of differing)
      expect(() => expectSameJson(actual, expected), JSON.stringify(expected)).toThrow(/expected/)
  })

  it('leaves to toEqual what it does not judge the same: an undefined key equals a missing one', () => {
    expectSameJson({ a: 1, b: undefined }, { a: 1 })
  })
})
