import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { getJson } from './support/query-requests.ts'
import { useSampleApp } from './support/sample-app.ts'

// Rule 4: the properties registry (GET /properties, /properties/{entity}) and the specification artifacts
// (GET /query/spec, /query/spec/oqo, /openapi.json), each the same document as its committed file in spec/.

interface PropertiesBody {
  meta: {
    version: string
    fingerprint: string
    entity_count: number
    property_count: number
    entity?: string
  }
  properties: Record<string, Record<string, Record<string, unknown>>>
}

const sample = useSampleApp()
afterAll(() => expect(sample.faults).toEqual([]))

const specFile = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(`../../../spec/${name}`, import.meta.url), 'utf8')) as T

const committed = specFile<PropertiesBody>('properties.json')

const ok = async <T>(path: string): Promise<T> => {
  const response = await getJson<T>(sample.app, path)
  expect(response.status, `${path}: ${JSON.stringify(response.body).slice(0, 200)}`).toBe(200)
  expect(response.headers.get('content-type')).toContain('application/json')
  return response.body
}

describe('GET /properties', () => {
  it('is spec/properties.json', async () => {
    expect(await ok('/properties')).toEqual(committed)
  })

  it('lists every column with its operators, value kind, OQL name, aliases and actions', async () => {
    const body = await ok<PropertiesBody>('/properties')
    expect(Object.keys(body.properties)).toHaveLength(body.meta.entity_count)
    const year = body.properties.works?.publication_year
    expect(year).toMatchObject({
      name: 'publication_year',
      display_name: 'year',
      value_kind: 'number',
      operators: expect.arrayContaining(['eq', 'range']),
      actions: expect.arrayContaining(['filter', 'sort', 'group_by']),
      oqo_operators: expect.arrayContaining(['is', '>=']),
    })
    expect(Array.isArray(year?.aliases)).toBe(true)
  })

  it.each([
    ['/properties/works', 'works'],
    ['/properties/authors', 'authors'],
    ['/properties/work-types', 'work-types'],
    ['/properties/types', 'work-types'],
    ['/properties/Institutions', 'institutions'],
    ['/properties?entity=sources', 'sources'],
  ])('%s: one entity', async (path, entity) => {
    const body = await ok<PropertiesBody>(path)
    expect(Object.keys(body.properties)).toEqual([entity])
    expect(body.properties[entity]).toEqual(committed.properties[entity])
    expect(body.meta).toEqual({
      ...committed.meta,
      entity_count: 1,
      property_count: Object.keys(committed.properties[entity]!).length,
      entity,
    })
  })

  it.each(['/properties/planets', '/properties?entity=planets', '/properties/work'])(
    '%s: 404 invalid_entity, naming the entity types',
    async (path) => {
      const response = await getJson(sample.app, path)
      expect(response.status).toBe(404)
      expect(response.body.code).toBe('invalid_entity')
      expect(response.body.message).toContain('works')
    },
  )

  it('an unknown parameter is a 400', async () => {
    const response = await getJson(sample.app, '/properties?entity_type=works')
    expect(response.status).toBe(400)
    expect(response.body.code).toBe('unknown_parameter')
  })
})

describe('the specification artifacts', () => {
  it('GET /query/spec indexes them, and each is served where it says', async () => {
    const body = await ok<{
      artifacts: { slug: string; filename: string; content_type: string; url: string }[]
    }>('/query/spec')
    expect(body.artifacts.map((artifact) => artifact.slug)).toEqual(['oqo', 'api', 'properties'])
    for (const artifact of body.artifacts) {
      expect(await ok(artifact.url)).toEqual(specFile(artifact.filename))
      expect(artifact.content_type).toBe('application/json')
    }
  })

  it('GET /query/spec/oqo is the OQO JSON Schema of spec/', async () => {
    const schema = await ok<Record<string, unknown>>('/query/spec/oqo')
    expect(schema).toEqual(specFile('oqo.schema.json'))
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
  })

  it('GET /openapi.json is spec/openapi.json', async () => {
    expect(await ok('/openapi.json')).toEqual(specFile('openapi.json'))
  })
})
