import type { Filter, Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { oqoToUrl, URL_DIAGNOSTIC_CODES, type UrlDiagnostic, urlToOqo } from '../src/url/index.ts'

const errorsOf = (url: string): readonly UrlDiagnostic[] => {
  const result = urlToOqo(url)
  expect(result.ok).toBe(false)
  return result.ok ? [] : result.errors
}

/** The URL is rejected with `code`, and the message names every one of `mentions`. */
const expectError = (url: string, code: string, mentions: readonly string[]): UrlDiagnostic => {
  const errors = errorsOf(url)
  expect(errors.map((error) => error.code)).toContain(code)
  const error = errors.find((candidate) => candidate.code === code)!
  for (const mention of mentions) expect(error.message).toContain(mention)
  // Every message ends with what to do about it.
  expect(error.message).toMatch(/[.?…]$/)
  expect(error.severity).toBe('error')
  return error
}

describe('filter keys', () => {
  it('rejects an unknown key with did-you-mean suggestions', () => {
    const error = expectError('works?filter=publication_yaer:2020', 'invalid_column', [
      "'publication_yaer'",
      "Did you mean 'publication_year'",
    ])
    expect(error).toMatchObject({ parameter: 'filter', key: 'publication_yaer', value: '2020' })
  })

  it('rejects a key that names a column that cannot be filtered', () => {
    expectError('works?filter=relevance_score:5', 'invalid_column', [
      "'relevance_score'",
      'cannot be filtered',
    ])
  })

  it('rejects a part that is not key:value', () => {
    expectError('works?filter=type:article,review', 'invalid_filter', ["'review'", 'key:value'])
  })
})

describe('filter values', () => {
  // A value of the wrong type has the code OQO validation gives the same leaf (invalid_value_type).
  it('rejects a number column given a word, naming the key and the value', () => {
    expectError('works?filter=publication_year:abc', 'invalid_value_type', ["'abc'", "'publication_year'"])
    expectError('works?filter=cited_by_count:10-x', 'invalid_value_type', ["'10-x'", "'cited_by_count'"])
  })

  it('rejects a boolean column given anything but true, false or null', () => {
    expectError('works?filter=is_oa:maybe', 'invalid_value_type', ["'maybe'", 'is_oa:true'])
    expectError('works?filter=is_oa:1', 'invalid_value_type', ["'1'", 'is_oa:true'])
  })

  it('rejects a collection on a column that takes none as the operator that does not apply, as OQL and OQO do', () => {
    for (const key of ['publication_year', 'is_oa', 'publication_date', 'doi'])
      expectError(`works?filter=${key}:col_abc`, 'invalid_operator_for_column', ['not an ID field'])
  })

  it('rejects a comparison with null as OQO does: a missing value only matches with is', () => {
    expectError('works?filter=publication_year:%3Enull', 'invalid_value', ["'>'"])
    expectError('works?filter=publication_date:%3C%3Dnull', 'invalid_value', ["'<='"])
  })

  it('rejects a comparison on a column that takes none, as OQL and OQO do', () => {
    expectError('works?filter=doi:%3E10.1/x', 'invalid_operator_for_column', [
      "'>'",
      "'doi'",
      'doi:">10.1/x"',
    ])
    expectError('works?filter=is_oa:%3Etrue', 'invalid_operator_for_column', ["'>'", 'yes/no'])
    expectError('works?filter=type:%3C%3Darticle', 'invalid_operator_for_column', ["'<='", "'type'"])
    expectError('works?filter=authorships.author.id:A1|%3CA2', 'invalid_operator_for_column', ["'<'"])
    // Quoted, the text is a literal.
    expect(urlToOqo('works?filter=biblio.volume:%22%3C5%22')).toMatchObject({
      ok: true,
      oqo: { filter_rows: [{ column_id: 'biblio.volume', value: '<5' }] },
    })
  })

  it('rejects a value outside the column’s vocabulary', () => {
    const error = expectError('works?filter=authorships.countries:uk', 'invalid_value', [
      "'uk'",
      'authorships.countries',
    ])
    expect(error.path).toBe('filter_rows[0].value')
  })

  it('rejects an id of the wrong entity', () => {
    expectError('works?filter=authorships.author.id:I1234', 'invalid_value', ["'I1234'", 'author id'])
  })

  it('rejects empty, none and undefined values', () => {
    expectError('works?filter=type:', 'empty_value', ["'type'"])
    expectError('works?filter=type:none', 'empty_value', ["'type'", "'none'"])
    expectError('works?filter=type:undefined', 'empty_value', ["'undefined'"])
    expectError('works?filter=type:article||review', 'empty_value', ["'type'"])
    expectError('works?filter=display_name.search:!', 'empty_value', ["'!'"])
  })

  it('rejects more than 100 OR values', () => {
    const values = Array.from({ length: 101 }, (_, index) => `W${index + 1}`).join('|')
    expectError(`works?filter=ids.openalex:${values}`, 'too_many_values', [
      "'ids.openalex'",
      '101 values',
      '100',
    ])
    expect(urlToOqo(`works?filter=ids.openalex:${values.split('|').slice(0, 100).join('|')}`).ok).toBe(true)
  })

  it('rejects more than 100 |-separated words in a search value, in search= and in a .search filter', () => {
    const words = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`).join('|')
    for (const [prefix, parameter] of [
      ['works?search=', 'search'],
      ['works?filter=title.search:', 'filter'],
      ['works?filter=default.search:', 'filter'],
    ] as const) {
      const atLimit = urlToOqo(`${prefix}${words(100)}`)
      expect(atLimit.ok, `${prefix} 100 words`).toBe(true)
      const error = expectError(`${prefix}${words(101)}`, 'too_many_values', ["'w0|w1|", '101 values', '100'])
      expect(error.parameter).toBe(parameter)
    }
  })

  it('rejects an OR across two filters', () => {
    expectError(
      'works?filter=institutions.country_code:fr|primary_location.source.issn:0957-1558',
      'or_across_filters',
      ["'institutions.country_code'", "'primary_location.source.issn'"],
    )
  })

  it('rejects a value negated again inside a negated OR list', () => {
    expectError('works?filter=type:!article|!review', 'negation_in_negated_list', [
      "'!review'",
      'type:!article|!review',
    ])
  })

  it('rejects an unclosed quote', () => {
    expectError('works?filter=display_name.search:"foo', 'unbalanced_quote', ['display_name.search:"foo'])
    expectError('works?search=%22foo%20bar', 'unbalanced_quote', ['"foo bar'])
  })

  it('rejects search text whose boolean syntax does not parse', () => {
    expectError('works?filter=title.search:(a OR b', 'invalid_search', ["'(a OR b'", "'(' is never closed"])
    expectError('works?filter=title.search:a AND', 'invalid_search', ["'a AND'", 'no operand'])
    expectError('works?filter=title.search:a OR ) b', 'invalid_search', ["')'"])
  })
})

describe('parameters', () => {
  it('rejects an unknown parameter, suggesting the likely one', () => {
    expectError('works?serch=x', 'unknown_parameter', ['serch=', "Did you mean 'search'"])
    expectError('works?group_bys=type,year', 'unknown_parameter', ['group_bys='])
  })

  it('rejects a repeated parameter other than filter', () => {
    expectError('works?sample=1&sample=2', 'repeated_parameter', ['sample='])
    expect(urlToOqo('works?filter=type:article&filter=publication_year:2020').ok).toBe(true)
  })

  it('rejects a sample that is not an integer from 1 to 10000', () => {
    expectError('works?sample=abc', 'invalid_sample', ['sample=abc'])
    expectError('works?sample=0', 'invalid_sample', ['sample=0'])
    expectError('works?sample=10001', 'invalid_sample', ['sample=10001'])
  })

  it('rejects an unknown corpus, per_page and page out of range', () => {
    expectError('works?corpus=xyz', 'invalid_corpus', ['corpus=xyz'])
    expectError('works?per-page=500', 'invalid_per_page', ['per-page=500', '200'])
    expectError('works?page=0', 'invalid_page', ['page=0'])
  })

  it('rejects a group_by column that does not exist or cannot be grouped by', () => {
    expectError('works?group_by=foo', 'invalid_group_by', ['group_by=foo', "'foo'"])
    expectError('works?group_by=type:sometimes', 'invalid_group_by', ["'type:sometimes'"])
    // A column that exists but cannot group is an invalid column, in the URL as in OQL and OQO.
    expectError('works?group_by=citation_normalized_percentile.value', 'invalid_column', [
      'group_by=citation_normalized_percentile.value',
      'group by',
    ])
  })

  it('rejects search parameters an entity does not have', () => {
    expectError('authors?search.semantic=neural', 'unknown_parameter', ['search.semantic', 'authors'])
    expectError('authors?search.title=neural', 'unknown_parameter', ['search.title=', 'authors'])
  })
})

describe('URLs that are not list queries', () => {
  it.each([
    ['https://api.openalex.org/works/W2741809807', 'W2741809807'],
    ['https://api.openalex.org/W2741809807', 'W2741809807'],
    [
      'https://api.openalex.org/works/https://doi.org/10.7717/peerj.4375',
      'https://doi.org/10.7717/peerj.4375',
    ],
    ['https://api.openalex.org/autocomplete/works?q=tigers', '/autocomplete/works'],
    ['https://api.openalex.org/text?title=Machine+learning', '/text'],
    ['https://api.openalex.org/concepts/random', '/concepts/random'],
  ])('%s is not a list query', (url, mention) => {
    expectError(url, 'not_a_list_query', [mention, 'not a list query'])
  })

  it('suggests the id filter for a single record', () => {
    expectError('https://api.openalex.org/authors/A5023888391', 'not_a_list_query', [
      '/authors?filter=ids.openalex:A5023888391',
    ])
  })

  it('rejects an unknown entity with a suggestion, and text that names no entity', () => {
    expectError('/wroks?filter=type:article', 'invalid_entity', ["'wroks'", "Did you mean 'works'"])
    expectError('', 'invalid_url', ['names no entity list'])
    expectError('?filter=type:article', 'invalid_url', ['?filter=type:article'])
  })
})

describe('warnings', () => {
  const warningsOf = (url: string): readonly UrlDiagnostic[] => {
    const result = urlToOqo(url)
    expect(result.ok).toBe(true)
    return result.warnings
  }

  it('reads the retired .search.no_stem as .search.exact, with a warning', () => {
    const [warning] = warningsOf('works?filter=title.search.no_stem:surgery')
    expect(warning).toMatchObject({
      code: 'deprecated_key',
      severity: 'warning',
      key: 'title.search.no_stem',
    })
    expect(warning?.message).toContain('title.search.exact')
  })

  it('drops a group_by suffix with a warning', () => {
    const [warning] = warningsOf('works?group_by=authorships.countries:include_unknown')
    expect(warning).toMatchObject({
      code: 'group_by_option_dropped',
      value: 'authorships.countries:include_unknown',
    })
  })

  it('passes on the OQO validation warnings', () => {
    expect(warningsOf('authors?corpus=all').map((warning) => warning.code)).toEqual(['corpus_ignored'])
    expect(warningsOf('works?seed=42').map((warning) => warning.code)).toEqual(['seed_without_sample'])
  })
})

describe('the diagnostic codes', () => {
  it('are snake_case with one-line summaries', () => {
    for (const [code, summary] of Object.entries(URL_DIAGNOSTIC_CODES)) {
      expect(code).toMatch(/^[a-z]+(?:_[a-z]+)*$/)
      expect(summary).not.toContain('\n')
    }
  })
})

describe('OQOs without a classic URL', () => {
  const works = (filter_rows: Filter[]): Oqo => ({ get_rows: 'works', filter_rows })
  const semantic = (value: string) => ({
    column_id: 'abstract.search.semantic',
    value,
    operator: 'has' as const,
  })

  it.each([
    [
      'an OR across columns',
      works([
        {
          join: 'or',
          filters: [
            { column_id: 'type', value: 'article' },
            { column_id: 'publication_year', value: 2020 },
          ],
        },
      ]),
      'or_across_columns',
      "'publication_year', 'type'",
    ],
    [
      'an AND nested inside an OR',
      works([
        {
          join: 'or',
          filters: [
            { column_id: 'type', value: 'article' },
            {
              join: 'and',
              filters: [
                { column_id: 'type', value: 'review' },
                { column_id: 'type', value: 'book' },
              ],
            },
          ],
        },
      ]),
      'nested_branch',
      'AND inside an OR',
    ],
    [
      'a k-ary proximity',
      works([{ column_id: 'display_name.search.exact', value: '"a"~3~"b"~"c"', operator: 'has' }]),
      'k_ary_proximity',
      '"a"~3~"b"~"c"',
    ],
    [
      'a negated semantic search',
      works([{ ...semantic('graphs'), is_negated: true }]),
      'semantic_negated',
      'negates',
    ],
    [
      'a semantic search in a branch',
      works([{ join: 'or', filters: [semantic('graphs'), { column_id: 'type', value: 'article' }] }]),
      'semantic_in_branch',
      'inside a branch',
    ],
    [
      'two semantic searches',
      works([semantic('graphs'), semantic('proteins')]),
      'semantic_multiple',
      '2 semantic',
    ],
    [
      'a negated comparison (reference bug §10.1 is not copied)',
      works([{ column_id: 'publication_year', value: 2020, operator: '>=', is_negated: true }]),
      'negated_comparison',
      'publication_year >= 2020',
    ],
    [
      'a date bound the date grammar lacks',
      works([{ column_id: 'publication_date', value: '2020-01-01', operator: '>=' }]),
      'date_bound',
      'publication_date',
    ],
    [
      'an OR of negated values',
      works([
        {
          join: 'or',
          filters: [
            { column_id: 'type', value: 'article', is_negated: true },
            { column_id: 'type', value: 'review', is_negated: true },
          ],
        },
      ]),
      'negated_or',
      'not a or not b',
    ],
    [
      'a value the URL grammar would read differently',
      works([{ column_id: 'display_name.search', value: 'cats AND dogs', operator: 'has' }]),
      'read_back_mismatch',
      'read back as a different query',
    ],
  ] as const)('%s gives url: null with a warning', (_, oqo, reason, mention) => {
    const result = oqoToUrl(oqo)
    expect(result.url).toBeNull()
    if (result.url !== null) return
    expect(result.warning).toMatchObject({ code: 'url_not_representable', reason })
    expect(result.warning.message).toContain(mention)
    expect(result.warning.message).toMatch(/\.$/)
  })
})

describe('bare words on an exact search column', () => {
  it('canonicalise to one leaf per word, which the URL writes as an AND of exact terms', () => {
    const result = oqoToUrl({
      get_rows: 'works',
      filter_rows: [{ column_id: 'display_name.search.exact', value: 'cancer treatment', operator: 'has' }],
    })
    expect(result.url).not.toBeNull()
    const back = result.url === null ? undefined : urlToOqo(result.url)
    expect(back?.ok && back.oqo.filter_rows).toEqual([
      { column_id: 'display_name.search.exact', value: 'cancer', operator: 'has' },
      { column_id: 'display_name.search.exact', value: 'treatment', operator: 'has' },
    ])
  })
})
