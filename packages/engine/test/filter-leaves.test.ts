// `leavesOf`, the one walk over a filter tree: every leaf of a kind in order, with whether it is negated (an
// odd number of NOTs), below any NOT, and below an OR. Expected places are written out by hand for each tree.
import { type ColumnRef, FilterNodes, leavesOf, searchNodesOf } from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'

const column = (id: string, kind: ColumnRef['kind']): ColumnRef => ({ id, kind })
const title = (text: string) =>
  FilterNodes.search(column('title.search', 'search'), 'display_name', 'stemmed', text)
const year = FilterNodes.comparison(column('publication_year', 'number'), '>=', 2020)
const authors = FilterNodes.collection(column('authorships.author.id', 'entity_id'), 'col_abc')

const placesOf = (filter: Parameters<typeof leavesOf>[0]) =>
  searchNodesOf(filter).map(({ node, negated, belowNot, belowOr }) => [node.text, negated, belowNot, belowOr])

describe('leavesOf', () => {
  it('finds nothing in no filter, and a lone leaf at the top', () => {
    expect(leavesOf(null, 'search')).toEqual([])
    expect(placesOf(title('a'))).toEqual([['a', false, false, false]])
    expect(leavesOf(year, 'search')).toEqual([])
  })

  it('gives each search its place: under AND, OR, NOT and two NOTs', () => {
    const filter = FilterNodes.and([
      title('top'),
      year,
      FilterNodes.or([title('either'), FilterNodes.not(title('or-not'))]),
      FilterNodes.not(title('not')),
      FilterNodes.not(FilterNodes.and([FilterNodes.not(title('not-not'))])),
    ])
    expect(placesOf(filter)).toEqual([
      ['top', false, false, false],
      ['either', false, false, true],
      ['or-not', true, true, true],
      ['not', true, true, false],
      ['not-not', false, true, false],
    ])
  })

  it('finds leaves of every kind, and only of that kind', () => {
    const missing = FilterNodes.missing(column('language', 'enum'))
    const inList = FilterNodes.inList(column('type', 'enum'), ['article', 'book'])
    const filter = FilterNodes.or([year, FilterNodes.not(missing), inList, authors, title('x')])
    expect(leavesOf(filter, 'comparison').map((leaf) => leaf.node)).toEqual([year])
    expect(leavesOf(filter, 'missing')).toEqual([
      { node: missing, negated: true, belowNot: true, belowOr: true },
    ])
    expect(leavesOf(filter, 'in-list').map((leaf) => leaf.node)).toEqual([inList])
    expect(leavesOf(filter, 'collection').map((leaf) => leaf.node)).toEqual([authors])
    expect(leavesOf(filter, 'search').map((leaf) => leaf.node.text)).toEqual(['x'])
  })
})
