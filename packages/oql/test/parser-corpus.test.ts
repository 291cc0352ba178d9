import { canonicalizeOqo, type Filter, type Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { parseOql, parseOqlSyntax } from '../src/parser/index.ts'
import { corpusRows, okRows } from './corpus-fixtures.ts'

// The normative corpus (spec/conformance): every ok row parses to its OQO and every error row fails
// with its code. OQOs are compared as the reference harness compares them: canonical with sorted operands.

const sorted = (oqo: Oqo): Oqo => canonicalizeOqo(oqo, { sortOperands: true })

const parsed = (text: string): Oqo => {
  const result = parseOql(text)
  if (!result.ok) throw new Error(`${text} → ${result.diagnostics.map((d) => d.message).join(' | ')}`)
  return result.oqo
}

const rows = okRows()
const errorRows = corpusRows().filter((row) => row.status === 'error')

describe('the normative corpus', () => {
  it('has the rows the harness expects (162 ok, 28 error with the rows 199–204)', () => {
    expect(rows).toHaveLength(162)
    expect(errorRows).toHaveLength(28)
  })

  it.each(rows.map((row) => [row.id, row] as const))('ok row %i parses to its OQO', (_id, row) => {
    const result = parseOql(row.oql)
    expect(result.ok ? [] : result.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([])
    if (result.ok) expect(sorted(result.oqo)).toEqual(sorted(row.oqo))
  })

  it.each(errorRows.map((row) => [row.id, row.diagnostic, row] as const))(
    'error row %i fails with %s',
    (_id, code, row) => {
      const result = parseOql(row.oql)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.diagnostics[0]?.code).toBe(code)
    },
  )

  it('returns canonical OQOs in the user operand order (canonicalising again changes nothing)', () => {
    for (const row of rows) {
      const oqo = parsed(row.oql)
      expect(canonicalizeOqo(oqo)).toEqual(oqo)
    }
  })
})

describe('the user order of clauses and values is kept (decision 30)', () => {
  it('keeps clauses, values and search terms as written', () => {
    expect(parsed('works where year >= 2020 and type is (review or article)')).toEqual({
      get_rows: 'works',
      filter_rows: [
        { column_id: 'publication_year', value: 2020, operator: '>=' },
        {
          join: 'or',
          filters: [
            { column_id: 'type', value: 'review' },
            { column_id: 'type', value: 'article' },
          ],
        },
      ],
    })
    const rowsOf = (text: string): readonly Filter[] => parsed(text).filter_rows ?? []
    expect(
      rowsOf('works where title has (zebra and apple)').map((row) => 'value' in row && row.value),
    ).toEqual(['zebra', 'apple'])
  })
})

// Behaviour the reference engine shows beyond the corpus (OQL v2.2 §3 and the engine's outputs in
// Appendix E of the research): each case is an input and the OQO the reference returns for it.
const REFERENCE_CASES: readonly (readonly [string, Oqo])[] = [
  [
    'WORKS WHERE YEAR IS 2020',
    { get_rows: 'works', filter_rows: [{ column_id: 'publication_year', value: 2020 }] },
  ],
  [
    'Works where Type is Article',
    { get_rows: 'works', filter_rows: [{ column_id: 'type', value: 'article' }] },
  ],
  [
    'works [my note] where year is 2020 [trailing note]',
    { get_rows: 'works', filter_rows: [{ column_id: 'publication_year', value: 2020 }] },
  ],
  [
    'works where year is 2020 ; group by type ; sample 10',
    {
      get_rows: 'works',
      filter_rows: [{ column_id: 'publication_year', value: 2020 }],
      sample: 10,
      group_by: [{ column_id: 'type' }],
    },
  ],
  [
    'works where type is not (article or review)',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'type', value: 'article', is_negated: true },
        { column_id: 'type', value: 'review', is_negated: true },
      ],
    },
  ],
  [
    "works where title doesn't have (cancer or tumor)",
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'display_name.search', value: 'cancer', operator: 'has', is_negated: true },
        { column_id: 'display_name.search', value: 'tumor', operator: 'has', is_negated: true },
      ],
    },
  ],
  [
    'works where open access is not true',
    { get_rows: 'works', filter_rows: [{ column_id: 'open_access.is_oa', value: false }] },
  ],
  [
    'works where open access is (not false)',
    { get_rows: 'works', filter_rows: [{ column_id: 'open_access.is_oa', value: true }] },
  ],
  [
    'works where language is not unknown',
    { get_rows: 'works', filter_rows: [{ column_id: 'language', value: null, is_negated: true }] },
  ],
  [
    'works where FWCI >= 1.5',
    { get_rows: 'works', filter_rows: [{ column_id: 'fwci', value: 1.5, operator: '>=' }] },
  ],
  [
    'works where type is (article) or (year >= 2020 and open access is true)',
    {
      get_rows: 'works',
      filter_rows: [
        {
          join: 'or',
          filters: [
            { column_id: 'type', value: 'article' },
            {
              join: 'and',
              filters: [
                { column_id: 'publication_year', value: 2020, operator: '>=' },
                { column_id: 'open_access.is_oa', value: true },
              ],
            },
          ],
        },
      ],
    },
  ],
  [
    'works where title has (a or b and c)',
    {
      get_rows: 'works',
      filter_rows: [
        {
          join: 'or',
          filters: [
            { column_id: 'display_name.search', value: 'a', operator: 'has' },
            {
              join: 'and',
              filters: [
                { column_id: 'display_name.search', value: 'b', operator: 'has' },
                { column_id: 'display_name.search', value: 'c', operator: 'has' },
              ],
            },
          ],
        },
      ],
    },
  ],
  [
    'works where title has (machine learning (a or b))',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'display_name.search', value: 'machine learning', operator: 'has' },
        {
          join: 'or',
          filters: [
            { column_id: 'display_name.search', value: 'a', operator: 'has' },
            { column_id: 'display_name.search', value: 'b', operator: 'has' },
          ],
        },
      ],
    },
  ],
  [
    'works where title has ("x" "y")',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'display_name.search.exact', value: 'x', operator: 'has' },
        { column_id: 'display_name.search.exact', value: 'y', operator: 'has' },
      ],
    },
  ],
  [
    'works where title has (“smart phone”)',
    {
      get_rows: 'works',
      filter_rows: [{ column_id: 'display_name.search.exact', value: '"smart phone"', operator: 'has' }],
    },
  ],
  [
    'works where title has ("""universiteit maastricht""")',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'display_name.search.exact', value: '"universiteit maastricht"', operator: 'has' },
      ],
    },
  ],
  [
    'works where title has (the great gatsby)',
    {
      get_rows: 'works',
      filter_rows: [{ column_id: 'display_name.search', value: 'the great gatsby', operator: 'has' }],
    },
  ],
  [
    'works where the title has (cancer)',
    {
      get_rows: 'works',
      filter_rows: [{ column_id: 'display_name.search', value: 'cancer', operator: 'has' }],
    },
  ],
  [
    'works where title & abstract has (cats & dogs)',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'title_and_abstract.search', value: 'cats', operator: 'has' },
        { column_id: 'title_and_abstract.search', value: 'dogs', operator: 'has' },
      ],
    },
  ],
  [
    'works where title has not machine learning',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'display_name.search', value: 'machine learning', operator: 'has', is_negated: true },
      ],
    },
  ],
  [
    'works where it is cited by (W1) and cites (W2) and references is W3 and it’s related to (W4)',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'cited_by', value: 'W1' },
        { column_id: 'referenced_works', value: 'W2' },
        { column_id: 'referenced_works', value: 'W3' },
        { column_id: 'related_to', value: 'W4' },
      ],
    },
  ],
  [
    'works where publication_year >= 2020 and open_access.is_oa is true and institutions.is_global_south is true',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'publication_year', value: 2020, operator: '>=' },
        { column_id: 'open_access.is_oa', value: true },
        { column_id: 'authorships.institutions.is_global_south', value: true },
      ],
    },
  ],
  [
    'works (xpac) where year is 2020',
    { get_rows: 'works', corpus: 'expansion', filter_rows: [{ column_id: 'publication_year', value: 2020 }] },
  ],
  ['source types', { get_rows: 'source-types' }],
  [
    'authors where name has (einstein)',
    {
      get_rows: 'authors',
      filter_rows: [{ column_id: 'display_name.search', value: 'einstein', operator: 'has' }],
    },
  ],
  [
    'authors where name has ("albert einstein")',
    {
      get_rows: 'authors',
      filter_rows: [{ column_id: 'display_name.search', value: '"albert einstein"', operator: 'has' }],
    },
  ],
  [
    'institutions where country is (CA)',
    { get_rows: 'institutions', filter_rows: [{ column_id: 'country_code', value: 'CA' }] },
  ],
  [
    'works where country is col_eu27',
    { get_rows: 'works', filter_rows: [{ column_id: 'authorships.countries', value: 'col_eu27' }] },
  ],
  [
    'works where work is in collection not col_abc123',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'collection', value: 'col_abc123', operator: 'in collection', is_negated: true },
      ],
    },
  ],
  [
    'works where title/abstract is similar to "ocean acidification"',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'title_and_abstract.search.semantic', value: 'ocean acidification', operator: 'has' },
      ],
    },
  ],
  ['works sample 10 seed abc', { get_rows: 'works', sample: 10, seed: 'abc' }],
  [
    'works where date >= 2020-01-01 and date < 2021-01-01',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'from_publication_date', value: '2020-01-01' },
        { column_id: 'publication_date', value: '2021-01-01', operator: '<' },
      ],
    },
  ],
  [
    'works where title has "climate [zones] rising"',
    {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'display_name.search.exact', value: '"climate [zones] rising"', operator: 'has' },
      ],
    },
  ],
]

describe('reference behaviour beyond the corpus', () => {
  it.each(REFERENCE_CASES)('%s', (text, oqo) => {
    expect(sorted(parsed(text))).toEqual(sorted(oqo))
  })
})

describe('the reference bugs that concern parsing are not copied (§10)', () => {
  it('keeps the negation of a negated comparison (§10.1): the leaf carries is_negated', () => {
    expect(parsed('works where not (type is article or year >= 2020)').filter_rows).toEqual([
      { column_id: 'type', value: 'article', is_negated: true },
      { column_id: 'publication_year', value: 2020, operator: '>=', is_negated: true },
    ])
  })

  it('reads the indexes entity that the public schema forgot (§10.6)', () => {
    expect(parsed('indexes')).toEqual({ get_rows: 'indexes' })
  })

  it('ignores what annotations say: the id is authoritative (§10.7)', () => {
    expect(parsed('works where institution is (I33213144 [Stanford])')).toEqual(
      parsed('works where institution is (I33213144 [Harvard])'),
    )
  })

  it('gives every parse error a position and a span (§10.5)', () => {
    const result = parseOql('works where title has (cancer')
    expect(result.ok).toBe(false)
    if (!result.ok)
      expect(result.diagnostics[0]).toMatchObject({ position: 29, span: { start: 29, end: 29 } })
  })
})

describe('every column the printer can write reads back', () => {
  it('reads any filterable column by its raw id, undocumented ones and search columns included', () => {
    expect(
      parsed('works where authorships.raw_orcid is (x) and keyword.search has (cancer)').filter_rows,
    ).toEqual([
      { column_id: 'authorships.raw_orcid', value: 'x' },
      { column_id: 'keyword.search', value: 'cancer', operator: 'has' },
    ])
  })

  it('reads a raw date column literally, while the word routes the bound to its from/to column', () => {
    expect(
      parsed('works where publication_date <= (2020-01-01) and date <= (2020-01-01)').filter_rows,
    ).toEqual([
      { column_id: 'publication_date', value: '2020-01-01', operator: '<=' },
      { column_id: 'to_publication_date', value: '2020-01-01' },
    ])
  })

  it('reads a raw column id as its value column and its search field, told apart by the operator', () => {
    expect(parsed('works where display_name is (x) and display_name has (x)').filter_rows).toEqual([
      { column_id: 'display_name', value: 'x' },
      { column_id: 'display_name.search', value: 'x', operator: 'has' },
    ])
    expect(parsed('funders where display_name is (x)').filter_rows).toEqual([
      { column_id: 'display_name', value: 'x' },
    ])
    expect(parsed('locations where title is (x) and title has (x)').filter_rows).toEqual([
      { column_id: 'title', value: 'x' },
      { column_id: 'title.search', value: 'x', operator: 'has' },
    ])
  })

  it('takes the casing and value grammar of the column a word names on the entity', () => {
    // `country code` is a country code wherever it is one; `work` is work_id on locations.
    expect(parsed('institutions where country code is fr').filter_rows).toEqual([
      { column_id: 'country_code', value: 'FR' },
    ])
    expect(parsed('funders where country code is fr').filter_rows).toEqual([
      { column_id: 'country_code', value: 'FR' },
    ])
    expect(parsed('locations where work is (W1)').filter_rows).toEqual([
      { column_id: 'work_id', value: 'W1' },
    ])
  })

  it('keeps a not before a yes/no clause on the leaf, and folds the one inside it', () => {
    expect(parsed('works where not open access is (false)').filter_rows).toEqual([
      { column_id: 'open_access.is_oa', value: false, is_negated: true },
    ])
    expect(parsed('works where open access is not (false)').filter_rows).toEqual([
      { column_id: 'open_access.is_oa', value: true },
    ])
  })

  it('takes a date-time on a date-time column', () => {
    expect(parsed('works where updated date >= (2024-01-01T12:30:00)').filter_rows).toEqual([
      { column_id: 'from_updated_date', value: '2024-01-01T12:30:00' },
    ])
  })
})

describe('the syntax tree', () => {
  it('gives every node its span in the text', () => {
    const text = 'works where (year >= 2020 or not type is article) and title has ("climate change")'
    const tree = parseOqlSyntax(text).tree!
    const where = tree.where!.conditions
    expect(where.kind).toBe('branch')
    if (where.kind !== 'branch') return
    const [group, clause] = where.operands
    expect(text.slice(group!.span.start, group!.span.end)).toBe('(year >= 2020 or not type is article)')
    expect(text.slice(clause!.span.start, clause!.span.end)).toBe('title has ("climate change")')
    if (clause?.kind !== 'clause') throw new Error('expected a clause')
    expect(text.slice(clause.subject.span.start, clause.subject.span.end)).toBe('title')
    expect(text.slice(clause.operator!.span.start, clause.operator!.span.end)).toBe('has')
  })
})
