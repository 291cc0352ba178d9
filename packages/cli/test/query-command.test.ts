// `oqlkit query` over the bundled sample catalog: every format writes the rows the records say match (counted
// from the snapshot's own files, not by the code under test), --sql prints the statements, and bad input is
// an error that says what was wrong.
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { openDuckDbDatabase } from '@oqlkit/adapter-duckdb'
import { type CommandContext, runCli } from '@oqlkit/cli'
import { coreWorks } from '@oqlkit/http/test-support'
import { ingestCoreFixture, partsOf, sharedSampleCatalog, work } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runQueryCommand } from '../src/commands/query-command.ts'
import { builtCli } from './support/built-cli.ts'

let catalogDir: string
let dir: string
beforeAll(async () => {
  catalogDir = await sharedSampleCatalog()
  dir = mkdtempSync(join(tmpdir(), 'oqlkit-query-command-'))
}, 240_000)
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

const SILENT: CommandContext = { readStdin: async () => '', writeProgress: () => {}, interactive: false }

/** The sample's core works of 2020, from the snapshot files, sorted by id (the order of a query without sort). */
const works2020 = () =>
  coreWorks()
    .filter((work) => work.publication_year === 2020)
    .map((work) => String(work.id))
    .sort()

const query = (...args: string[]) => runCli(['query', ...args, '--catalog', catalogDir], SILENT)

/** Runs the command with its standard output caught. */
const queryToStdout = async (args: string[], context = SILENT) => {
  const stdout = new PassThrough()
  const chunks: Buffer[] = []
  stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
  const result = await runQueryCommand([...args, '--catalog', catalogDir], context, stdout)
  return { ...result, output: Buffer.concat(chunks).toString('utf8') + (result.stdout ?? '') }
}

describe('oqlkit query', () => {
  it('writes every matching row as JSON Lines, from OQL and from the classic URL alike', async () => {
    const expected = works2020()
    expect(expected.length, 'the sample has works of 2020').toBeGreaterThan(20)
    const fromOql = await queryToStdout(['works where year is 2020', '--format', 'jsonl'])
    expect(fromOql.exitCode).toBe(0)
    const lines = fromOql.output.split('\n')
    expect(lines.pop()).toBe('')
    expect(lines.map((line) => (JSON.parse(line) as { id: string }).id)).toEqual(expected)
    // Paging parameters of a pasted URL are dropped, with a note: the query has every row.
    const notes: string[] = []
    const fromUrl = await queryToStdout(
      ['https://api.openalex.org/works?filter=publication_year:2020&per_page=5&page=2', '--format', 'jsonl'],
      {
        ...SILENT,
        writeProgress: (text: string) => {
          notes.push(text)
        },
      },
    )
    expect(fromUrl.output).toBe(fromOql.output)
    expect(notes.join('')).toContain('per_page= ignored')
  })

  it('writes JSON, CSV with the selected columns, and a file with --out', async () => {
    const expected = works2020()
    const json = await queryToStdout(['works where year is 2020', '--format', 'json'])
    expect((JSON.parse(json.output) as { id: string }[]).map((work) => work.id)).toEqual(expected)

    const out = join(dir, 'works.csv')
    const csv = await query(
      '/works?filter=publication_year:2020&select=id,publication_year,authorships',
      '--format',
      'csv',
      '--out',
      out,
    )
    expect(csv.exitCode).toBe(0)
    expect(csv.stderr).toBe(`${expected.length} rows written to ${out}\n`)
    const text = readFileSync(out, 'utf8')
    expect(text.split('\n')[0]).toBe('id,publication_year,authorships')
    const db = await openDuckDbDatabase({ connections: 1 })
    try {
      const rows = await db.all('SELECT * FROM read_csv(?, header = true, all_varchar = true)', [out])
      expect(rows.map((row) => row.id)).toEqual(expected)
      const byId = new Map(coreWorks().map((work) => [String(work.id), work]))
      for (const row of rows) {
        expect(row.publication_year).toBe('2020')
        expect(JSON.parse(String(row.authorships))).toEqual(byId.get(String(row.id))!.authorships)
      }
    } finally {
      await db.close()
    }
  })

  it('writes Parquet through DuckDB, every row with typed columns', async () => {
    const out = join(dir, 'works.parquet')
    const result = await query('works where year is 2020', '--format', 'parquet', '--out', out)
    expect(result.exitCode).toBe(0)
    const db = await openDuckDbDatabase({ connections: 1 })
    try {
      const rows = await db.all(
        'SELECT id, publication_year, open_access.is_oa AS is_oa, len(authorships) AS authors FROM read_parquet(?) ORDER BY id',
        [out],
      )
      expect(rows.map((row) => row.id)).toEqual(works2020())
      const byId = new Map(coreWorks().map((work) => [String(work.id), work]))
      for (const row of rows) {
        const work = byId.get(String(row.id))!
        expect(row.publication_year).toBe(2020)
        expect(row.is_oa).toBe((work.open_access as { is_oa: boolean }).is_oa)
        expect(row.authors).toBe((work.authorships as unknown[]).length)
      }
    } finally {
      await db.close()
    }
  })

  it('shows a table of the first 20 rows and says how many there are', async () => {
    const expected = works2020()
    const result = await queryToStdout(['works where year is 2020', '--format', 'table'])
    expect(result.exitCode).toBe(0)
    expect(result.output).toContain(`20 of ${expected.length} rows shown`)
    const shown = expected.slice(0, 20)
    for (const id of shown) expect(result.output).toContain(id)
    expect(result.output).not.toContain(expected[20]!)
    const selected = await queryToStdout([
      '/works?filter=publication_year:2020&select=id,cited_by_count',
      '--format',
      'table',
    ])
    expect(selected.output.split('\n')[1]).toMatch(/id\s*│\s*cited_by_count/)
  })

  it('--sql prints the statements and their parameters instead of running them', async () => {
    const result = await query('/works?filter=publication_year:2020&sort=cited_by_count:desc', '--sql')
    expect(result.exitCode).toBe(0)
    const lines = (result.stdout ?? '').split('\n')
    const statements = lines.filter((line) => line.startsWith('SELECT'))
    expect(statements.length).toBe(2)
    expect(statements[0]).toMatch(/ORDER BY .*"cited_by_count" DESC/)
    expect(statements[0]).toContain('"publication_year" = ?')
    expect(lines).toContain('-- parameters: [2020,1001]')
    expect(statements[1]).toMatch(/^SELECT count\(\*\)/)
    expect(lines).toContain('-- parameters: [2020]')
  })

  it('--sql of a search by meaning runs the search first: the works it finds are the parameters', async () => {
    const text = '/works?search.semantic=climate%20change%20adaptation'
    const found = await queryToStdout([text, '--format', 'jsonl'])
    expect(found.exitCode).toBe(0)
    const ids = found.output
      .trim()
      .split('\n')
      .map((line) => String((JSON.parse(line) as { id: string }).id).replace('https://openalex.org/', ''))
    expect(ids.length, 'the sample has works near the text').toBeGreaterThan(0)
    const result = await query(text, '--sql')
    expect(result.exitCode).toBe(0)
    const lines = (result.stdout ?? '').split('\n')
    const parameters = lines.filter((line) => line.startsWith('-- parameters: '))
    expect(parameters).toHaveLength(2)
    const bound = JSON.parse(parameters[0]!.slice('-- parameters: '.length)) as unknown[]
    for (const id of ids) expect(bound).toContain(id)
  })

  it('says what a catalog lacks for a search it cannot run, and leaves --out as it was', async () => {
    const coreDir = await ingestCoreFixture(
      join(dir, 'core'),
      partsOf('works', [work(1, '2026-01-01'), work(2, '2026-01-01')]),
    )
    const out = join(dir, 'kept.jsonl')
    writeFileSync(out, 'what was there\n')
    for (const [text, missing] of [
      ['/works?search.semantic=climate', 'no vectors of works'],
      ['works where title has climate', 'search index'],
    ] as const)
      for (const extra of [[], ['--sql'], ['--format', 'table'], ['--out', out]]) {
        const result = await runCli(['query', text, '--catalog', coreDir, ...extra], SILENT)
        expect(result.exitCode, `${text} ${extra.join(' ')}`).toBe(1)
        expect(result.stderr).toMatch(/^oqlkit query: /)
        expect(result.stderr).toContain(missing)
        expect(result.stderr).not.toContain('    at ')
      }
    expect(readFileSync(out, 'utf8')).toBe('what was there\n')
  })

  it('refuses an --out it cannot write before running the query, saying why', async () => {
    const intoMissing = await query(
      'works where year is 2020',
      '--out',
      join(dir, 'no-such-folder', 'rows.jsonl'),
    )
    expect(intoMissing.exitCode).toBe(1)
    expect(intoMissing.stderr).toBe(
      `oqlkit query: cannot write ${join(dir, 'no-such-folder', 'rows.jsonl')}: the folder ${join(dir, 'no-such-folder')} does not exist. Create it first, or give another --out.\n`,
    )
    const intoFolder = await query('works where year is 2020', '--out', dir, '--format', 'parquet')
    expect(intoFolder.exitCode).toBe(1)
    expect(intoFolder.stderr).toContain(
      `it is a folder. Give --out a file name, such as ${join(dir, 'rows.parquet')}`,
    )
  })

  it('answers a bad query with its diagnostic, and bad usage with exit 2', async () => {
    const bad = await query('works where colour is blue')
    expect(bad.exitCode).toBe(1)
    expect(bad.stderr).toContain('OQL_UNKNOWN_FIELD')
    const badUrl = await query('/works?filter=colour:blue')
    expect(badUrl.exitCode).toBe(1)
    expect(badUrl.stderr).toMatch(/filter: .*colour/)
    const grouped = await query('/works?group_by=type')
    expect(grouped.exitCode).toBe(1)
    expect(grouped.stderr).toContain('group_by answers buckets')

    const missing = await runCli(['query', 'works', '--catalog', join(dir, 'no-such-catalog')], SILENT)
    expect(missing.exitCode).toBe(1)
    expect(missing.stderr).toContain(`there is no catalog folder ${join(dir, 'no-such-catalog')}`)
    const notCatalog = await runCli(['query', 'works', '--catalog', dir], SILENT)
    expect(notCatalog.exitCode).toBe(1)
    expect(notCatalog.stderr).toContain(`Cannot open the catalog in ${dir}`)

    const unknownFormat = await query('works', '--format', 'xlsx')
    expect(unknownFormat.exitCode).toBe(2)
    expect(unknownFormat.stderr).toContain(
      '--format needs one of table, json, jsonl, csv, parquet (was xlsx)',
    )
    const unknownFlag = await query('works', '--limit', '5')
    expect(unknownFlag.exitCode).toBe(2)
    expect(unknownFlag.stderr).toContain(
      'unknown option --limit (options: --catalog, --format, --out, --sql)',
    )
    const parquetToStdout = await query('works', '--format', 'parquet')
    expect(parquetToStdout.exitCode).toBe(2)
    expect(parquetToStdout.stderr).toContain('--out')
    expect((await runCli(['query'], SILENT)).exitCode).toBe(2)
  })

  it('streams to standard output from the command line, and stops quietly when the reader goes away', async () => {
    const bin = fileURLToPath(new URL('../bin/oqlkit.js', import.meta.url))
    const run = (args: string[], takeLines?: number) =>
      new Promise<{ code: number | null; lines: string[]; stderr: string }>((done, fail) => {
        const child = spawn(process.execPath, [bin, 'query', ...args, '--catalog', catalogDir], {
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        let stdout = ''
        let stderr = ''
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8')
          // A reader that takes a few lines and leaves, as `| head -n 3` does.
          if (takeLines !== undefined && stdout.split('\n').length > takeLines) child.stdout.destroy()
        })
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8')
        })
        child.on('error', fail)
        child.on('close', (code) =>
          done({ code, lines: stdout.split('\n').filter((line) => line !== ''), stderr }),
        )
      })
    const whole = await run(['works', '--format', 'jsonl'])
    expect(whole.code).toBe(0)
    expect(whole.lines.length).toBe(coreWorks().length)
    const cut = await run(['works', '--format', 'jsonl'], 3)
    expect(cut.code).toBe(0)
    expect(cut.stderr).toBe('')
  }, 60_000)

  it('reports an error it did not expect (a damaged record store) under its name, with where it was thrown', async () => {
    const damaged = await ingestCoreFixture(
      join(dir, 'damaged'),
      partsOf('works', [work(1, '2026-01-01'), work(2, '2026-01-01')]),
    )
    truncateSync(join(damaged, 'records', 'works.records'), 10)
    // The built CLI, brought up to date with this run's source.
    const bin = await builtCli()
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((done, fail) => {
      const child = spawn(
        process.execPath,
        [bin, 'query', 'works', '--catalog', damaged, '--format', 'jsonl'],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      )
      let text = ''
      child.stderr.on('data', (chunk: Buffer) => {
        text += chunk.toString('utf8')
      })
      child.on('error', fail)
      child.on('close', (exit) => done({ code: exit, stderr: text }))
    })
    expect(code).toBe(1)
    const [first, ...frames] = stderr.trimEnd().split('\n')
    expect(first).toMatch(/^oqlkit query: The record store of works is shorter than catalog.json says/)
    expect(frames.length).toBeGreaterThan(0)
    for (const frame of frames) expect(frame).toMatch(/^\s+at /)
    expect(stderr).not.toContain('failed to load')
  }, 60_000)
})
