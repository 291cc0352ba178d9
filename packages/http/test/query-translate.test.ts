import { MAX_QUERY_BODY_BYTES } from '@oqlkit/http'
import { type NameLookup, type TranslationResult, translate } from '@oqlkit/oql'
import { entityPath, findVocabularyEntry } from '@oqlkit/oqo-schema'
import { afterAll, describe, expect, it } from 'vitest'
import {
  type CorpusRow,
  classicPath,
  corpusRows,
  getJson,
  post,
  rowsWithAllForms,
} from './support/query-requests.ts'
import { useSampleApp } from './support/sample-app.ts'
import { byId } from './support/sample-oracle.ts'

// The translate endpoints (rule 2) and `meta.x_query` (rule 6): GET /query/{oql,oqo,oxurl}/… and POST /query
// answer exactly what `translate()` returns, annotated with the catalog's names; nothing is executed. Classic
// lists carry the same translation in `meta.x_query`.

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

// The expected names: the sample's records, read without the code under test, then the closed vocabularies.
const sampleNames: NameLookup = (entity, id) => {
  const record = byId(entityPath(entity), id)
  return typeof record?.display_name === 'string'
    ? record.display_name
    : findVocabularyEntry(entity, id)?.displayName
}

const expectedOf = (input: Record<string, unknown>): TranslationResult => {
  const plain = translate(input)
  return plain.validation.valid ? translate(input, { names: sampleNames }) : plain
}

const translated = async (path: string) => {
  const response = await getJson<TranslationResult>(sample.app, path)
  expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200)
  return response.body
}

describe('GET /query and the query in the path', () => {
  it('GET /query describes the translate endpoints', async () => {
    const { status, body } = await getJson(sample.app, '/query')
    expect(status).toBe(200)
    expect(Object.keys(body).sort()).toEqual(['documentation_url', 'msg'])
    expect(body.msg).toContain('/query/oql/')
  })

  const oql = 'works where title/abstract has "climate change" and year >= 2020'

  it('OQL, URL-encoded or plain (slashes and quotes included); the query string is not part of it', async () => {
    const expected = expectedOf({ oql })
    expect(await translated(`/query/oql/${encodeURIComponent(oql)}`)).toEqual(expected)
    expect(await translated(`/query/oql/${oql}`)).toEqual(expected)
    expect(await translated(`/query/oql/${encodeURIComponent(oql)}?api_key=abc`)).toEqual(expected)
  })

  it('OQO JSON, URL-encoded or plain', async () => {
    const oqo = {
      get_rows: 'works',
      filter_rows: [{ column_id: 'authorships.institutions.lineage', value: 'I136199984' }],
    }
    const expected = expectedOf({ oqo })
    expect(expected.oql).toContain('[Harvard University]')
    expect(await translated(`/query/oqo/${encodeURIComponent(JSON.stringify(oqo))}`)).toEqual(expected)
    expect(await translated(`/query/oqo/${JSON.stringify(oqo)}`)).toEqual(expected)
  })

  it('a classic URL: raw with its real query string, URL-encoded, or absolute', async () => {
    const url = 'works?filter=publication_year:2020,authorships.countries:US&sort=cited_by_count:desc'
    const expected = expectedOf({ oxurl: url })
    expect(expected.oxurl).toContain('authorships.countries:US')
    expect(await translated(`/query/oxurl/${url}`)).toEqual(expected)
    expect(await translated(`/query/oxurl/${encodeURIComponent(url)}`)).toEqual(expected)
    const absolute = `https://api.openalex.org/${url}`
    expect(await translated(`/query/oxurl/${encodeURIComponent(absolute)}`)).toEqual(
      expectedOf({ oxurl: absolute }),
    )
  })

  it('an invalid query is a 400 whose body is the translation result', async () => {
    for (const [path, input] of [
      [
        `/query/oql/${encodeURIComponent('works where colour is blue')}`,
        { oql: 'works where colour is blue' },
      ],
      [`/query/oqo/${encodeURIComponent('{"get_rows": "planets"}')}`, { oqo: '{"get_rows": "planets"}' }],
      ['/query/oqo/%7Bnot%20json', { oqo: '{not json' }],
      ['/query/oxurl/works%3Ffilter%3Dcolour%3Ablue', { oxurl: 'works?filter=colour:blue' }],
      ['/query/oql/', { oql: '' }],
    ] as const) {
      const response = await getJson<TranslationResult>(sample.app, path)
      expect(response.status, path).toBe(400)
      expect(response.body).toEqual(translate(input))
      expect(response.body.validation.valid).toBe(false)
    }
  })
})

describe('POST /query', () => {
  it('translates each form; nothing is executed and nothing is charged', async () => {
    for (const input of [
      { oql: 'works where country is us and type is article' },
      {
        oqo: { get_rows: 'authors', filter_rows: [{ column_id: 'works_count', value: 100, operator: '>' }] },
      },
      { oxurl: '/works?filter=is_oa:true,publication_year:2020' },
    ]) {
      const { status, body } = await post<TranslationResult & { meta?: unknown }>(sample.app, '/query', input)
      expect(status).toBe(200)
      expect(body).toEqual(expectedOf(input))
      expect(body.meta).toBeUndefined()
    }
  })

  it('annotates ids with the catalog’s names, and ids it does not have as not found', async () => {
    const { body } = await post<TranslationResult>(sample.app, '/query', {
      oql: 'works where institution is I136199984 and author is A1 and country is ca',
    })
    expect(body.oql_oneline).toBe(
      'works where institution is (I136199984 [Harvard University]) and author is (A1 [no entity found]) and country is (CA [Canada])',
    )
  })

  it.each([
    ['both oql and oqo', { oql: 'works', oqo: { get_rows: 'works' } }],
    ['none of oql, oqo or oxurl', { query: 'works' }],
    ['another key beside the query', { oql: 'works', sort: 'cited_by_count:desc' }],
  ])('refuses a body with %s: 400 invalid_body', async (_, input) => {
    const { status, body } = await post<TranslationResult>(sample.app, '/query', input)
    expect(status).toBe(400)
    expect(body.validation.errors[0]).toMatchObject({ type: 'invalid_body', code: 'invalid_body' })
    expect(body).toMatchObject({ oxurl: null, oql: null, oql_oneline: null, oql_render_v2: null, oqo: null })
  })

  it('refuses a body without Content-Type: application/json, or one that is not a JSON object', async () => {
    for (const [options, input] of [
      [{ contentType: null }, { oql: 'works' }],
      [{ contentType: 'text/plain' }, { oql: 'works' }],
      [{ raw: '[1, 2]' }, undefined],
    ] as const) {
      const { status, body } = await post<TranslationResult>(sample.app, '/query', input, options)
      expect(status).toBe(400)
      expect(body.validation.errors[0]?.code).toBe('invalid_body')
    }
  })

  it('takes queries of any length up to the cap; past it a 413', async () => {
    const ids = Array.from({ length: 2000 }, (_, index) => `W${1000 + index}`)
    const long = { oql: `works where openalex id is (${ids.join(' or ')})` }
    const { status, body } = await post<TranslationResult>(sample.app, '/query', long)
    expect(status).toBe(200)
    expect(body.oqo).toEqual(translate(long).oqo)
    const tooLong = await post<TranslationResult>(sample.app, '/query', {
      oql: 'x'.repeat(MAX_QUERY_BODY_BYTES),
    })
    expect(tooLong.status).toBe(413)
    expect(tooLong.body.validation.errors[0]?.code).toBe('payload_too_large')
  })
})

describe('the corpus rows through POST /query give what translate() gives', () => {
  const inputsOf = (row: CorpusRow): Record<string, unknown>[] => [
    ...(row.oql === undefined ? [] : [{ oql: row.oql }]),
    ...(row.oqo === undefined ? [] : [{ oqo: row.oqo }]),
    ...(row.oxurl === undefined ? [] : [{ oxurl: row.oxurl }]),
  ]
  const rows = corpusRows().filter((row) => row.status !== 'out-of-scope')

  it.each(rows.map((row) => [row.id, row.status, row] as const))('row %i (%s)', async (_, status, row) => {
    for (const input of inputsOf(row)) {
      const expected = expectedOf(input)
      const response = await post<TranslationResult>(sample.app, '/query', input)
      expect(response.status).toBe(expected.validation.valid ? 200 : 400)
      expect(response.body).toEqual(expected)
      if (status === 'error') expect(response.body.validation.valid).toBe(false)
    }
  })
})

describe('meta.x_query on classic lists and groups comes from the same translation', () => {
  interface XQueryBody {
    meta: { x_query: { oql: string | null; oqo: unknown; url: string | null } }
  }

  /** Every leaf filter of an OQO, through AND and OR branches. */
  const leavesOf = (filters: unknown): Record<string, unknown>[] =>
    Array.isArray(filters)
      ? filters.flatMap((filter: Record<string, unknown>) =>
          Array.isArray(filter.filters) ? leavesOf(filter.filters) : [filter],
        )
      : []

  /**
   * What in a query this app cannot run, and the words its 501 must name: the sample app has no collection
   * store, so a collection filter reaches the adapter unresolved; and the sample catalog's search index of
   * works has titles, abstracts and full texts but no raw author names. Anything else runs.
   */
  const unsupportedPart = (oqo: unknown): string | undefined => {
    const leaves = leavesOf((oqo as { filter_rows?: unknown }).filter_rows)
    const collection = leaves.find((leaf) => leaf.operator === 'in collection')
    if (collection !== undefined) return `Collection '${String(collection.value)}'`
    return leaves.find((leaf) => leaf.column_id === 'raw_author_name.search')?.column_id as string | undefined
  }

  it('the corpus has rows this app cannot run, and far more it can', () => {
    const unsupported = rowsWithAllForms().filter(
      (row) => unsupportedPart(translate({ oxurl: row.oxurl }).oqo) !== undefined,
    )
    expect(unsupported.length).toBeGreaterThan(0)
    expect(unsupported.length).toBeLessThan(rowsWithAllForms().length / 10)
  })

  it.each(rowsWithAllForms().map((row) => [row.id, row] as const))('row %i', async (_, row) => {
    const response = await getJson<XQueryBody>(sample.app, classicPath(row.oxurl!))
    const expected = translate({ oxurl: row.oxurl })
    const unsupported = unsupportedPart(expected.oqo)
    if (unsupported !== undefined) {
      // A query this catalog cannot run has no envelope: a 501 that says what it cannot do.
      const body = response.body as unknown as { code: string; message: string }
      expect(response.status, JSON.stringify(body)).toBe(501)
      expect(body.code).toBe('not_supported')
      expect(body.message).toContain('This catalog cannot answer the query')
      expect(body.message).toContain(unsupported)
      return
    }
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200)
    expect(response.body.meta.x_query).toEqual({
      oql: expected.oql_oneline,
      oqo: expected.oqo,
      url: classicPath(expected.oxurl!),
    })
  })

  it('url is null when the query has no classic URL', async () => {
    const oqlOnly = corpusRows().find((row) => row.status === 'ok' && row.oxurl_status === 'oql-only')!
    const { status, body } = await post<XQueryBody>(sample.app, '/', { oql: oqlOnly.oql })
    expect(status).toBe(200)
    expect(body.meta.x_query.url).toBeNull()
    expect(body.meta.x_query.oql).toBe(translate({ oql: oqlOnly.oql }).oql_oneline)
    expect(translate({ oql: oqlOnly.oql }).oxurl).toBeNull()
  })

  it('the view parameters of the request are part of the URL', async () => {
    const rows = await getJson<XQueryBody>(
      sample.app,
      '/works?filter=publication_year:2020&sort=cited_by_count:desc&select=id',
    )
    expect(rows.body.meta.x_query.url).toBe(
      '/works?filter=publication_year:2020&sort=cited_by_count:desc&select=id',
    )
    const groups = await getJson<XQueryBody>(
      sample.app,
      '/works?filter=publication_year:2020&group_by=type&sort=count:asc',
    )
    expect(groups.status).toBe(200)
    expect(groups.body.meta.x_query.url).toContain('group_by=type')
    expect(groups.body.meta.x_query.url).toContain('sort=count:asc')
  })
})
