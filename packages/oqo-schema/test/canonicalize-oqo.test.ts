import { canonicalizeOqo, type Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { okRows } from './corpus-fixtures.ts'

describe('canonicalizeOqo', () => {
  it('pushes a branch negation to the leaves (De Morgan) and hoists the resulting AND', () => {
    const oqo: Oqo = {
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
    }
    expect(canonicalizeOqo(oqo)).toEqual({
      get_rows: 'works',
      filter_rows: [
        { column_id: 'type', value: 'article', is_negated: true },
        { column_id: 'publication_year', value: 2020, operator: '>=', is_negated: true },
      ],
    })
  })

  it('cancels double negation', () => {
    const oqo: Oqo = {
      get_rows: 'works',
      filter_rows: [
        {
          join: 'and',
          is_negated: true,
          filters: [{ column_id: 'type', value: 'article', is_negated: true }],
        },
      ],
    }
    expect(canonicalizeOqo(oqo).filter_rows).toEqual([{ column_id: 'type', value: 'article' }])
  })

  it('collapses alias column ids and the work-types entity alias', () => {
    const oqo: Oqo = {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'is_oa', value: true },
        { column_id: 'cites', value: 'W2741809807' },
        { column_id: 'title.search', value: 'graph', operator: 'has' },
        { column_id: 'primary_location.source.publisher_lineage', value: 'P4310320990' },
      ],
      group_by: [{ column_id: 'institutions.id' }],
    }
    expect(canonicalizeOqo(oqo)).toEqual({
      get_rows: 'works',
      filter_rows: [
        { column_id: 'open_access.is_oa', value: true },
        { column_id: 'referenced_works', value: 'W2741809807' },
        { column_id: 'display_name.search', value: 'graph', operator: 'has' },
        { column_id: 'primary_location.source.host_organization_lineage', value: 'P4310320990' },
      ],
      group_by: [{ column_id: 'authorships.institutions.id' }],
    })
    expect(canonicalizeOqo({ get_rows: 'work-types' }).get_rows).toBe('types')
  })

  it('flattens same-join nesting, unwraps single children and keeps mixed joins', () => {
    const a = { column_id: 'type', value: 'article' }
    const b = { column_id: 'type', value: 'review' }
    const c = { column_id: 'publication_year', value: 2020 }
    const oqo: Oqo = {
      get_rows: 'works',
      filter_rows: [
        { join: 'and', filters: [{ join: 'and', filters: [c] }] },
        { join: 'or', filters: [a, { join: 'or', filters: [b] }] },
      ],
    }
    expect(canonicalizeOqo(oqo).filter_rows).toEqual([c, { join: 'or', filters: [a, b] }])
  })

  it('types values per column kind', () => {
    const oqo: Oqo = {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'publication_year', value: '2020' },
        { column_id: 'fwci', value: '1.5', operator: '>' },
        { column_id: 'open_access.is_oa', value: 'TRUE' },
        { column_id: 'authorships.countries', value: 'us' },
        { column_id: 'type', value: 'Article' },
        { column_id: 'sustainable_development_goals.id', value: 3 },
        { column_id: 'authorships.author.id', value: 'https://openalex.org/A5023888391' },
        { column_id: 'authorships.institutions.lineage', value: 'institutions/i33213144' },
        { column_id: 'keywords.id', value: 'keywords/animal-model' },
        { column_id: 'doi', value: 10 },
      ],
    }
    expect(
      canonicalizeOqo(oqo).filter_rows?.map((leaf) => ('value' in leaf ? leaf.value : undefined)),
    ).toEqual([
      2020,
      1.5,
      true,
      'US',
      'article',
      '3',
      'A5023888391',
      'i33213144',
      'keywords/animal-model',
      '10',
    ])
  })

  it('makes the seed a string, drops nulls, core and empty lists, and orders keys as the reference does', () => {
    const oqo = {
      seed: 42,
      group_by: [],
      sample: 100,
      filter_rows: [],
      corpus: 'core',
      get_rows: 'works',
    } as Oqo
    const canonical = canonicalizeOqo(oqo)
    expect(canonical).toEqual({ get_rows: 'works', sample: 100, seed: '42' })
    expect(
      Object.keys(canonicalizeOqo({ ...oqo, corpus: 'all', group_by: [{ column_id: 'type' }] })),
    ).toEqual(['get_rows', 'corpus', 'sample', 'group_by', 'seed'])
    expect(canonicalizeOqo({ get_rows: 'works', sample: null, seed: null })).toEqual({ get_rows: 'works' })
  })

  it('turns a top-level is_xpac leaf into the corpus, and drops corpus outside works', () => {
    expect(
      canonicalizeOqo({ get_rows: 'works', filter_rows: [{ column_id: 'is_xpac', value: true }] }),
    ).toEqual({
      get_rows: 'works',
      corpus: 'expansion',
    })
    expect(
      canonicalizeOqo({ get_rows: 'works', filter_rows: [{ column_id: 'is_xpac', value: 'false' }] }),
    ).toEqual({
      get_rows: 'works',
    })
    expect(canonicalizeOqo({ get_rows: 'authors', corpus: 'all' })).toEqual({ get_rows: 'authors' })
  })

  it('keeps the user order by default and sorts the reference way on request', () => {
    const oqo: Oqo = {
      get_rows: 'works',
      filter_rows: [
        {
          join: 'or',
          filters: [
            { column_id: 'type', value: 'review' },
            { column_id: 'type', value: 'article' },
          ],
        },
        { column_id: 'publication_year', value: 2024, operator: '<=' },
        { column_id: 'publication_year', value: 2020, operator: '>=' },
        { column_id: 'language', value: 'en', is_negated: true },
        { column_id: 'language', value: 'de' },
      ],
    }
    expect(canonicalizeOqo(oqo).filter_rows).toEqual(oqo.filter_rows)
    // Leaves before branches, a lower bound before an upper bound, a negated leaf before its positive twin.
    expect(canonicalizeOqo(oqo, { sortOperands: true }).filter_rows).toEqual([
      { column_id: 'language', value: 'en', is_negated: true },
      { column_id: 'language', value: 'de' },
      { column_id: 'publication_year', value: 2020, operator: '>=' },
      { column_id: 'publication_year', value: 2024, operator: '<=' },
      {
        join: 'or',
        filters: [
          { column_id: 'type', value: 'article' },
          { column_id: 'type', value: 'review' },
        ],
      },
    ])
  })

  it.each(okRows().map((row) => [row.id, row.oqo] as const))(
    'corpus row %i: the expected OQO is a fixed point of the sorted canonical form',
    (_id, oqo) => {
      const sorted = canonicalizeOqo(oqo, { sortOperands: true })
      expect(canonicalizeOqo(sorted, { sortOperands: true })).toEqual(sorted)
    },
  )
})

describe('canonicalizeOqo on search values', () => {
  const has = (column_id: string, value: string, is_negated?: true) =>
    is_negated === undefined
      ? { column_id, value, operator: 'has' as const }
      : { column_id, value, operator: 'has' as const, is_negated }

  it('splits a bare multi-word exact value into one leaf per word, De Morgan when negated', () => {
    expect(
      canonicalizeOqo({
        get_rows: 'works',
        filter_rows: [has('display_name.search.exact', 'Beyond Data Gaps:')],
      }).filter_rows,
    ).toEqual([
      has('display_name.search.exact', 'Beyond'),
      has('display_name.search.exact', 'Data'),
      has('display_name.search.exact', 'Gaps:'),
    ])
    expect(
      canonicalizeOqo({
        get_rows: 'works',
        filter_rows: [has('display_name.search.exact', 'cancer treatment', true)],
      }).filter_rows,
    ).toEqual([
      {
        join: 'or',
        filters: [
          has('display_name.search.exact', 'cancer', true),
          has('display_name.search.exact', 'treatment', true),
        ],
      },
    ])
  })

  it('lifts a stemmed phrase mixed with bare words into an AND, and keeps phrases, runs and proximity whole', () => {
    expect(
      canonicalizeOqo({
        get_rows: 'works',
        filter_rows: [has('display_name.search', '"machine learning" neural')],
      }).filter_rows,
    ).toEqual([has('display_name.search', '"machine learning"'), has('display_name.search', 'neural')])
    for (const [column, value] of [
      ['display_name.search', 'machine learning'],
      ['display_name.search', '"machine learning"'],
      ['display_name.search.exact', '"climate change"'],
      ['title_and_abstract.search.exact', '"smart"~3~"phone"'],
    ] as const)
      expect(canonicalizeOqo({ get_rows: 'works', filter_rows: [has(column, value)] }).filter_rows).toEqual([
        has(column, value),
      ])
  })
})

describe('canonicalizeOqo with several is_xpac leaves', () => {
  it('keeps them as filters, so canonicalising again changes nothing', () => {
    const oqo = {
      get_rows: 'works',
      filter_rows: [
        { column_id: 'is_xpac', value: false },
        { column_id: 'is_xpac', value: true },
      ],
    } satisfies Oqo
    const once = canonicalizeOqo(oqo, { sortOperands: true })
    expect(once.corpus).toBeUndefined()
    expect(once.filter_rows).toHaveLength(2)
    expect(canonicalizeOqo(once, { sortOperands: true })).toEqual(once)
  })
})
