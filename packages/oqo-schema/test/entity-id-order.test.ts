import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compareEntityIds, compareLetterIds } from '../src/entity-id-order.ts'

const sorted = (ids: readonly string[], compare: (a: string, b: string) => number) => [...ids].sort(compare)

describe('id order', () => {
  it('orders letter ids by number, where text order puts a longer number first', () => {
    // The sample's oldest ids are shorter: as text, `W99854102` sorts after OpenAlex's newest.
    expect(sorted(['W4390000001', 'W99854102', 'W9000000001', 'W10', 'W9'], compareLetterIds)).toEqual([
      'W9',
      'W10',
      'W99854102',
      'W4390000001',
      'W9000000001',
    ])
  })

  it('breaks a tie of numbers (leading zeros) by the text, so the order stays total', () => {
    expect(sorted(['W12', 'W0012', 'W012', 'W11', 'W13', 'W0'], compareLetterIds)).toEqual([
      'W0',
      'W11',
      'W0012',
      'W012',
      'W12',
      'W13',
    ])
    expect(compareLetterIds('W012', 'W012')).toBe(0)
  })

  it('is the order of the numbers, then the texts, for any letter ids of one entity', () => {
    const letterId = fc.stringMatching(/^[0-9]{1,18}$/).map((digits) => `W${digits}`)
    fc.assert(
      fc.property(letterId, letterId, (left, right) => {
        const a = BigInt(left.slice(1))
        const b = BigInt(right.slice(1))
        const expected = a !== b ? (a < b ? -1 : 1) : left === right ? 0 : left < right ? -1 : 1
        expect(Math.sign(compareLetterIds(left, right))).toBe(expected)
      }),
      { numRuns: 2000 },
    )
  })

  it('orders the ids of closed vocabularies by their text', () => {
    expect(compareEntityIds('works', 'W9', 'W10')).toBeLessThan(0)
    expect(compareEntityIds('countries', 'US', 'FR')).toBeGreaterThan(0)
    // Not letter ids, though they look alike: `sdgs` are numbered codes of a vocabulary.
    expect(compareEntityIds('sdgs', '9', '10')).toBeGreaterThan(0)
  })
})
