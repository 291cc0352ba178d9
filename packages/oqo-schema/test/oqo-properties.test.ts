import {
  canonicalizeOqo,
  type EntityType,
  type Filter,
  type LeafFilter,
  type Oqo,
  resolveColumn,
  sortCanonicalOqo,
  validateOqo,
} from '@oqlkit/oqo-schema'
import { oqoArbitrary } from '@oqlkit/oqo-schema/testing'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'

// Rewrites that keep a filter's meaning: each one is a law the sorted canonical form must respect.
interface Dice {
  /** An integer from min to max, both included. */
  nextInt(min: number, max: number): number
}

// A tiny seeded generator (mulberry32), so a failing case replays from the seed fast-check reports.
const diceFrom = (seed: number): Dice => {
  let state = seed >>> 0
  return {
    nextInt(min, max) {
      state = (state + 0x6d2b79f5) >>> 0
      let t = state
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      const unit = ((t ^ (t >>> 14)) >>> 0) / 4294967296
      return min + Math.floor(unit * (max - min + 1))
    },
  }
}

type Rewrite = (filter: Filter, entity: EntityType, random: Dice) => Filter

const negate = (filter: Filter): Filter =>
  'join' in filter
    ? { ...filter, is_negated: !(filter.is_negated ?? false) }
    : { ...filter, is_negated: !(filter.is_negated ?? false) }

const rewrites: Rewrite[] = [
  // not not X
  (filter) => ({
    join: 'and',
    is_negated: true,
    filters: [{ join: 'or', is_negated: true, filters: [filter] }],
  }),
  // De Morgan on a branch: (a j b) ≡ not ((not a) j' (not b))
  (filter) =>
    'join' in filter
      ? {
          join: filter.join === 'and' ? 'or' : 'and',
          is_negated: !(filter.is_negated ?? false),
          filters: filter.filters.map(negate),
        }
      : filter,
  // Children in another order, and a run of them nested in a branch of the same join.
  (filter, _entity, random) => {
    if (!('join' in filter) || filter.filters.length < 2) return filter
    const children = [...filter.filters].reverse()
    const cut = random.nextInt(1, children.length - 1)
    return {
      ...filter,
      filters: [{ join: filter.join, filters: children.slice(0, cut) }, ...children.slice(cut)],
    }
  },
  // The column by an alternate key, and the value in a looser spelling.
  (filter, entity) => {
    if ('join' in filter) return filter
    const column = resolveColumn(entity, filter.column_id)
    const leaf: LeafFilter = { ...filter }
    const alternate = column?.alternateKeys[0]
    if (alternate !== undefined && resolveColumn(entity, alternate)?.id === column?.id)
      leaf.column_id = alternate
    if (typeof leaf.value === 'number' && column?.kind === 'number') leaf.value = String(leaf.value)
    if (typeof leaf.value === 'boolean') leaf.value = leaf.value ? 'True' : 'False'
    if (typeof leaf.value === 'string' && column?.casing === 'upper') leaf.value = leaf.value.toLowerCase()
    return leaf
  },
]

const rewriteDeep = (filter: Filter, entity: EntityType, random: Dice): Filter => {
  const inner: Filter =
    'join' in filter
      ? { ...filter, filters: filter.filters.map((child) => rewriteDeep(child, entity, random)) }
      : filter
  const rewrite = rewrites[random.nextInt(0, rewrites.length)] // one index past the end: no rewrite
  return rewrite === undefined ? inner : rewrite(inner, entity, random)
}

const equivalentArbitrary = oqoArbitrary().chain((oqo) =>
  fc.noShrink(fc.integer()).map((seed) => {
    const random = diceFrom(seed)
    const rows = (oqo.filter_rows ?? []).map((filter) =>
      rewriteDeep(filter, oqo.get_rows as EntityType, random),
    )
    const variant: Oqo = {
      ...oqo,
      ...(rows.length > 0 ? { filter_rows: [{ join: 'and', filters: [...rows].reverse() }] } : {}),
    }
    if (oqo.seed !== undefined && /^(0|[1-9]\d{0,8})$/.test(oqo.seed as string))
      variant.seed = Number(oqo.seed)
    return [oqo, variant] as const
  }),
)

describe('OQO properties', () => {
  it('every generated OQO is valid', () => {
    fc.assert(
      fc.property(oqoArbitrary(), (oqo) => {
        expect(validateOqo(oqo).errors).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  it('canonicalisation is idempotent, in both modes', () => {
    fc.assert(
      fc.property(oqoArbitrary(), fc.boolean(), (oqo, sortOperands) => {
        const once = canonicalizeOqo(oqo, { sortOperands })
        expect(canonicalizeOqo(once, { sortOperands })).toEqual(once)
      }),
      { numRuns: 300 },
    )
  })

  it('sorting a canonical form is its sorted canonical form, from either mode', () => {
    fc.assert(
      fc.property(oqoArbitrary(), fc.boolean(), (oqo, sortOperands) => {
        const canonical = canonicalizeOqo(oqo, { sortOperands })
        expect(JSON.stringify(sortCanonicalOqo(canonical))).toBe(
          JSON.stringify(canonicalizeOqo(oqo, { sortOperands: true })),
        )
      }),
    )
  })

  it('the validator accepts every canonical output', () => {
    fc.assert(
      fc.property(oqoArbitrary(), fc.boolean(), (oqo, sortOperands) => {
        expect(validateOqo(canonicalizeOqo(oqo, { sortOperands })).errors).toEqual([])
      }),
      { numRuns: 300 },
    )
  })

  it('equivalent trees have equal sorted canonical forms', () => {
    fc.assert(
      fc.property(equivalentArbitrary, ([oqo, variant]) => {
        expect(validateOqo(variant).errors).toEqual([])
        expect(canonicalizeOqo(variant, { sortOperands: true })).toEqual(
          canonicalizeOqo(oqo, { sortOperands: true }),
        )
      }),
      { numRuns: 300 },
    )
  })

  it('canonical forms have negation only on leaves and no nested branch of the same join', () => {
    const check = (filter: Filter, parentJoin: string | undefined): void => {
      if (!('join' in filter)) return
      expect(filter.is_negated).toBeUndefined()
      expect(filter.join).not.toBe(parentJoin)
      expect(filter.filters.length).toBeGreaterThan(1)
      for (const child of filter.filters) check(child, filter.join)
    }
    fc.assert(
      fc.property(oqoArbitrary(), (oqo) => {
        for (const row of canonicalizeOqo(oqo).filter_rows ?? []) check(row, 'and')
      }),
      { numRuns: 300 },
    )
  })
})
