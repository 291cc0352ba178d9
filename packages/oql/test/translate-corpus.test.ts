import { canonicalizeOqo, type Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { translate } from '../src/index.ts'
import { corpusNameLookup, corpusRows, okRows } from './corpus-fixtures.ts'

// Every corpus row through the one public entry point. OQOs are compared in sorted canonical form (the
// corpus harness does the same); the canonical OQL is compared byte for byte with annotations drawn
// from the corpus's own name table, since the stored text was annotated from it.

const names = corpusNameLookup()
const sorted = (oqo: Oqo | null): Oqo | null =>
  oqo === null ? null : canonicalizeOqo(oqo, { sortOperands: true })
const rows = okRows()
const errorRows = corpusRows().filter((row) => row.status === 'error')

describe('translate() over the corpus', () => {
  it.each(rows.map((row) => [row.id, row] as const))(
    'ok row %i from OQL: OQO, URL and canonical OQL',
    (_id, row) => {
      const result = translate({ oql: row.oql }, { names })
      expect(result.validation.errors).toEqual([])
      expect(sorted(result.oqo)).toEqual(sorted(row.oqo))
      expect(result.oql).toBe(row.oql)
      expect(result.oxurl).toBe(row.oxurl ?? null)
      if (row.oxurl == null)
        expect(result.validation.warnings.map((warning) => warning.type)).toContain('url_not_representable')
    },
  )

  it.each(rows.map((row) => [row.id, row] as const))(
    'ok row %i from OQO and, where it has one, from the URL',
    (_id, row) => {
      const fromOqo = translate({ oqo: row.oqo }, { names })
      expect(sorted(fromOqo.oqo)).toEqual(sorted(row.oqo))
      expect(fromOqo.oxurl).toBe(row.oxurl ?? null)
      if (row.oxurl != null) {
        const fromUrl = translate({ oxurl: row.oxurl }, { names })
        expect(fromUrl.oqo).toEqual(sorted(row.oqo))
        expect(fromUrl.oql).toBe(row.oql)
      }
    },
  )

  it.each(errorRows.map((row) => [row.id, row] as const))(
    'error row %i gives its diagnostic code',
    (_id, row) => {
      const result = translate({ oql: row.oql })
      expect(result.validation.valid).toBe(false)
      expect(result.validation.errors.map((error) => error.code)).toContain(row.diagnostic)
      const parseError = result.validation.errors.find((error) => error.type === 'parse_error')
      if (parseError !== undefined) {
        expect(parseError.position).toBeGreaterThanOrEqual(0)
        expect(parseError.context).not.toBeNull()
      }
    },
  )

  it('runs every ok and error row of both corpus files', () => {
    expect([rows.length, errorRows.length]).toEqual([162, 28])
  })
})

describe('translate() input rules', () => {
  it('needs exactly one of oql, oqo and oxurl', () => {
    for (const input of [{}, { oql: 'works', oqo: { get_rows: 'works' } }, null, 'works']) {
      const result = translate(input)
      expect(result.validation.errors).toEqual([
        expect.objectContaining({ type: 'invalid_body', code: 'invalid_body' }),
      ])
      expect(result.oqo).toBeNull()
    }
  })

  it('reports an OQO that fails validation with its location, and keeps the OQO', () => {
    const oqo = { get_rows: 'works', filter_rows: [{ column_id: 'publication_yaer', value: 2020 }] }
    const result = translate({ oqo })
    expect(result.validation.errors).toEqual([
      expect.objectContaining({
        type: 'bad_request',
        code: 'invalid_column',
        location: 'filter_rows[0].column_id',
      }),
    ])
    expect(result.oqo).toEqual(oqo)
    expect(result.oql).toBeNull()
  })

  it('accepts an OQO as JSON text and reports text that is not JSON', () => {
    expect(translate({ oqo: '{"get_rows":"works"}' }).oql).toBe('works')
    expect(translate({ oqo: '{get_rows' }).validation.errors[0]).toMatchObject({ type: 'invalid_body' })
  })

  it('names an unknown entity as invalid_entity', () => {
    expect(translate({ oqo: { get_rows: 'wroks' } }).validation.errors[0]?.type).toBe('invalid_entity')
  })

  it('never throws on odd input', () => {
    for (const input of [
      { oql: '' },
      { oql: 42 },
      { oxurl: '' },
      { oxurl: '::' },
      { oqo: [] },
      { oql: '(((((' },
    ])
      expect(translate(input).validation.valid).toBe(false)
  })
})
