import {
  type AutocompleteResult,
  autocompleteTier,
  compareGroupKeys,
  costClassOfPlan,
  costUsdOf,
  ENDPOINT_COSTS_USD,
  normalizeAutocompleteText,
  orderBuckets,
  planQuery,
  shapeEntity,
  toAutocompleteResult,
  WORKS_FILTER_KEYS,
} from '@oqlkit/engine'
import { type EntityType, type Oqo, propertiesRegistry } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'

// The pure parts of result shaping: rows, bucket order, autocomplete text and results, and request costs.

describe('shapeEntity', () => {
  it('keeps relevance_score only where a search scored the row, and only when selected under select', () => {
    expect(shapeEntity({ id: 'W1', relevance_score: 2.5 }, null)).toEqual({ id: 'W1', relevance_score: 2.5 })
    expect(shapeEntity({ id: 'W1', relevance_score: 0 }, null)).toEqual({ id: 'W1' })
    expect(shapeEntity({ id: 'W1', relevance_score: 2.5 }, ['id'])).toEqual({ id: 'W1' })
    expect(shapeEntity({ id: 'W1', relevance_score: 2.5 }, ['id', 'relevance_score'])).toEqual({
      id: 'W1',
      relevance_score: 2.5,
    })
  })
})

describe('bucket order', () => {
  it('compares keys: booleans, numbers, text, unknown last', () => {
    const keys = ['b', null, 2020, true, 'a', 1999, false]
    expect([...keys].sort(compareGroupKeys)).toEqual([false, true, 1999, 2020, 'a', 'b', null])
  })

  it('orders by count with ties by key, or by key with unknown last either way', () => {
    const buckets = [
      { keys: ['b'], count: 2 },
      { keys: [null], count: 5 },
      { keys: ['a'], count: 2 },
      { keys: ['c'], count: 9 },
    ]
    const keysOf = (list: { keys: readonly unknown[] }[]) => list.map((bucket) => bucket.keys[0])
    expect(keysOf(orderBuckets(buckets, { by: 'count', direction: 'desc' }))).toEqual(['c', null, 'a', 'b'])
    expect(keysOf(orderBuckets(buckets, { by: 'count', direction: 'asc' }))).toEqual(['a', 'b', null, 'c'])
    expect(keysOf(orderBuckets(buckets, { by: 'key', direction: 'asc' }))).toEqual(['a', 'b', 'c', null])
    expect(keysOf(orderBuckets(buckets, { by: 'key', direction: 'desc' }))).toEqual(['c', 'b', 'a', null])
  })
})

describe('autocomplete text and results', () => {
  it('compares names without case, accents or punctuation, in tiers', () => {
    expect(normalizeAutocompleteText('Université  de Montréal (UdeM)')).toBe('universite de montreal udem')
    expect(autocompleteTier('Harvard University', 'harvard university')).toBe(3)
    expect(autocompleteTier('Harvard University', 'harv')).toBe(2)
    expect(autocompleteTier('University of California, Berkeley', 'of calif')).toBe(1)
    expect(autocompleteTier('University of California', 'univ of cal')).toBe(0)
    expect(autocompleteTier('Stanford', 'ford')).toBe(0)
  })

  it('writes hints, external ids and filter keys per entity', () => {
    const author: AutocompleteResult = toAutocompleteResult('authors', {
      id: 'https://openalex.org/A1',
      display_name: 'Ada Lovelace',
      orcid: 'https://orcid.org/0000-0001-2345-6789',
      works_count: 3,
      cited_by_count: 10,
      last_known_institutions: [{ display_name: 'University of London', country_code: 'GB' }],
    })
    expect(author).toEqual({
      id: 'https://openalex.org/A1',
      short_id: 'authors/A1',
      display_name: 'Ada Lovelace',
      hint: 'University of London, United Kingdom',
      cited_by_count: 10,
      works_count: 3,
      entity_type: 'author',
      external_id: 'https://orcid.org/0000-0001-2345-6789',
      filter_key: 'authorships.author.id',
    })
    const work = toAutocompleteResult('works', {
      id: 'https://openalex.org/W1',
      display_name: 'A paper',
      authorships: ['A', 'B', 'C', 'D'].map((name) => ({ author: { display_name: name } })),
    })
    expect(work.hint).toBe('A, B, C et al.')
    expect(toAutocompleteResult('sources', { id: 'https://openalex.org/S1' }).hint).toBe(
      'host organization unknown',
    )
    expect(toAutocompleteResult('types', { id: 'https://openalex.org/types/article' }).short_id).toBe(
      'work-types/article',
    )
  })

  it('names filter keys that /works can filter on', () => {
    for (const [entity, key] of Object.entries(WORKS_FILTER_KEYS)) {
      const column = propertiesRegistry.resolveColumn('works', key)
      expect(column?.actions, `${entity}: ${key}`).toContain('filter')
      expect(column?.id).toBe(key)
      expect(propertiesRegistry.columnsOf(entity as EntityType).length).toBeGreaterThan(0)
    }
  })
})

describe('request costs', () => {
  const plan = (oqo: Oqo) => {
    const result = planQuery(oqo)
    if (!result.ok) throw new Error(JSON.stringify(result.errors))
    return result.plan
  }

  it('prices lists, searches (negated too) and semantic searches from one table', () => {
    expect(costClassOfPlan(plan({ get_rows: 'works' }))).toBe('list')
    expect(
      costClassOfPlan(
        plan({
          get_rows: 'works',
          filter_rows: [{ column_id: 'display_name.search', value: 'x', operator: 'has', is_negated: true }],
        }),
      ),
    ).toBe('search')
    expect(
      costClassOfPlan(
        plan({
          get_rows: 'works',
          filter_rows: [{ column_id: 'abstract.search.semantic', value: 'x', operator: 'has' }],
        }),
      ),
    ).toBe('semantic')
    expect(costUsdOf('list')).toBe(ENDPOINT_COSTS_USD.list)
    expect(ENDPOINT_COSTS_USD).toEqual({
      singleton: 0,
      list: 0.0001,
      search: 0.001,
      semantic: 0.01,
      content: 0.01,
      text: 0.01,
    })
    expect(costUsdOf('autocomplete')).toBe(0)
  })
})
