import { readFileSync } from 'node:fs'
import { applyOqlEdits, parseContext, translate, validateOql } from '@oqlkit/oql'
import { afterAll, describe, expect, it } from 'vitest'
import { getJson } from './support/query-requests.ts'
import { useSampleApp } from './support/sample-app.ts'
import { records, shortId } from './support/sample-oracle.ts'

// The editor endpoints (rule 3): GET /validate lints OQL (always 200, stable codes, spans, fixes) and
// GET /parse-context says what the grammar expects at a cursor, with candidates for an autocomplete.

interface Diagnostic {
  code: string
  severity: string
  message: string
  fixit: string
  start: number
  end: number
  line: number
  column: number
  location: string | null
  path: number[] | null
  quick_fixes: { label: string; edits: { start: number; end: number; text: string }[] }[]
}

interface ValidateBody {
  valid: boolean
  oql: string | null
  oql_oneline: string | null
  oqo: unknown
  oxurl: string | null
  diagnostics: Diagnostic[]
}

interface ContextBody {
  entity: string | null
  context: {
    category: string
    state: string
    prefix: string
    replace_range: { start: number; end: number }
    field?: string
    column?: string
    value_kind?: string
    value_entity?: string
    operator?: string
    autocomplete_entity?: string
    after_connective?: string
    sibling?: { field: string; column: string; clause_range: { start: number; end: number } }
    suggestions: { value: string; kind: string; detail?: string }[]
  }
  diagnostic: Diagnostic | null
}

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

const STABLE_CODES = new Set(
  (
    JSON.parse(readFileSync(new URL('../../../spec/diagnostics.json', import.meta.url), 'utf8')) as {
      codes: { code: string }[]
    }
  ).codes.map((entry) => entry.code),
)

const validate = async (q: string | undefined) => {
  const response = await getJson<ValidateBody>(
    sample.app,
    q === undefined ? '/validate' : `/validate?q=${encodeURIComponent(q)}`,
  )
  expect(response.status).toBe(200)
  return response.body
}

const context = async (q: string, pos?: number) => {
  const response = await getJson<ContextBody>(
    sample.app,
    `/parse-context?q=${encodeURIComponent(q)}${pos === undefined ? '' : `&pos=${pos}`}`,
  )
  expect(response.status, JSON.stringify(response.body)).toBe(200)
  return response.body
}

describe('GET /validate', () => {
  it('a valid query: no errors, and its other forms', async () => {
    const q = 'works where year >= 2020 and type is article'
    const body = await validate(q)
    const expected = translate({ oql: q })
    expect(body).toEqual({
      valid: true,
      oql: expected.oql,
      oql_oneline: expected.oql_oneline,
      oqo: expected.oqo,
      oxurl: expected.oxurl,
      diagnostics: [],
    })
  })

  it.each([
    'works where colour is blue',
    'works where year is (2020 and colour is blue',
    'works where country is uk',
    'works where institution is [Harvard]',
    'works where title has "unclosed',
    'planets where year is 2020',
    '',
    '   ',
  ])('always 200, every finding with a stable code, its span and a fix: %j', async (q) => {
    const body = await validate(q)
    const expected = validateOql(q)
    expect(body.valid).toBe(false)
    expect(body).toMatchObject({ oql: null, oql_oneline: null, oqo: null, oxurl: null })
    expect(body.diagnostics).toEqual(
      expected.map((diagnostic) => ({
        code: diagnostic.code,
        severity: diagnostic.severity,
        message: diagnostic.message,
        fixit: diagnostic.fix,
        start: diagnostic.span.start,
        end: diagnostic.span.end,
        line: diagnostic.line,
        column: diagnostic.column,
        location: diagnostic.path ?? null,
        path: diagnostic.address ?? null,
        quick_fixes: diagnostic.quickFixes ?? [],
      })),
    )
    for (const diagnostic of body.diagnostics) {
      expect(STABLE_CODES.has(diagnostic.code), diagnostic.code).toBe(true)
      expect(diagnostic.fixit.length).toBeGreaterThan(0)
      expect(diagnostic.message.endsWith(diagnostic.fixit)).toBe(true)
      expect(diagnostic.start).toBeLessThanOrEqual(diagnostic.end)
      expect(diagnostic.end).toBeLessThanOrEqual(q.length)
    }
  })

  it('reports each broken clause, not only the first', async () => {
    const body = await validate('works where colour is blue and year is abc and shape is round')
    expect(body.diagnostics.length).toBeGreaterThanOrEqual(3)
  })

  it('a validation finding carries the JSON path of the OQO', async () => {
    const body = await validate('works where country is uk')
    expect(body.diagnostics[0]).toMatchObject({ code: 'invalid_value', location: 'filter_rows[0].value' })
  })

  it.each([
    // The outline addresses of the addressing spec's worked example: N.0 a field, N.M its values.
    ['works where type is (article or bogus)', 'filter_rows[0].filters[1].value', [1, 2]],
    [
      'works where title has (animal) and (institution is (I33213144 or I97018004) or type is bogus)',
      'filter_rows[1].filters[2].value',
      [2, 2, 1],
    ],
    ['works where year >= 2019 and language is xx', 'filter_rows[1].value', [2, 1]],
    [
      'works where full text has ((dog or cat) and (play or jump)) and country is (us or zz)',
      // The two search branches merge into clause 1, so the country clause is the second.
      'filter_rows[2].filters[1].value',
      [2, 2],
    ],
  ])('a validation finding names its clause by outline address: %j', async (q, location, path) => {
    const body = await validate(q)
    expect(body.diagnostics).toEqual([expect.objectContaining({ code: 'invalid_value', location, path })])
  })

  it('a parse finding has no address', async () => {
    const body = await validate('works where colour is blue')
    expect(body.diagnostics[0]).toMatchObject({ code: 'OQL_UNKNOWN_FIELD', location: null, path: null })
  })

  it('a certain fix comes as a quick fix an editor can apply, and the fixed text validates', async () => {
    const q = 'works where yaer is 2020'
    const [finding] = (await validate(q)).diagnostics
    expect(finding?.quick_fixes).toEqual([
      { label: expect.any(String), edits: [{ start: 12, end: 16, text: 'year' }] },
    ])
    const fixed = applyOqlEdits(q, finding!.quick_fixes[0]!.edits)
    expect((await validate(fixed)).valid).toBe(true)
    // A fix that needs the writer's choice has only its text.
    const unclear = (await validate('works where colour is blue')).diagnostics[0]
    expect(unclear?.quick_fixes).toEqual([])
    expect(unclear?.fixit).not.toBe('')
  })

  it('without q: the empty query', async () => {
    expect((await validate(undefined)).diagnostics[0]?.code).toBe('OQL_EMPTY')
  })

  it('an unknown parameter is a 400', async () => {
    const response = await getJson(sample.app, '/validate?oql=works')
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ code: 'unknown_parameter', parameter: 'oql' })
  })
})

describe('GET /parse-context', () => {
  it('agrees with parseContext() on category, prefix and range', async () => {
    for (const [q, pos] of [
      ['', 0],
      ['wor', 3],
      ['works ', 6],
      ['works where ', 12],
      ['works where year ', 17],
      ['works where year is 2020 ', 25],
      ['works where year is 2020 and type is art', 40],
      ['works where year is 2020 and type is art', 17],
    ] as const) {
      const body = await context(q, pos)
      const expected = parseContext(q, pos)
      expect(body.entity).toBe(expected.entity)
      expect(body.context.state).toBe(expected.state)
      expect(body.context.prefix).toBe(expected.prefix)
      expect(body.context.replace_range).toEqual(expected.replaceRange)
      expect(body.context.suggestions).toEqual(expected.suggestions)
    }
  })

  it.each([
    // The editor protocol's categories, with the finer state beside them.
    ['', 'entity', 'entity'],
    ['works ', 'directive-keyword', 'after-entity'],
    ['works (', 'value', 'corpus'],
    ['works where ', 'field', 'field'],
    ['works where it ', 'verb-phrase', 'verb-phrase'],
    ['works where year ', 'operator', 'operator'],
    ['works where year is ', 'value', 'value'],
    ['works where title has (', 'value', 'search-term'],
    ['works where year is 2020 ', 'connective', 'connective'],
    ['works where year is 2020 group by ', 'field', 'group-by-field'],
    ['works group ', 'directive-keyword', 'directive'],
    ['works where year is 2020 group ', 'directive-keyword', 'directive'],
    ['works where title has "unclosed', 'none', 'none'],
  ])('reports %j as category %s (state %s)', async (q, category, state) => {
    const body = await context(q)
    expect({ category: body.context.category, state: body.context.state }).toEqual({ category, state })
  })

  it('the entity types at the start', async () => {
    const body = await context('', 0)
    expect(body.context.category).toBe('entity')
    expect(body.context.suggestions.map((suggestion) => suggestion.value)).toContain('works')
  })

  it('candidate fields of the entity', async () => {
    const body = await context('works where ye')
    expect(body.context.category).toBe('field')
    expect(body.context.suggestions).toContainEqual(expect.objectContaining({ value: 'year', kind: 'field' }))
  })

  it('operators for the field’s value kind', async () => {
    const body = await context('works where year ')
    expect(body.context).toMatchObject({
      category: 'operator',
      field: 'year',
      column: 'publication_year',
      value_kind: 'num',
    })
    expect(body.context.suggestions.map((suggestion) => suggestion.value)).toEqual(
      expect.arrayContaining(['is', '>=', '<']),
    )
  })

  it('codes of a closed vocabulary, with their names', async () => {
    const body = await context('works where country is unit')
    expect(body.context).toMatchObject({
      category: 'value',
      field: 'country',
      value_kind: 'enum',
      value_entity: 'countries',
    })
    expect(body.context.suggestions).toContainEqual({ value: 'GB', kind: 'value', detail: 'United Kingdom' })
  })

  it('records of the catalog for an id field', async () => {
    const body = await context('works where institution is harv')
    expect(body.context).toMatchObject({
      category: 'value',
      prefix: 'harv',
      autocomplete_entity: 'institutions',
      column: 'authorships.institutions.lineage',
    })
    const values = body.context.suggestions.filter((suggestion) => suggestion.kind === 'value')
    expect(values.map((suggestion) => suggestion.value)).toContain('I136199984')
    const named = new Map(
      records('institutions').map((record) => [shortId(record.id), String(record.display_name)]),
    )
    for (const suggestion of values) {
      const name = named.get(suggestion.value)
      expect(name, suggestion.value).toBeDefined()
      expect(name!.toLowerCase()).toMatch(/(^|\W)harv/)
      expect(suggestion.detail).toContain(name)
    }
  })

  it('after a connective: the clause another value could join', async () => {
    const body = await context('works where type is article or ')
    expect(body.context.after_connective).toBe('or')
    expect(body.context.sibling).toMatchObject({ field: 'type', column: 'type', clause_range: { start: 12 } })
  })

  it('the first problem before the cursor', async () => {
    const body = await context('works where colour is blue and year ')
    expect(body.diagnostic).toMatchObject({ code: 'OQL_UNKNOWN_FIELD', start: 12, end: 18 })
    expect((await context('works where year ')).diagnostic).toBeNull()
  })

  it('pos defaults to the end of q, and is kept within it', async () => {
    const q = 'works where year '
    expect(await context(q)).toEqual(await context(q, q.length))
    expect(await context(q, 500)).toEqual(await context(q, q.length))
  })

  it.each(['abc', '-1', '1.5'])('pos=%s is a 400', async (pos) => {
    const response = await getJson(sample.app, `/parse-context?q=works&pos=${pos}`)
    expect(response.status).toBe(400)
    expect(response.body).toMatchObject({ code: 'invalid_parameter', parameter: 'pos' })
  })
})
