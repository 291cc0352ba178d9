import type { Filter, Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { oqoToUrl, type UrlView, urlToOqo } from '../src/url/index.ts'

const read = (url: string): { readonly oqo: Oqo; readonly view: UrlView } => {
  const result = urlToOqo(url)
  expect(result.ok ? [] : result.errors).toEqual([])
  return result.ok ? result : { oqo: { get_rows: 'works' }, view: {} }
}

const rowsOf = (url: string): readonly Filter[] => read(url).oqo.filter_rows ?? []

const has = (column_id: string, value: string, negated = false): Filter =>
  negated ? { column_id, value, operator: 'has', is_negated: true } : { column_id, value, operator: 'has' }

describe('where the query is', () => {
  it.each([
    'https://openalex.org/works?filter=type:article',
    'https://api.openalex.org/works?filter=type:article',
    'http://api.openalex.org/works/?filter=type:article#results',
    'api.openalex.org/works?filter=type:article',
    '/works?filter=type:article',
    'works?filter=type:article',
    '  works?filter=type%3Aarticle  ',
  ])('%s', (url) => {
    expect(read(url).oqo).toEqual({
      get_rows: 'works',
      filter_rows: [{ column_id: 'type', value: 'article' }],
    })
  })

  it('reads the entity from the path, work-types included, and writes work types at /types', () => {
    expect(read('/work-types').oqo).toEqual({ get_rows: 'types' })
    expect(read('/types').oqo).toEqual({ get_rows: 'types' })
    expect(oqoToUrl({ get_rows: 'types' })).toEqual({ url: 'https://openalex.org/types' })
  })
})

describe('the classic value grammar', () => {
  it('treats - and _ alike in keys, collapses alternate keys, and ANDs a repeated key', () => {
    expect(rowsOf('works?filter=publication-year:2020,is_oa:true,publication_year:2021')).toEqual([
      { column_id: 'open_access.is_oa', value: true },
      { column_id: 'publication_year', value: 2020 },
      { column_id: 'publication_year', value: 2021 },
    ])
  })

  it('reads ranges and comparisons on number columns', () => {
    expect(rowsOf('works?filter=publication_year:2019-2023')).toEqual([
      { column_id: 'publication_year', value: 2019, operator: '>=' },
      { column_id: 'publication_year', value: 2023, operator: '<=' },
    ])
    expect(rowsOf('works?filter=cited_by_count:100-')).toEqual([
      { column_id: 'cited_by_count', value: 100, operator: '>=' },
    ])
    expect(rowsOf('works?filter=cited_by_count:-100')).toEqual([
      { column_id: 'cited_by_count', value: 100, operator: '<=' },
    ])
    expect(rowsOf('works?filter=cited_by_count:%3E100,fwci:<=2.5')).toEqual([
      { column_id: 'cited_by_count', value: 100, operator: '>' },
      { column_id: 'fwci', value: 2.5, operator: '<=' },
    ])
  })

  it('never reads an ISO date or an ISSN as a range', () => {
    expect(rowsOf('works?filter=publication_date:2020-05-17')).toEqual([
      { column_id: 'publication_date', value: '2020-05-17' },
    ])
    expect(rowsOf('works?filter=publication_date:<2020-05-17')).toEqual([
      { column_id: 'publication_date', value: '2020-05-17', operator: '<' },
    ])
    expect(rowsOf('sources?filter=issn:2041-1723')).toEqual([{ column_id: 'issn', value: '2041-1723' }])
  })

  it('negates the whole OR list with a leading !, and one value with an inner !', () => {
    expect(rowsOf('works?filter=type:!article|review')).toEqual([
      { column_id: 'type', value: 'article', is_negated: true },
      { column_id: 'type', value: 'review', is_negated: true },
    ])
    expect(rowsOf('works?filter=type:article|!review')).toEqual([
      {
        join: 'or',
        filters: [
          { column_id: 'type', value: 'review', is_negated: true },
          { column_id: 'type', value: 'article' },
        ],
      },
    ])
  })

  it('reads null and !null, also inside an OR list (reference bug §10.2 is not copied)', () => {
    expect(rowsOf('works?filter=language:!null')).toEqual([
      { column_id: 'language', value: null, is_negated: true },
    ])
    expect(rowsOf('works?filter=language:en|null')).toEqual([
      {
        join: 'or',
        filters: [
          { column_id: 'language', value: 'en' },
          { column_id: 'language', value: null },
        ],
      },
    ])
  })

  it('keeps a quoted value whole, commas and all', () => {
    expect(rowsOf('works?filter=display_name:%22Dogs,%20cats%20|%20mice%22,type:article')).toEqual([
      { column_id: 'display_name', value: 'Dogs, cats | mice' },
      { column_id: 'type', value: 'article' },
    ])
  })

  it('reads a + (a space) as AND within the field, except inside a vocabulary code', () => {
    expect(rowsOf('works?filter=institutions.country_code:fr+gb')).toEqual([
      { column_id: 'authorships.institutions.country_code', value: 'FR' },
      { column_id: 'authorships.institutions.country_code', value: 'GB' },
    ])
    expect(rowsOf('works?filter=primary_location.source.type:book+series')).toEqual([
      { column_id: 'primary_location.source.type', value: 'book series' },
    ])
  })

  it('reads private collections', () => {
    expect(rowsOf('works?filter=authorships.author.id:col_xyz789,collection:!col_abc')).toEqual([
      { column_id: 'authorships.author.id', value: 'col_xyz789', operator: 'in collection' },
      { column_id: 'collection', value: 'col_abc', operator: 'in collection', is_negated: true },
    ])
  })

  it('strips the URL and short forms of ids, keeping the case of letter ids', () => {
    expect(
      rowsOf(
        'works?filter=institutions.id:https://openalex.org/I97018004,cited_by:works/w123,doi:https://doi.org/10.1/X,authorships.author.orcid:https://orcid.org/0000-0001',
      ),
    ).toEqual([
      { column_id: 'authorships.author.orcid', value: '0000-0001' },
      { column_id: 'authorships.institutions.id', value: 'I97018004' },
      { column_id: 'cited_by', value: 'w123' },
      { column_id: 'doi', value: '10.1/X' },
    ])
  })

  it('reads continent names as their ids', () => {
    expect(rowsOf('works?filter=authorships.institutions.continent:south_america')).toEqual([
      { column_id: 'authorships.institutions.continent', value: 'Q18' },
    ])
  })
})

describe('search values', () => {
  it('keeps plain text, phrases, proximity and wildcards as one leaf', () => {
    expect(rowsOf('works?filter=title_and_abstract.search:road%20traffic%20safety%20and%20Ghana')).toEqual([
      has('title_and_abstract.search', 'road traffic safety and Ghana'),
    ])
    expect(rowsOf('works?filter=display_name.search:%22foo%22~3~%22bar%22')).toEqual([
      has('display_name.search', '"foo"~3~"bar"'),
    ])
    expect(rowsOf('works?filter=display_name.search.exact:wom%3Fn')).toEqual([
      has('display_name.search.exact', 'wom?n'),
    ])
  })

  it('lifts AND, OR, NOT and | into branches, NOT binding tightest', () => {
    expect(
      rowsOf('works?filter=title_and_abstract.search:agile AND ("supply chain" OR "value chain")'),
    ).toEqual([
      has('title_and_abstract.search', 'agile'),
      {
        join: 'or',
        filters: [
          has('title_and_abstract.search', '"supply chain"'),
          has('title_and_abstract.search', '"value chain"'),
        ],
      },
    ])
    expect(
      rowsOf('works?search=%28elmo%20AND%20%22sesame%20street%22%29%20NOT%20%28cookie%20OR%20monster%29'),
    ).toEqual([
      has('fulltext.search', 'cookie', true),
      has('fulltext.search', 'monster', true),
      has('fulltext.search', '"sesame street"'),
      has('fulltext.search', 'elmo'),
    ])
    expect(rowsOf('works?filter=display_name.search:machine learning OR ai')).toEqual([
      {
        join: 'or',
        filters: [has('display_name.search', 'ai'), has('display_name.search', 'machine learning')],
      },
    ])
  })

  it('reads term!"phrase" as the term AND NOT the exact phrase', () => {
    expect(rowsOf('works?filter=title_and_abstract.search:teacher!%22academic%20teacher%22')).toEqual([
      has('title_and_abstract.search', 'teacher'),
      has('title_and_abstract.search.exact', '"academic teacher"', true),
    ])
  })

  it('normalises exact values: a quoted token loses its quotes, bare words split, negation is De Morgan’d', () => {
    expect(rowsOf('works?filter=display_name.search.exact:%22cat%22')).toEqual([
      has('display_name.search.exact', 'cat'),
    ])
    expect(rowsOf('works?filter=display_name.search.exact:cancer%20treatment')).toEqual([
      has('display_name.search.exact', 'cancer'),
      has('display_name.search.exact', 'treatment'),
    ])
    expect(rowsOf('works?filter=display_name.search.exact:!cancer%20treatment')).toEqual([
      {
        join: 'or',
        filters: [
          has('display_name.search.exact', 'cancer', true),
          has('display_name.search.exact', 'treatment', true),
        ],
      },
    ])
  })

  it('reads a comma in search text as a space', () => {
    expect(rowsOf('works?filter=display_name.search:climate,change')).toEqual([
      has('display_name.search', 'climate change'),
    ])
    expect(rowsOf('works?search=climate,change')).toEqual([has('fulltext.search', 'climate change')])
  })

  it.each([
    ['works?search=dna', has('fulltext.search', 'dna')],
    ['authors?search=carl%20sagan', has('text.search', 'carl sagan')],
    ['works?search.exact=dna', has('fulltext.search.exact', 'dna')],
    ['works?search.title=dna', has('display_name.search', 'dna')],
    [
      'works?search.title_and_abstract.exact=%22dark%20matter%22',
      has('title_and_abstract.search.exact', '"dark matter"'),
    ],
    [
      'works?search.semantic=graph%20neural%20networks',
      has('abstract.search.semantic', 'graph neural networks'),
    ],
  ])('%s', (url, leaf) => {
    expect(rowsOf(url)).toEqual([leaf])
  })
})

describe('the other parameters', () => {
  it('reads group_by (either spelling), a numeric sample as an integer (reference bug §10.3 is not copied), seed and corpus', () => {
    expect(
      read('works?group-by=primary_topic.id,publication_year&sample=500&seed=42&corpus=expansion').oqo,
    ).toEqual({
      get_rows: 'works',
      corpus: 'expansion',
      sample: 500,
      group_by: [{ column_id: 'primary_topic.id' }, { column_id: 'publication_year' }],
      seed: '42',
    })
    expect(read('works?corpus=core').oqo).toEqual({ get_rows: 'works' })
    expect(read('works?include_xpac=true').oqo).toEqual({ get_rows: 'works', corpus: 'all' })
  })

  it('returns sorting, selection, paging and caller parameters as the view', () => {
    expect(
      read(
        'works?filter=type:article&sort=cited_by_count:desc&select=id,doi&per-page=50&page=2&cursor=*&api_key=k&mailto=a@b.org',
      ).view,
    ).toEqual({
      sort: 'cited_by_count:desc',
      select: 'id,doi',
      per_page: 50,
      page: 2,
      cursor: '*',
      api_key: 'k',
      mailto: 'a@b.org',
    })
  })
})

describe('writing URLs', () => {
  it('writes the parameters in the reference order, with the view among them', () => {
    const oqo: Oqo = {
      get_rows: 'works',
      corpus: 'all',
      filter_rows: [
        { column_id: 'abstract.search.semantic', value: 'graph networks', operator: 'has' },
        { column_id: 'type', value: 'article' },
      ],
      group_by: [{ column_id: 'type' }],
      sample: 10,
      seed: '7',
    }
    expect(
      oqoToUrl(oqo, {
        base: 'https://api.openalex.org/',
        view: { sort: 'cited_by_count:desc', select: 'id', per_page: 5, page: 2, mailto: 'a@b.org' },
      }),
    ).toEqual({
      url: 'https://api.openalex.org/works?search.semantic=graph%20networks&filter=type:article&sort=cited_by_count:desc&group_by=type&sample=10&select=id&seed=7&corpus=all&per_page=5&page=2&mailto=a%40b.org',
    })
    expect(
      oqoToUrl({ get_rows: 'works', filter_rows: [{ column_id: 'type', value: 'article' }] }, { base: '' }),
    ).toEqual({
      url: '/works?filter=type:article',
    })
  })

  it('quotes a value the grammar would otherwise split or reinterpret', () => {
    const url = oqoToUrl({
      get_rows: 'works',
      filter_rows: [
        { column_id: 'biblio.volume', value: '1, 2' },
        { column_id: 'display_name', value: 'null' },
        { column_id: 'primary_location.source.type', value: 'book series' },
      ],
    }).url
    expect(url).toBe(
      'https://openalex.org/works?filter=biblio.volume:%221,%202%22,display_name:%22null%22,primary_location.source.type:%22book%20series%22',
    )
    expect(urlToOqo(url ?? '').ok).toBe(true)
  })

  it('puts a positive value first in an OR list, so that the leading ! keeps its meaning', () => {
    expect(
      oqoToUrl({
        get_rows: 'works',
        filter_rows: [
          {
            join: 'or',
            filters: [
              { column_id: 'type', value: 'article', is_negated: true },
              { column_id: 'type', value: 'review' },
            ],
          },
        ],
      }),
    ).toEqual({ url: 'https://openalex.org/works?filter=type:review|!article' })
  })
})
