import { ENTITY_TYPES, type Oqo, propertiesRegistry } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { translate } from '../src/index.ts'

// The three forms of one query (OQL text, OQO, classic URL) agree with each other and with the
// registry: the same casing of closed-vocabulary codes, the same value types, the same path.

const fromOql = (oql: string) => translate({ oql })
const fromOqo = (oqo: Oqo) => translate({ oqo })
const fromUrl = (oxurl: string) => translate({ oxurl })

/** Every form of a query gives the same canonical OQO. */
const expectSameQuery = (forms: { oql: string; oqo: Oqo; url: string }, canonical: Oqo) => {
  for (const result of [fromOql(forms.oql), fromOqo(forms.oqo), fromUrl(forms.url)]) {
    expect(result.validation.errors).toEqual([])
    expect(result.oqo).toEqual(canonical)
  }
}

describe('closed-vocabulary values', () => {
  // Every entity with a country-code column: a work's institutions, an institution, a funder, a publisher, …
  const countryColumns = ENTITY_TYPES.flatMap((entity) =>
    propertiesRegistry
      .columnsOf(entity)
      .filter((column) => column.valueEntity === 'countries' && column.actions.includes('filter'))
      .filter((column) => column.id !== 'id')
      .map((column) => [entity, column.id] as const),
  )

  it('finds country columns on works and on the entities the snapshot leaves untyped', () => {
    const entities = new Set(countryColumns.map(([entity]) => entity))
    for (const entity of ['works', 'institutions', 'funders', 'publishers', 'awards'] as const)
      expect(entities).toContain(entity)
  })

  it.each(countryColumns)('%s %s: a country code is upper case in OQL, OQO and URL', (entity, column) => {
    const canonical: Oqo = { get_rows: entity, filter_rows: [{ column_id: column, value: 'FR' }] }
    expectSameQuery(
      {
        oql: `${entity} where ${column} is fr`,
        oqo: { get_rows: entity, filter_rows: [{ column_id: column, value: 'fr' }] },
        url: `/${entity}?filter=${column}:fr`,
      },
      canonical,
    )
    expect(fromOqo(canonical).oxurl).toBe(`https://openalex.org/${entity}?filter=${column}:FR`)
  })

  it('refuses a code outside the vocabulary on a funder as on a work', () => {
    for (const result of [
      fromOql('funders where country code is uk'),
      fromOqo({ get_rows: 'funders', filter_rows: [{ column_id: 'country_code', value: 'uk' }] }),
      fromUrl('/funders?filter=country_code:uk'),
    ])
      expect(result.validation.errors.map((error) => error.code)).toEqual(['invalid_value'])
  })

  it('lower-cases institution types on awards as on works', () => {
    expectSameQuery(
      {
        oql: 'awards where institution_awarded.type is Education',
        oqo: {
          get_rows: 'awards',
          filter_rows: [{ column_id: 'institution_awarded.type', value: 'Education' }],
        },
        url: '/awards?filter=institution_awarded.type:EDUCATION',
      },
      { get_rows: 'awards', filter_rows: [{ column_id: 'institution_awarded.type', value: 'education' }] },
    )
  })
})

describe('id columns of the vocabulary entities', () => {
  it('keeps the id text of `fields.id` of a domain (typed number by the snapshot), in every form', () => {
    // The reference reads `field` as an id field and keeps the text, as it does `field` on works.
    expectSameQuery(
      {
        oql: 'domains where field is 17',
        oqo: { get_rows: 'domains', filter_rows: [{ column_id: 'fields.id', value: 17 }] },
        url: '/domains?filter=fields.id:17',
      },
      { get_rows: 'domains', filter_rows: [{ column_id: 'fields.id', value: '17' }] },
    )
    expectSameQuery(
      {
        oql: 'fields where subfields.id is (2712)',
        oqo: { get_rows: 'fields', filter_rows: [{ column_id: 'subfields.id', value: 2712 }] },
        url: '/fields?filter=subfields.id:2712',
      },
      { get_rows: 'fields', filter_rows: [{ column_id: 'subfields.id', value: '2712' }] },
    )
    // An id is checked against its vocabulary, and does not compare, in every form.
    const codes = (result: ReturnType<typeof translate>) =>
      result.validation.errors.map((error) => error.code)
    expect(codes(fromOql('domains where field is 9999'))).toEqual(['invalid_value'])
    expect(codes(fromUrl('/domains?filter=fields.id:9999'))).toEqual(['invalid_value'])
    expect(
      codes(fromOqo({ get_rows: 'domains', filter_rows: [{ column_id: 'fields.id', value: 9999 }] })),
    ).toEqual(['invalid_value'])
    expect(codes(fromOql('domains where field > 17'))).toEqual(['OQL_BAD_OPERATOR_FOR_FIELD'])
    expect(codes(fromUrl('/domains?filter=fields.id:%3E17'))).toEqual(['invalid_operator_for_column'])
    expect(
      codes(
        fromOqo({
          get_rows: 'domains',
          filter_rows: [{ column_id: 'fields.id', value: 17, operator: '>' }],
        }),
      ),
    ).toEqual(['invalid_operator_for_column'])
  })

  it('holds the string the registry types `domain.id` of a field with, and checks it is a domain', () => {
    expectSameQuery(
      {
        oql: 'fields where domain is 3',
        oqo: { get_rows: 'fields', filter_rows: [{ column_id: 'domain.id', value: 3 }] },
        url: '/fields?filter=domain.id:3',
      },
      { get_rows: 'fields', filter_rows: [{ column_id: 'domain.id', value: '3' }] },
    )
    expect(fromUrl('/subfields?filter=field.id:999').validation.errors.map((error) => error.code)).toEqual([
      'invalid_value',
    ])
  })
})

describe('operators and values a column does not take', () => {
  const refusal = (result: ReturnType<typeof translate>) => ({
    valid: result.validation.valid,
    oqo: result.oqo,
  })

  it('refuses a comparison on a column without ranges in every form', () => {
    for (const [entity, column, word] of [
      ['works', 'doi', 'DOI'],
      ['works', 'open_access.is_oa', 'open access'],
      ['works', 'type', 'type'],
      ['works', 'authorships.author.id', 'author'],
      ['funders', 'country_code', 'country code'],
    ] as const) {
      expect(refusal(fromOql(`${entity} where ${word} > 5`)), `${entity} ${column} OQL`).toEqual({
        valid: false,
        oqo: null,
      })
      expect(refusal(fromUrl(`/${entity}?filter=${column}:%3E5`)), `${entity} ${column} URL`).toEqual({
        valid: false,
        oqo: null,
      })
      const oqo = fromOqo({
        get_rows: entity,
        filter_rows: [{ column_id: column, value: '5', operator: '>' }],
      })
      expect(oqo.validation.errors.map((error) => error.code)).toEqual(['invalid_operator_for_column'])
    }
    expect(fromUrl('/works?filter=doi:%3E10.1/x').validation.errors.map((error) => error.code)).toEqual([
      'invalid_operator_for_column',
    ])
  })

  it('refuses a value that is not true or false on a boolean column in every form', () => {
    for (const value of ['maybe', '1', 'yes']) {
      expect(refusal(fromOql(`works where open access is ${value}`))).toEqual({ valid: false, oqo: null })
      expect(refusal(fromUrl(`/works?filter=open_access.is_oa:${value}`))).toEqual({
        valid: false,
        oqo: null,
      })
      expect(
        fromOqo({ get_rows: 'works', filter_rows: [{ column_id: 'open_access.is_oa', value }] }).validation
          .valid,
      ).toBe(false)
    }
    // What all three accept: true and false in any case.
    expect(fromUrl('/works?filter=open_access.is_oa:TRUE').oqo).toEqual(
      fromOql('works where open access is True').oqo,
    )
  })
})

describe('the work-types path', () => {
  it('writes the classic URL of work types at /types, as the reference does', () => {
    expect(fromOql('types').oxurl).toBe('https://openalex.org/types')
    expect(
      fromOqo({ get_rows: 'types', filter_rows: [{ column_id: 'works_count', value: 1000, operator: '>' }] })
        .oxurl,
    ).toBe('https://openalex.org/types?filter=works_count:>1000')
  })

  it('reads both /types and the API path /work-types as work types', () => {
    for (const url of ['/types?filter=works_count:%3E1000', '/work-types?filter=works_count:%3E1000']) {
      const result = fromUrl(url)
      expect(result.oqo).toEqual({
        get_rows: 'types',
        filter_rows: [{ column_id: 'works_count', value: 1000, operator: '>' }],
      })
      expect(result.oxurl).toBe('https://openalex.org/types?filter=works_count:>1000')
    }
  })
})
