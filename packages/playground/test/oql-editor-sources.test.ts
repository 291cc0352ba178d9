// The editor's sources that need no browser: the lint diagnostics CodeMirror receives (spans, message with
// its fix, quick fixes as actions) and the text a catalog name inserts.
import { describe, expect, it } from 'vitest'
import { oqlEntityValue } from '../src/oql-entity-value.ts'
import { oqlDiagnostics } from '../src/oql-lint-source.ts'

describe('oqlDiagnostics', () => {
  it('places the library diagnostics with their fix text and quick fixes as actions', () => {
    const [diagnostic, ...others] = oqlDiagnostics('works where yaer is 2020')
    expect(others).toEqual([])
    expect(diagnostic).toMatchObject({ from: 12, to: 16, severity: 'error', source: 'OQL_UNKNOWN_FIELD' })
    expect(diagnostic?.message).toMatch(/Did you mean "year"\? GET \/properties\/works lists the columns\.$/)
    expect(diagnostic?.actions?.map((action) => action.name)).toEqual(['Change to year'])
  })

  it('keeps a point at the end of the text inside it, and gives no action where the fix needs a choice', () => {
    const text = 'works where type is (article book'
    const diagnostics = oqlDiagnostics(text)
    expect(diagnostics.length).toBeGreaterThan(0)
    for (const diagnostic of diagnostics) {
      expect(diagnostic.from).toBeLessThanOrEqual(diagnostic.to)
      expect(diagnostic.to).toBeLessThanOrEqual(text.length)
    }
    const twoValues = diagnostics.find(
      (diagnostic) => diagnostic.source === 'OQL_GROUP_VALUES_NEED_CONNECTIVE',
    )
    expect(twoValues?.actions).toEqual([])
  })

  it('has nothing to say about a valid query', () => {
    expect(oqlDiagnostics('works where year is 2020 and type is article')).toEqual([])
  })
})

describe('oqlEntityValue', () => {
  it('writes the short id, then the display name as an annotation', () => {
    expect(
      oqlEntityValue({ id: 'https://openalex.org/I136199984', display_name: 'Harvard University' }),
    ).toBe('I136199984 [Harvard University]')
  })

  it('keeps brackets out of the annotation, which ends at the first ]', () => {
    expect(oqlEntityValue({ id: 'https://openalex.org/A1', display_name: ' Smith [J.]  Jr ' })).toBe(
      'A1 [Smith J. Jr]',
    )
    expect(oqlEntityValue({ id: 'https://openalex.org/S2', display_name: '[]' })).toBe('S2')
  })
})
