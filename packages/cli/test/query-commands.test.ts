import { runCli } from '@oqlkit/cli'
import { describe, expect, it } from 'vitest'

const withStdin = (text: string) => ({
  readStdin: async () => text,
  writeProgress: () => {},
  interactive: false,
})

describe('oqlkit translate', () => {
  it('prints the /query result for OQL and exits 0', async () => {
    const result = await runCli(['translate', 'works where year >= 2020 and type is article'])
    expect(result.exitCode).toBe(0)
    const output = JSON.parse(result.stdout ?? '')
    expect(output.oql).toBe('works where year >= (2020) and type is (article)')
    expect(output.oxurl).toBe('https://openalex.org/works?filter=publication_year:2020-,type:article')
    expect(output.validation.valid).toBe(true)
  })

  it('reads an OQO or a URL, and a query from standard input', async () => {
    const fromOqo = await runCli([
      'translate',
      '--oqo',
      '{"get_rows":"authors","filter_rows":[{"column_id":"works_count","value":100,"operator":">"}]}',
    ])
    expect(JSON.parse(fromOqo.stdout ?? '').oql).toBe('authors where works count > (100)')
    const fromUrl = await runCli(['translate', '--url', '-'], withStdin('/works?filter=is_oa:true'))
    expect(JSON.parse(fromUrl.stdout ?? '').oql).toBe('works where open access is (true)')
  })

  it('exits 1 with the errors for a query that does not parse, and 2 for bad usage', async () => {
    const bad = await runCli(['translate', 'works where colour is blue'])
    expect(bad.exitCode).toBe(1)
    expect(JSON.parse(bad.stdout ?? '').validation.errors[0]).toMatchObject({
      type: 'parse_error',
      code: 'OQL_UNKNOWN_FIELD',
    })
    expect((await runCli(['translate'])).exitCode).toBe(2)
    expect((await runCli(['translate', '--oql', '--url', 'works'])).exitCode).toBe(2)
  })
})

describe('oqlkit validate', () => {
  it('lists every diagnostic with its code and span, and exits 1 when there are any', async () => {
    const result = await runCli(['validate', 'works where colour is blue and year is soon'])
    expect(result.exitCode).toBe(1)
    const output = JSON.parse(result.stdout ?? '')
    expect(output.valid).toBe(false)
    expect(output.diagnostics.length).toBeGreaterThanOrEqual(2)
    expect(output.diagnostics[0]).toMatchObject({ code: 'OQL_UNKNOWN_FIELD', span: { start: 12 } })
  })

  it('exits 0 with no diagnostics for a valid query', async () => {
    const result = await runCli(['validate', 'works where year is 2020'])
    expect(result.exitCode).toBe(0)
    expect(JSON.parse(result.stdout ?? '')).toEqual({ valid: true, diagnostics: [] })
  })
})
