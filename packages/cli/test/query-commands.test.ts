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

describe('oqlkit translate --format', () => {
  const query = 'works where year >= 2020 and type is article'

  it('prints just the canonical OQL, the classic URL or the OQO, each on its own', async () => {
    const whole = JSON.parse((await runCli(['translate', query])).stdout ?? '')
    const oql = await runCli(['translate', '--format', 'oql', query])
    expect(oql).toEqual({ exitCode: 0, stdout: `${whole.oql}\n` })
    expect(oql.stdout).toBe('works where year >= (2020) and type is (article)\n')
    const url = await runCli(['translate', '--format=url', query])
    expect(url).toEqual({
      exitCode: 0,
      stdout: 'https://openalex.org/works?filter=publication_year:2020-,type:article\n',
    })
    const oqo = await runCli(['translate', '--format', 'oqo', query])
    expect(oqo.exitCode).toBe(0)
    expect(JSON.parse(oqo.stdout ?? '')).toEqual(whole.oqo)
    expect(JSON.parse(oqo.stdout ?? '')).toMatchObject({ get_rows: 'works' })
    // json is the default: the whole /query object, render tokens and all.
    const json = await runCli(['translate', '--format', 'json', query])
    expect(JSON.parse(json.stdout ?? '')).toEqual(whole)
    expect(Object.keys(whole)).toEqual(
      expect.arrayContaining(['oql', 'oxurl', 'oqo', 'oql_render_v2', 'validation']),
    )
  })

  it('reads a URL or an OQO from standard input and prints another form', async () => {
    const fromUrl = await runCli(
      ['translate', '--url', '--format', 'oql', '-'],
      withStdin('/works?filter=is_oa:true'),
    )
    expect(fromUrl).toEqual({ exitCode: 0, stdout: 'works where open access is (true)\n' })
    const fromOqo = await runCli(
      ['translate', '--oqo', '--format=url', '-'],
      withStdin(
        '{"get_rows":"authors","filter_rows":[{"column_id":"works_count","value":100,"operator":">"}]}',
      ),
    )
    expect(fromOqo.exitCode, fromOqo.stderr).toBe(0)
    expect(fromOqo.stdout).toMatch(/^https:\/\/openalex\.org\/authors\?filter=works_count:>100\n$/)
  })

  it('says why there is no classic URL, and prints the errors of an invalid query, with exit 1', async () => {
    const noUrl = await runCli([
      'translate',
      '--format',
      'url',
      'works where (year is 2020 and type is article) or cited by count > 5',
    ])
    expect(noUrl.exitCode).toBe(1)
    expect(noUrl.stdout).toBeUndefined()
    expect(noUrl.stderr).toMatch(/No classic URL: .*nests an AND inside an OR/)
    // The same query has its OQL and OQO forms.
    expect(
      (
        await runCli([
          'translate',
          '--format',
          'oqo',
          'works where (year is 2020 and type is article) or cited by count > 5',
        ])
      ).exitCode,
    ).toBe(0)
    for (const format of ['oql', 'url', 'oqo']) {
      const invalid = await runCli(['translate', '--format', format, 'works where colour is blue'])
      expect(invalid.exitCode, format).toBe(1)
      expect(invalid.stdout).toBeUndefined()
      expect(invalid.stderr).toMatch(/the query is not valid:\nOQL_UNKNOWN_FIELD: /)
    }
  })

  it('refuses an unknown format, a missing one and two input flags, naming the flag', async () => {
    for (const [argv, message] of [
      [['translate', '--format', 'xml', 'works'], /--format needs one of json, oql, url, oqo \(was xml\)/],
      [['translate', 'works', '--format'], /--format needs one of json, oql, url, oqo$/m],
      [['translate', '--oql', '--url', 'works'], /give one of --oql, --oqo, --url, not --oql and --url/],
      [['translate', '--oql=yes', 'works'], /--oql takes no value/],
      [['translate', '--to', 'url', 'works'], /unknown option --to/],
    ] as const) {
      const result = await runCli([...argv])
      expect(result.exitCode, argv.join(' ')).toBe(2)
      expect(result.stderr).toMatch(message)
    }
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
