// Which searches of a filter share one relation: those of one OR on one column, and no others.
import { type ColumnRef, type FilterNode, FilterNodes, type SearchNode } from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'
import { searchGroupsOf } from '../src/search/search-groups.ts'

const column = (id: string): ColumnRef => ({ id, kind: 'search' })
const title = (text: string): SearchNode =>
  FilterNodes.search(column('title.search'), 'title', 'stemmed', text)
const exact = (text: string): SearchNode =>
  FilterNodes.search(column('title.search.exact'), 'title', 'exact', text)
const year = FilterNodes.comparison({ id: 'publication_year', kind: 'number' }, '=', 2020)
const texts = (groups: SearchNode[][]) => groups.map((group) => group.map((node) => node.text))
const everything = () => true

describe('searchGroupsOf', () => {
  it('groups the searches of one OR on one column, in the order of their first search', () => {
    const filter = FilterNodes.and([
      title('first'),
      FilterNodes.or([title('a'), exact('x'), title('b'), year, title('a'), exact('y')]),
    ])
    expect(texts(searchGroupsOf(filter, everything))).toEqual([['first'], ['a', 'b', 'a'], ['x', 'y']])
  })

  it('leaves alone searches of different ORs, under a NOT inside an OR, or that may not be merged', () => {
    const filter = FilterNodes.or([
      title('a'),
      FilterNodes.not(title('b')),
      FilterNodes.and([title('c'), FilterNodes.or([title('d'), title('e')])]),
      title('semantic'),
    ])
    const groups = searchGroupsOf(filter, (node) => node.text !== 'semantic')
    expect(texts(groups)).toEqual([['a'], ['b'], ['c'], ['d', 'e'], ['semantic']])
    expect(searchGroupsOf(null, everything)).toEqual([])
  })

  it('keeps a node placed twice in the tree to itself', () => {
    const shared = title('shared')
    const filter: FilterNode = FilterNodes.and([
      FilterNodes.or([shared, title('other')]),
      FilterNodes.or([shared, year]),
    ])
    expect(texts(searchGroupsOf(filter, everything))).toEqual([['shared'], ['other']])
  })
})
