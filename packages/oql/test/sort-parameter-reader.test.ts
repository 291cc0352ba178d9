import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readSortParameter } from '../src/index.ts'

describe('readSortParameter', () => {
  it('reads each comma-separated term in the order written, ascending unless desc is written', () => {
    expect(readSortParameter('cited_by_count:desc, publication_year ,id:asc')).toEqual([
      { text: 'cited_by_count:desc', field: 'cited_by_count', writtenDirection: 'desc', direction: 'desc' },
      { text: 'publication_year', field: 'publication_year', writtenDirection: 'asc', direction: 'asc' },
      { text: 'id:asc', field: 'id', writtenDirection: 'asc', direction: 'asc' },
    ])
  })

  it('drops empty terms and reads no sort as no terms', () => {
    expect(readSortParameter(undefined)).toEqual([])
    expect(readSortParameter('')).toEqual([])
    expect(readSortParameter(' , ,')).toEqual([])
    expect(readSortParameter(',,year,,').map((term) => term.field)).toEqual(['year'])
  })

  it('keeps a direction that is not asc or desc, and a second colon, as a term without a direction', () => {
    expect(readSortParameter('year:up')).toEqual([
      { text: 'year:up', field: 'year', writtenDirection: 'up', direction: null },
    ])
    expect(readSortParameter('year:desc:x')).toEqual([
      { text: 'year:desc:x', field: 'year', writtenDirection: 'desc', direction: null },
    ])
    // Directions are lower case, as the public server reads them.
    expect(readSortParameter('year:DESC')[0]?.direction).toBeNull()
  })

  it('gives back every field it was written, whatever the fields are', () => {
    const field = fc.stringMatching(/^[a-z_.]{1,12}$/)
    fc.assert(
      fc.property(
        fc.array(fc.tuple(field, fc.constantFrom('asc', 'desc')), { minLength: 1, maxLength: 5 }),
        (pairs) => {
          const terms = readSortParameter(pairs.map(([name, direction]) => `${name}:${direction}`).join(','))
          expect(terms.map((term) => [term.field, term.direction])).toEqual(pairs)
        },
      ),
    )
  })
})
