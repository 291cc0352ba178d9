// lookUpMany decides what each key of a bulk lookup gets, over an adapter's statements. Here the statements
// are a stand-in over a few in-memory rows (the adapters' own statements run in their conformance suites):
// what matters is each key's answer, in order, and each statement's share of the values.
import type { LookupKey } from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'
import { catalogEntityInfoOf } from '../src/index.ts'
import { type BulkLookupSteps, lookUpMany } from '../src/records/bulk-lookup-steps.ts'

const bytes = (id: string) => new TextEncoder().encode(JSON.stringify({ id: `https://openalex.org/${id}` }))

/** Stand-in statements over W1-W5, a DOI of W2, W9 merged into W3, W8 deleted; each call recorded. */
const standInSteps = (maxValues?: number) => {
  const calls: string[][] = []
  const held = new Set(['W1', 'W2', 'W3', 'W4', 'W5'])
  const steps: BulkLookupSteps = {
    idsOfExternal: async (values) => {
      calls.push(['external', ...values])
      return values.includes('10.1/two') ? [{ scheme: 'doi', value: '10.1/two', id: 'W2' }] : []
    },
    records: async (ids) => {
      calls.push(['records', ...ids])
      return ids.filter((id) => held.has(id)).map((id) => ({ id, bytes: bytes(id) }))
    },
    mergedInto: async (ids) => {
      calls.push(['merged', ...ids])
      return ids.includes('W9') ? [{ oldId: 'W9', newId: 'W3' }] : []
    },
    deleted: async (ids) => {
      calls.push(['deleted', ...ids])
      return ids.filter((id) => id === 'W8')
    },
    ...(maxValues === undefined ? {} : { maxValues }),
  }
  return { steps, calls }
}

const KEYS: LookupKey[] = [
  { kind: 'openalex', id: 'w4' },
  { kind: 'external', scheme: 'doi', value: 'https://doi.org/10.1/TWO' },
  { kind: 'openalex', id: 'W9' },
  { kind: 'openalex', id: 'W8' },
  { kind: 'openalex', id: 'W7' },
  { kind: 'openalex', id: 'https://openalex.org/W1' },
  { kind: 'openalex', id: 'W4' },
  { kind: 'openalex', id: 'not an id' },
]

describe('lookUpMany (stand-in statements)', () => {
  it('answers each key in order: found, from its external id, merged, deleted, missing', async () => {
    const { steps } = standInSteps()
    const results = await lookUpMany(catalogEntityInfoOf('works')!, KEYS, steps)
    expect(
      results.map((result) =>
        result.status === 'found'
          ? result.record.id
          : result.status === 'merged'
            ? `merged ${result.id}`
            : result.status,
      ),
    ).toEqual([
      'https://openalex.org/W4',
      'https://openalex.org/W2',
      'merged W3',
      'deleted',
      'missing',
      'https://openalex.org/W1',
      'https://openalex.org/W4',
      'missing',
    ])
  })

  it('gives each statement at most maxValues values, and the same answers', async () => {
    const whole = await lookUpMany(catalogEntityInfoOf('works')!, KEYS, standInSteps().steps)
    const { steps, calls } = standInSteps(2)
    const split = await lookUpMany(catalogEntityInfoOf('works')!, KEYS, steps)
    expect(split.map((result) => result.status)).toEqual(whole.map((result) => result.status))
    for (const call of calls) expect(call.length - 1, call.join(' ')).toBeLessThanOrEqual(2)
    // The ids W4, W2, W9, W8, W7, W1 (each once) in statements of two.
    expect(calls.filter(([step]) => step === 'records')).toHaveLength(3)
  })
})

describe('lookUpMany of ids alone (stand-in statements)', () => {
  const withHeldIds = () => {
    const { steps, calls } = standInSteps()
    const held = new Set(['W1', 'W2', 'W3', 'W4', 'W5'])
    const idsOnly: BulkLookupSteps = {
      ...steps,
      heldIds: async (ids) => {
        calls.push(['held', ...ids])
        return ids.filter((id) => held.has(id))
      },
    }
    return { steps: idsOnly, calls }
  }

  it('answers the same outcomes from the held ids, each found one its id alone, and reads no record', async () => {
    const { steps, calls } = withHeldIds()
    const whole = await lookUpMany(catalogEntityInfoOf('works')!, KEYS, standInSteps().steps)
    const alone = await lookUpMany(catalogEntityInfoOf('works')!, KEYS, steps, { fields: ['id'] })
    expect(alone.map((result) => result.status)).toEqual(whole.map((result) => result.status))
    alone.forEach((result, at) => {
      const want = whole[at]!
      if (result.status === 'found' && want.status === 'found')
        expect(result.record).toEqual({ id: want.record.id })
    })
    expect(calls.some(([step]) => step === 'records')).toBe(false)
    expect(calls.some(([step]) => step === 'held')).toBe(true)
  })

  it('reads the records of an entity whose ids are not a letter and a number, or without the step', async () => {
    const { steps, calls } = withHeldIds()
    await lookUpMany(catalogEntityInfoOf('countries')!, [{ kind: 'openalex', id: 'US' }], steps, {
      fields: ['id'],
    })
    expect(calls.map(([step]) => step)).toContain('records')
    const plain = standInSteps()
    await lookUpMany(catalogEntityInfoOf('works')!, KEYS, plain.steps, { fields: ['id'] })
    expect(plain.calls.map(([step]) => step)).toContain('records')
  })
})
