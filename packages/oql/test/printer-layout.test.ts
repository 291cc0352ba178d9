import { canonicalizeOqo, type Filter, type Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import {
  type PrintOqlOptions,
  printOql,
  printOqlOneline,
  renderOqlTree,
  renderTreeText,
} from '../src/printer/index.ts'

// Clause rendering, structure and layout of the printer (OQL v2.2 §4), one rule at a time, and the
// reference bugs of §10 that concern printing, each shown not to happen here.

const works = (filters: Filter[], extra: Partial<Oqo> = {}): Oqo =>
  canonicalizeOqo({ get_rows: 'works', filter_rows: filters, ...extra })

const print = (filters: Filter[], options: PrintOqlOptions = {}): string => printOql(works(filters), options)
const oneline = (filters: Filter[], options: PrintOqlOptions = {}): string =>
  printOqlOneline(works(filters), options)

const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  AR: 'Argentina',
  BR: 'Brazil',
  CA: 'Canada',
  DE: 'Germany',
  FR: 'France',
  GB: 'United Kingdom',
  JP: 'Japan',
  US: 'United States',
  ZA: 'South Africa',
}
const names = (_entity: string, id: string): string | undefined => COUNTRY_NAMES[id]

const countries = (codes: readonly string[]): Filter => ({
  join: 'or',
  filters: codes.map((code) => ({ column_id: 'authorships.countries', value: code })),
})

describe('clauses', () => {
  it('parenthesises every value and writes lowercase connectives', () => {
    expect(print([{ column_id: 'type', value: 'article' }])).toBe('works where type is (article)')
    expect(print([{ column_id: 'publication_year', value: 2019, operator: '>=' }])).toBe(
      'works where year >= (2019)',
    )
    expect(print([{ column_id: 'open_access.is_oa', value: true }])).toBe('works where open access is (true)')
    expect(print([{ column_id: 'language', value: null }])).toBe('works where language is (unknown)')
  })

  it('writes collections, similarity and the row-subject verbs', () => {
    expect(
      print([{ column_id: 'collection', value: 'col_abc', operator: 'in collection', is_negated: true }]),
    ).toBe('works where work is in collection (not col_abc)')
    expect(
      print([{ column_id: 'title_and_abstract.search.semantic', value: 'coral reefs', operator: 'has' }]),
    ).toBe('works where title/abstract is similar to ("coral reefs")')
    expect(
      print([
        { column_id: 'referenced_works', value: 'W1' },
        { column_id: 'cited_by', value: 'W2' },
        { column_id: 'related_to', value: 'W3', is_negated: true },
      ]),
    ).toBe("works where it cites (W1) and it's cited by (W2) and it's related to (not W3)")
  })

  it('routes date bounds back to the date word, and keeps the raw id where that would change the column', () => {
    expect(
      oneline([
        { column_id: 'from_publication_date', value: '2020-01-01' },
        { column_id: 'to_created_date', value: '2020-12-31' },
        { column_id: 'publication_date', value: '2020-06-01', operator: '>' },
      ]),
    ).toBe('works where date >= (2020-01-01) and created date <= (2020-12-31) and date > (2020-06-01)')
    // `date >= (…)` reads back as from_publication_date, so this leaf names its column.
    expect(print([{ column_id: 'publication_date', value: '2020-06-01', operator: '>=' }])).toBe(
      'works where publication_date >= (2020-06-01)',
    )
  })

  it('names the corpus, then the directives in canonical order', () => {
    const oqo = works([{ column_id: 'open_access.is_oa', value: true }], {
      corpus: 'all',
      sample: 50,
      seed: 42,
      group_by: [{ column_id: 'publication_year' }, { column_id: 'type' }],
    })
    expect(printOqlOneline(oqo)).toBe(
      'works (all corpora) where open access is (true) group by year, type sample 50 seed 42',
    )
    expect(printOql(oqo)).toBe(
      'works (all corpora) where open access is (true)\ngroup by year, type\nsample 50 seed 42',
    )
    expect(printOql(canonicalizeOqo({ get_rows: 'works', corpus: 'expansion' }))).toBe(
      'works (expansion corpus)',
    )
    expect(printOql(canonicalizeOqo({ get_rows: 'works', sample: 5, seed: 'two words' }))).toBe(
      'works sample 5 seed "two words"',
    )
  })

  it('quotes values with whitespace, reserved characters or the spelling of a keyword', () => {
    expect(
      print([
        { column_id: 'primary_location.source.type', value: 'ebook platform' },
        { column_id: 'doi', value: 'unknown' },
        { column_id: 'biblio.issue', value: 'AND' },
        { column_id: 'biblio.volume', value: '12(3)' },
        { column_id: 'biblio.first_page', value: 'e1,2' },
        { column_id: 'doi_starts_with', value: '10.1021/es052595+' },
      ]),
    ).toBe(
      [
        'works where source type is ("ebook platform")',
        '  and DOI is ("unknown")',
        '  and issue is ("AND")',
        '  and volume is ("12(3)")',
        '  and first page is ("e1,2")',
        '  and DOI prefix is (10.1021/es052595+)',
      ].join('\n'),
    )
  })
})

describe('search terms', () => {
  const title = (value: string, column = 'display_name.search', negated = false): Filter => ({
    column_id: column,
    value,
    operator: 'has',
    ...(negated ? { is_negated: true } : {}),
  })

  it('writes each mode so that it reads back on the same column', () => {
    expect(print([title('machine learning')])).toBe('works where title has (machine learning)')
    expect(print([title('"whopper junior"')])).toBe('works where title has (stemmed "whopper junior")')
    expect(print([title('cat', 'display_name.search.exact')])).toBe('works where title has ("cat")')
    expect(print([title('"climate change"', 'display_name.search.exact')])).toBe(
      'works where title has ("climate change")',
    )
    expect(print([title('wom?n', 'display_name.search.exact')])).toBe('works where title has ("wom?n")')
  })

  it('writes proximity as within N (…), quoting the operands of exact columns', () => {
    expect(print([title('"smart"~3~"phone"')])).toBe('works where title has (within 3 (smart, phone))')
    expect(print([title('"foo"~3~"bar"~"baz"', 'display_name.search.exact')])).toBe(
      'works where title has (within 3 ("foo", "bar", "baz"))',
    )
    expect(print([title('"smart phone"~2')])).toBe('works where title has (within 2 (smart, phone))')
  })

  it('quotes keywords inside a run of words, and keeps a lone keyword stemmed', () => {
    expect(print([title('road traffic safety and Ghana', 'title_and_abstract.search')])).toBe(
      'works where title/abstract has (road traffic safety "and" Ghana)',
    )
    expect(print([title('not')])).toBe('works where title has (stemmed "not")')
  })

  it('splits bare words on an exact column into exact words (De Morgan under not)', () => {
    expect(print([title('machine learning', 'display_name.search.exact')])).toBe(
      'works where title has ("machine" and "learning")',
    )
    expect(print([title('machine learning', 'display_name.search.exact', true)])).toBe(
      'works where title has (not "machine" or not "learning")',
    )
  })

  it('writes a quoted phrase bare where the entity has no exact columns', () => {
    const oqo = canonicalizeOqo({
      get_rows: 'authors',
      filter_rows: [{ column_id: 'display_name.search', value: '"albert einstein"', operator: 'has' }],
    })
    expect(printOql(oqo)).toBe('authors where name has ("albert einstein")')
  })
})

describe('structure', () => {
  it('merges same-field siblings into one clause at the first one, booleans inside the group', () => {
    expect(
      print([
        { column_id: 'display_name.search', value: 'apple', operator: 'has' },
        { column_id: 'type', value: 'article', is_negated: true },
        { column_id: 'display_name.search.exact', value: 'pear', operator: 'has' },
        { column_id: 'type', value: 'review' },
      ]),
    ).toBe('works where title has (apple and "pear") and type is (not article and review)')
  })

  it('never merges comparisons, booleans, dates, collections or a lone unknown', () => {
    expect(
      print([
        { column_id: 'publication_year', value: 2019, operator: '>=' },
        { column_id: 'publication_year', value: 2023, operator: '<=' },
        { column_id: 'open_access.is_oa', value: true },
        { column_id: 'open_access.is_oa', value: false },
        { column_id: 'publication_date', value: '2020-01-01' },
        { column_id: 'publication_date', value: '2020-01-02' },
        { column_id: 'authorships.countries', value: 'col_a', operator: 'in collection' },
        { column_id: 'authorships.countries', value: 'col_b', operator: 'in collection' },
        { column_id: 'language', value: 'en' },
        { column_id: 'language', value: null },
      ]),
    ).toBe(
      [
        'works where year >= (2019)',
        '  and year <= (2023)',
        '  and open access is (true)',
        '  and open access is (false)',
        '  and date is (2020-01-01)',
        '  and date is (2020-01-02)',
        '  and country is in collection (col_a)',
        '  and country is in collection (col_b)',
        '  and language is (en)',
        '  and language is (unknown)',
      ].join('\n'),
    )
  })

  it('factors a uniform subtree into one clause and parenthesises every nested group', () => {
    expect(
      print([
        {
          join: 'or',
          filters: [
            { column_id: 'display_name.search', value: 'foo', operator: 'has' },
            {
              join: 'and',
              filters: [
                { column_id: 'display_name.search', value: 'bar', operator: 'has' },
                { column_id: 'display_name.search', value: 'baz', operator: 'has' },
              ],
            },
          ],
        },
      ]),
    ).toBe('works where title has (foo or (bar and baz))')
    expect(
      print([
        {
          join: 'or',
          filters: [
            {
              join: 'and',
              filters: [
                { column_id: 'type', value: 'article' },
                { column_id: 'publication_year', value: 2020 },
              ],
            },
            { column_id: 'open_access.is_oa', value: true },
          ],
        },
        { column_id: 'language', value: 'en' },
      ]),
    ).toBe(
      'works where ((type is (article) and year is (2020)) or open access is (true))\n  and language is (en)',
    )
  })

  it('prints a lone top-level OR without parentheses', () => {
    expect(
      print([
        {
          join: 'or',
          filters: [
            { column_id: 'abstract.search', value: 'banana', operator: 'has' },
            { column_id: 'display_name.search', value: 'apple', operator: 'has' },
          ],
        },
      ]),
    ).toBe('works where abstract has (banana) or title has (apple)')
  })

  it('skips an empty branch, which holds no condition (non-canonical input)', () => {
    const oqo: Oqo = {
      get_rows: 'works',
      filter_rows: [
        { join: 'and', filters: [] } as unknown as Filter,
        { column_id: 'type', value: 'article' },
      ],
    }
    expect(printOql(oqo)).toBe('works where type is (article)')
  })

  it('writes a negated branch that was not canonicalised as not ( … )', () => {
    const oqo: Oqo = {
      get_rows: 'works',
      filter_rows: [
        {
          join: 'or',
          is_negated: true,
          filters: [
            { column_id: 'type', value: 'article' },
            { column_id: 'open_access.is_oa', value: true },
          ],
        },
      ],
    }
    expect(printOql(oqo)).toBe('works where not (type is (article) or open access is (true))')
  })
})

describe('annotations', () => {
  it('annotates named ids only when a lookup is given, and says so when it finds nothing', () => {
    const filters: Filter[] = [
      { column_id: 'authorships.countries', value: 'US' },
      { column_id: 'authorships.institutions.lineage', value: 'I1' },
      { column_id: 'type', value: 'article' },
      { column_id: 'ids.openalex', value: 'W1' },
      { column_id: 'authorships.countries', value: 'col_eu27', operator: 'in collection' },
      { column_id: 'language', value: null },
    ]
    expect(print(filters)).toBe(
      [
        'works where country is (US)',
        '  and institution is (I1)',
        '  and type is (article)',
        '  and openalex id is (W1)',
        '  and country is in collection (col_eu27)',
        '  and language is (unknown)',
      ].join('\n'),
    )
    expect(print(filters, { names })).toBe(
      [
        'works where country is (US [United States])',
        '  and institution is (I1 [no entity found])',
        '  and type is (article)',
        '  and openalex id is (W1)',
        '  and country is in collection (col_eu27)',
        '  and language is (unknown)',
      ].join('\n'),
    )
  })

  it('asks the lookup with the entity the id belongs to, and shortens long names to 50 characters', () => {
    const asked: string[] = []
    const long = 'A Very Long Institution Name That Goes On And On Past Fifty Characters'
    const text = print([{ column_id: 'authorships.institutions.lineage', value: 'I1' }], {
      names: (entity, id) => {
        asked.push(`${entity}:${id}`)
        return long
      },
    })
    expect(asked).toEqual(['institutions:I1'])
    expect(text).toBe(`works where institution is (I1 [${long.slice(0, 49)}…])`)
    expect(long.slice(0, 49).length + 1).toBe(50)
  })
})

describe('layout', () => {
  it('keeps a query of up to 80 columns on one line', () => {
    const text = print([countries(['AR', 'BR']), { column_id: 'publication_year', value: 2020 }], { names })
    expect(text).toBe('works where country is (AR [Argentina] or BR [Brazil]) and year is (2020)')
    expect(text.length).toBeLessThanOrEqual(80)
  })

  it('explodes a wide first clause with its items at indent 4 and its ) at 2 (corpus row 4)', () => {
    expect(
      print(
        [
          { column_id: 'authorships.countries', value: 'GB', is_negated: true },
          { column_id: 'authorships.countries', value: 'US', is_negated: true },
          { column_id: 'authorships.countries', value: 'ZA', is_negated: true },
        ],
        { names },
      ),
    ).toBe(
      [
        'works where country is (',
        '    not GB [United Kingdom]',
        '    and not US [United States]',
        '    and not ZA [South Africa]',
        '  )',
      ].join('\n'),
    )
  })

  it('puts one of up to 8 items per line, and packs more than 8 into full lines led by the connective', () => {
    const eight = ['AR', 'BR', 'CA', 'DE', 'FR', 'GB', 'JP', 'US']
    expect(print([countries(eight)], { names })).toBe(
      [
        'works where country is (',
        '    AR [Argentina]',
        '    or BR [Brazil]',
        '    or CA [Canada]',
        '    or DE [Germany]',
        '    or FR [France]',
        '    or GB [United Kingdom]',
        '    or JP [Japan]',
        '    or US [United States]',
        '  )',
      ].join('\n'),
    )
    expect(print([countries([...eight, 'ZA'])], { names })).toBe(
      [
        'works where country is (',
        '    AR [Argentina] or BR [Brazil] or CA [Canada] or DE [Germany] or FR [France]',
        '    or GB [United Kingdom] or JP [Japan] or US [United States]',
        '    or ZA [South Africa]',
        '  )',
      ].join('\n'),
    )
  })

  it('explodes over-wide nested groups recursively and leaves an unbreakable value long', () => {
    const term = (value: string): Filter => ({
      column_id: 'title_and_abstract.search',
      value,
      operator: 'has',
    })
    const text = print([
      term('agile'),
      { join: 'or', filters: [term('"demand chain"'), term('"supply chain"'), term('"value chain"')] },
      { column_id: 'abstract.search.semantic', value: 'x '.repeat(50).trim(), operator: 'has' },
    ])
    expect(text).toBe(
      [
        'works where title/abstract has (',
        '    agile',
        '    and (',
        '      stemmed "demand chain"',
        '      or stemmed "supply chain"',
        '      or stemmed "value chain"',
        '    )',
        '  )',
        `  and abstract is similar to ("${'x '.repeat(50).trim()}")`,
      ].join('\n'),
    )
  })

  it('lays out a parenthesised group of clauses over several lines', () => {
    expect(
      print(
        [
          {
            join: 'or',
            filters: [countries(['AR', 'BR', 'CA', 'DE']), { column_id: 'open_access.is_oa', value: true }],
          },
          { column_id: 'publication_year', value: 2020 },
        ],
        { names },
      ),
    ).toBe(
      [
        'works where (',
        '    country is (AR [Argentina] or BR [Brazil] or CA [Canada] or DE [Germany])',
        '    or open access is (true)',
        '  )',
        '  and year is (2020)',
      ].join('\n'),
    )
  })

  it('puts each directive on its own line once the query is too wide, the conditions staying together if they fit', () => {
    const oqo = works(
      [
        { column_id: 'authorships.institutions.lineage', value: 'I154570441' },
        { column_id: 'is_retracted', value: true },
      ],
      {
        group_by: [{ column_id: 'authorships.author.id' }],
        sample: 100,
      },
    )
    expect(printOql(oqo)).toBe(
      'works where institution is (I154570441) and retracted is (true)\ngroup by author\nsample 100',
    )
    expect(printOqlOneline(oqo)).toBe(
      'works where institution is (I154570441) and retracted is (true) group by author sample 100',
    )
  })

  it('follows the width option', () => {
    const filters: Filter[] = [
      { column_id: 'type', value: 'article' },
      { column_id: 'publication_year', value: 2020 },
    ]
    expect(print(filters, { width: 30 })).toBe('works where type is (article)\n  and year is (2020)')
    expect(
      printOqlOneline(works([countries(['AR', 'BR', 'CA', 'DE', 'FR', 'GB', 'JP', 'US', 'ZA'])])),
    ).not.toContain('\n')
  })
})

describe('the token tree', () => {
  it('renders the printed text and says where each token comes from', () => {
    const oqo = works([
      { column_id: 'display_name.search', value: 'apple', operator: 'has' },
      { column_id: 'type', value: 'article' },
      { column_id: 'display_name.search', value: 'pear', operator: 'has', is_negated: true },
    ])
    const tree = renderOqlTree(oqo)
    expect(renderTreeText(tree)).toBe(printOql(oqo))
    const tokens = tree.lines.flatMap((line) => line.tokens)
    const field = tokens.find((token) => token.role === 'field' && token.text === 'title')
    expect(field).toMatchObject({
      columnId: 'display_name.search',
      paths: ['/filter_rows/0', '/filter_rows/2'],
      addr: '1.0',
    })
    expect(tokens.find((token) => token.text === 'pear')).toMatchObject({
      role: 'value',
      value: 'pear',
      path: '/filter_rows/2',
      addr: '1.2',
    })
    expect(
      tokens.filter((token) => token.role === 'keyword').map((token) => [token.text, token.path]),
    ).toEqual([
      ['where', undefined],
      ['not', '/filter_rows/2'],
    ])
    expect(tokens.filter((token) => token.role === 'connective').map((token) => token.addr)).toEqual([
      '1',
      '0',
    ])
  })
})

// §10.3–10.6 concern the URL parser, the HTTP error shapes and the public schema, not printing.
describe('reference bugs (OQL v2.2 §10) that the printer does not copy', () => {
  it('§10.1: keeps the negation of a comparison, a boolean, a date bound and a similarity search', () => {
    // The reference prints `year >= (2020)` for this leaf, which reads back as the opposite condition.
    expect(print([{ column_id: 'publication_year', value: 2020, operator: '>=', is_negated: true }])).toBe(
      'works where not year >= (2020)',
    )
    expect(print([{ column_id: 'open_access.is_oa', value: true, is_negated: true }])).toBe(
      'works where not open access is (true)',
    )
    expect(print([{ column_id: 'from_publication_date', value: '2020-01-01', is_negated: true }])).toBe(
      'works where not date >= (2020-01-01)',
    )
    expect(
      print([{ column_id: 'abstract.search.semantic', value: 'coral', operator: 'has', is_negated: true }]),
    ).toBe('works where not abstract is similar to ("coral")')
  })

  it('§10.1: a De Morgan negated group prints every negation it produced', () => {
    const oqo = canonicalizeOqo({
      get_rows: 'works',
      filter_rows: [
        {
          join: 'or',
          is_negated: true,
          filters: [
            { column_id: 'type', value: 'article' },
            { column_id: 'publication_year', value: 2020, operator: '>=' },
          ],
        },
      ],
    })
    expect(printOql(oqo)).toBe('works where type is (not article) and not year >= (2020)')
  })

  it('§10.2: a missing value inside a group is the unknown sentinel, never a bare null', () => {
    expect(
      print([
        {
          join: 'or',
          filters: [
            { column_id: 'language', value: 'en' },
            { column_id: 'language', value: null },
          ],
        },
      ]),
    ).toBe('works where language is (en or unknown)')
  })

  it('§10.7: annotations come from the lookup it is given, not from a built-in name table', () => {
    const filters: Filter[] = [{ column_id: 'authorships.institutions.lineage', value: 'I33213144' }]
    expect(print(filters, { names: () => 'University of Florida' })).toBe(
      'works where institution is (I33213144 [University of Florida])',
    )
    expect(print(filters)).toBe('works where institution is (I33213144)')
  })
})
