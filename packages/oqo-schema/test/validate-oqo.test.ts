import {
  type Filter,
  MAX_FILTER_DEPTH,
  MAX_JSON_DEPTH,
  type Oqo,
  parseBoundedJson,
  validateOqo,
} from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { okRows } from './corpus-fixtures.ts'

const rows = okRows()

/** The JSON path of the first leaf of an OQO, and a copy of the OQO with that leaf replaced. */
const withFirstLeaf = (
  oqo: Oqo,
  replace: (leaf: Record<string, unknown>) => unknown,
): { oqo: Oqo; path: string } => {
  const copy = structuredClone(oqo)
  const visit = (filters: Filter[], path: string): string | undefined => {
    for (const [index, filter] of filters.entries()) {
      const here = `${path}[${index}]`
      if ('join' in filter) {
        const found = visit(filter.filters, `${here}.filters`)
        if (found !== undefined) return found
      } else {
        filters[index] = replace(filter as unknown as Record<string, unknown>) as Filter
        return here
      }
    }
    return undefined
  }
  const path = visit(copy.filter_rows ?? [], 'filter_rows')
  if (path === undefined) throw new Error('the OQO has no leaf')
  return { oqo: copy, path }
}

const rowsWithLeaves = rows.filter((row) => (row.oqo.filter_rows?.length ?? 0) > 0)

describe('validateOqo on the corpus', () => {
  it.each(rows.map((row) => [row.id, row.oqo] as const))('row %i: the expected OQO is valid', (_id, oqo) => {
    const result = validateOqo(oqo)
    expect(result.errors).toEqual([])
    expect(result.valid).toBe(true)
  })

  it('covers every ok row of both corpus files', () => {
    expect(rows.length).toBe(162)
  })
})

describe('validateOqo rejects hand-broken variants of every corpus OQO, naming the path', () => {
  const variants: Array<
    [string, (leaf: Record<string, unknown>) => unknown, string, (path: string) => string]
  > = [
    ['an unknown key', (leaf) => ({ ...leaf, colour: 'blue' }), 'invalid_body', (path) => `${path}.colour`],
    [
      'a value of the wrong type',
      (leaf) => ({ ...leaf, value: { nested: true } }),
      'invalid_value_type',
      (path) => `${path}.value`,
    ],
    ['an empty branch', () => ({ join: 'and', filters: [] }), 'empty_branch', (path) => `${path}.filters`],
    ['a bad join', (leaf) => ({ join: 'nor', filters: [leaf] }), 'invalid_join', (path) => `${path}.join`],
    [
      'an unknown operator',
      (leaf) => ({ ...leaf, operator: '!=' }),
      'invalid_operator',
      (path) => `${path}.operator`,
    ],
    [
      'a missing column id',
      ({ column_id: _column, ...leaf }) => leaf,
      'invalid_body',
      (path) => `${path}.column_id`,
    ],
    [
      'an unknown column',
      (leaf) => ({ ...leaf, column_id: 'no_such_column' }),
      'invalid_column',
      (path) => `${path}.column_id`,
    ],
  ]

  for (const [name, breakLeaf, code, pathOf] of variants)
    it.each(rowsWithLeaves.map((row) => [row.id, row.oqo] as const))(`${name} (row %i)`, (_id, oqo) => {
      const broken = withFirstLeaf(oqo, breakLeaf)
      const result = validateOqo(broken.oqo)
      expect(result.valid).toBe(false)
      const error = result.errors.find((candidate) => candidate.code === code)
      expect(error, JSON.stringify(result.errors)).toBeDefined()
      expect(error?.path).toBe(pathOf(broken.path))
      expect(error?.message).toContain(broken.path)
    })

  it.each(rowsWithLeaves.map((row) => [row.id, row.oqo] as const))(
    'an operator the column does not take (row %i)',
    (_id, oqo) => {
      // Search columns take only `has`; every other filter column takes `is` or comparisons, never `has`.
      const broken = withFirstLeaf(oqo, (leaf) => ({
        ...leaf,
        operator: leaf.operator === 'has' ? '>=' : 'has',
      }))
      const result = validateOqo(broken.oqo)
      const error = result.errors.find((candidate) => candidate.code === 'invalid_operator_for_column')
      expect(error, JSON.stringify(result.errors)).toBeDefined()
      expect(error?.path).toBe(`${broken.path}.operator`)
      expect(error?.message).toContain(broken.path)
    },
  )
})

describe('validateOqo messages', () => {
  it('names the key and lists what a node may hold', () => {
    const result = validateOqo({
      get_rows: 'works',
      filter_rows: [{ column_id: 'type', value: 'article', opertor: 'is' }],
    })
    expect(result.errors).toEqual([
      expect.objectContaining({
        code: 'invalid_body',
        path: 'filter_rows[0].opertor',
        message: expect.stringMatching(
          /^filter_rows\[0\]\.opertor must be removed\. .*column_id, value, operator, is_negated/,
        ),
      }),
    ])
  })

  it('suggests the column a typo meant', () => {
    const [error] = validateOqo({
      get_rows: 'works',
      filter_rows: [{ column_id: 'publication_yaer', value: 2020 }],
    }).errors
    expect(error?.message).toContain("Did you mean 'publication_year'")
  })

  it('suggests a code for a country written by name', () => {
    const [error] = validateOqo({
      get_rows: 'works',
      filter_rows: [{ column_id: 'authorships.countries', value: 'Canada' }],
    }).errors
    expect(error?.code).toBe('invalid_value')
    expect(error?.message).toContain("Did you mean 'CA'?")
  })

  it('names the entity of an id given to a column of another entity', () => {
    const [error] = validateOqo({
      get_rows: 'works',
      filter_rows: [{ column_id: 'authorships.institutions.lineage', value: 'W5' }],
    }).errors
    expect(error?.code).toBe('invalid_value')
    expect(error?.message).toContain("'W5' is a work id")
  })

  it('lists the entity types for an unknown get_rows', () => {
    const [error] = validateOqo({ get_rows: 'wroks' }).errors
    expect(error).toMatchObject({ code: 'invalid_entity', path: 'get_rows' })
    expect(error?.message).toContain('"works"')
  })

  it('rejects a sample out of range and a fractional seed', () => {
    const result = validateOqo({ get_rows: 'works', sample: 10_001, seed: 1.5 })
    expect(result.errors.map((error) => error.code)).toEqual(['invalid_sample', 'invalid_seed'])
  })

  it('rejects null with a comparison and a collection id that is malformed', () => {
    const result = validateOqo({
      get_rows: 'works',
      filter_rows: [
        { column_id: 'publication_year', value: null, operator: '>=' },
        { column_id: 'authorships.author.id', value: 'collection-1', operator: 'in collection' },
      ],
    })
    expect(result.errors.map((error) => [error.code, error.path])).toEqual([
      ['invalid_value', 'filter_rows[0].value'],
      ['invalid_value', 'filter_rows[1].value'],
    ])
  })

  it('rejects a collection on a column that holds no ids', () => {
    const [error] = validateOqo({
      get_rows: 'works',
      filter_rows: [{ column_id: 'publication_date', value: 'col_abc', operator: 'in collection' }],
    }).errors
    expect(error?.code).toBe('invalid_operator_for_column')
  })

  it('rejects an empty value instead of running a filter that matches nothing', () => {
    for (const [columnId, value] of [
      ['doi', ''],
      ['biblio.volume', '   '],
      ['authorships.author.id', ''],
      ['type', ' '],
    ] as const) {
      const [error] = validateOqo({ get_rows: 'works', filter_rows: [{ column_id: columnId, value }] }).errors
      expect(error, columnId).toMatchObject({ code: 'invalid_value', path: 'filter_rows[0].value' })
      expect(error?.message).toContain('not empty')
    }
  })

  it('rejects impossible dates and accepts years and full dates', () => {
    const check = (value: string | number) =>
      validateOqo({ get_rows: 'works', filter_rows: [{ column_id: 'publication_date', value }] }).valid
    expect([
      check('2020-02-29'),
      check('2020'),
      check(2020),
      check('2021-02-29'),
      check('2020-13-01'),
      check('May 2020'),
    ]).toEqual([true, true, true, false, false, false])
  })

  it('rejects grouping by a column that cannot be grouped as an invalid column, as the reference does', () => {
    // OQL v2.2 research, tests/oql/test_search_walkthrough_4.py: `works group by citation percentile by
    // subfield` is `invalid_column` ("… is not a groupable column on 'works'").
    for (const [entity, columnId] of [
      ['authors', 'display_name'],
      ['works', 'citation_normalized_percentile.value'],
      ['works', 'abstract.search'],
    ] as const) {
      const [error] = validateOqo({ get_rows: entity, group_by: [{ column_id: columnId }] }).errors
      expect(error).toMatchObject({ code: 'invalid_column', path: 'group_by[0].column_id' })
    }
    // A dimension naming no column at all is still a malformed group_by.
    const [unknown] = validateOqo({ get_rows: 'works', group_by: [{ column_id: 'colour' }] }).errors
    expect(unknown).toMatchObject({ code: 'invalid_group_by', path: 'group_by[0].column_id' })
  })

  it('warns about a corpus outside works, a seed without sample and embedded view keys', () => {
    const result = validateOqo({
      get_rows: 'authors',
      corpus: 'all',
      seed: '7',
      sort_by: [{ column_id: 'works_count', direction: 'desc' }],
    })
    expect(result.valid).toBe(true)
    expect(result.warnings.map((warning) => warning.code)).toEqual([
      'corpus_ignored',
      'seed_without_sample',
      'embedded_view_parameter',
    ])
  })

  it('never throws, whatever it is given', () => {
    for (const input of [
      null,
      undefined,
      42,
      'works',
      [],
      { get_rows: null },
      { filter_rows: 'x' },
      { get_rows: 'works', filter_rows: [null, [], 3] },
    ])
      expect(validateOqo(input).valid).toBe(false)
  })

  it('accepts the work-types alias of types', () => {
    expect(
      validateOqo({ get_rows: 'work-types', filter_rows: [{ column_id: 'id', value: 'article' }] }).errors,
    ).toEqual([])
  })
})

// Found by the HTTP fuzzer: a body nesting a few thousand branches overflowed the stack of every layer
// that walks the filter tree, and the server answered 500.
describe('nesting limits', () => {
  const nested = (depth: number): Oqo => {
    let filter: Filter = { column_id: 'publication_year', value: 2020, operator: 'is' } as Filter
    for (let i = 0; i < depth; i++) filter = { join: i % 2 === 0 ? 'and' : 'or', filters: [filter] } as Filter
    return { get_rows: 'works', filter_rows: [filter] } as Oqo
  }

  it(`takes branches nested ${MAX_FILTER_DEPTH} deep and refuses one more level as invalid_body`, () => {
    expect(validateOqo(nested(MAX_FILTER_DEPTH)).valid).toBe(true)
    const refused = validateOqo(nested(MAX_FILTER_DEPTH + 1))
    expect(refused.valid).toBe(false)
    expect(refused.errors).toHaveLength(1)
    expect(refused.errors[0]!.code).toBe('invalid_body')
    expect(refused.errors[0]!.message).toMatch(/more than 256 levels deep/)
  })

  it('refuses 5,000 levels without overflowing the stack', () => {
    expect(validateOqo(nested(5_000)).valid).toBe(false)
  })

  it('parses request JSON up to MAX_JSON_DEPTH levels and throws a SyntaxError past them', () => {
    const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
    expect(() => parseBoundedJson(arrays(MAX_JSON_DEPTH))).not.toThrow()
    expect(() => parseBoundedJson(arrays(MAX_JSON_DEPTH + 1))).toThrow(SyntaxError)
    expect(() => parseBoundedJson(arrays(100_000))).toThrow(/nests 100000 levels deep/)
    // Brackets inside strings (escaped quotes too) are text, not nesting.
    expect(parseBoundedJson(JSON.stringify({ a: `\\"${'['.repeat(5_000)}` }))).toEqual({
      a: `\\"${'['.repeat(5_000)}`,
    })
    expect(() => parseBoundedJson('{')).toThrow(SyntaxError)
  })
})
