// The native ingest path's extraction (record-extraction-sql.ts: DuckDB reads records with the schema the
// paths imply and computes a staged row's values from the typed columns) against the JavaScript extractor
// (record-extractor.ts) on the same lines: every record of the committed sample (all entity types),
// generated works, and hand-made works with ids in odd forms, nulls in lists and numbers written as
// doubles. Each staged column must be the same value, whichever side computed it; a record of another shape
// (a string where the paths walk into a list) must fail the typed read, so that its part goes the
// JavaScript way.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import { CATALOG_ENTITIES, type CatalogEntity, constantLiteral, quoteIdentifier } from '@oqlkit/catalog'
import { generateSnapshot } from '@oqlkit/snapshot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordExtractionSpecOf } from '../src/parse/record-extraction-spec.ts'
import { typedExtractionSql } from '../src/parse/record-extraction-sql.ts'
import { recordExtractorOf } from '../src/parse/record-extractor.ts'
import { partFileLines, sampleSnapshotLines } from './support/sample-snapshot-lines.ts'

/** Works the sample lacks, of the schema's shape: ids in odd forms and cases, nulls, doubles, duplicates. */
const EDGE_WORKS: readonly Record<string, unknown>[] = [
  {
    id: 'https://openalex.org/W1',
    doi: ' https://doi.org/10.1/ABC/ ',
    publication_year: 2020.0,
    cited_by_count: 1e2,
    authorships: [
      {
        author: { id: 'https://openalex.org/a5' },
        institutions: [{ id: null, lineage: ['I9', 'W3', 'i9'] }],
      },
      {
        author: null,
        institutions: null,
        countries: ['us', null, 'https://openalex.org/countries/FR', 'US'],
      },
      null,
      { author: { id: 'https://openalex.org/A5' }, institutions: [{ id: 'I9', country_code: 'de' }] },
    ],
    referenced_works: ['https://openalex.org/W2', 'W2', 'https://openalex.org/A3', '', 7, { id: 'W4' }, null],
    primary_topic: { id: 'T10', field: { id: 'https://openalex.org/fields/17/' } },
    locations: [
      { is_oa: true, version: null, source: { id: 'S1' } },
      { is_oa: 'true', version: 'publishedVersion' },
      { is_oa: false },
      null,
    ],
    keywords: [{ id: 'https://openalex.org/keywords/deep%20learning' }, { id: 'keywords/%' }],
    ids: { pmid: 123, mag: 'mag:42', pmcid: 'PMC77', doi: 'doi:10.1/abc' },
    open_access: { is_oa: true, oa_status: 'gold' },
    abstract_inverted_index: {},
    apc_list: { value: 4.0, value_usd: 1.5, currency: 7 },
    authors_count: null,
    referenced_works_count: null,
  },
  {
    id: 'https://openalex.org/W2',
    authorships: [],
    referenced_works: null,
    abstract_inverted_index: null,
    funders: [{ id: 'F1' }, { id: 'f1' }],
    grants: [{ funder: 'https://openalex.org/F2' }],
    awards: [{ id: 'G3', funder_id: 'F2', funder: { id: 'F4' } }],
  },
  { id: 'https://openalex.org/W3', open_access: {}, topics: [], locations: [] },
]

/** Works of another shape than the paths walk: each fails the typed read. */
const OTHER_SHAPES: readonly Record<string, unknown>[] = [
  { id: 'https://openalex.org/W11', authorships: {} },
  { id: 'https://openalex.org/W12', authorships: 'none' },
  { id: 'https://openalex.org/W13', authorships: [{ institutions: 'none' }] },
  { id: 'https://openalex.org/W14', locations: ['not an object'] },
  { id: 'https://openalex.org/W15', open_access: [] },
]

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-extraction-sql-'))
let instance: DuckDBInstance
let db: DuckDBConnection
const lines = new Map<CatalogEntity, string[]>()

beforeAll(async () => {
  instance = await createDuckDbInstance()
  db = await instance.connect()
  for (const info of CATALOG_ENTITIES) {
    try {
      lines.set(info.entity, sampleSnapshotLines(info.entity))
    } catch {
      lines.set(info.entity, [])
    }
  }
  // Generated works fill paths the sample leaves empty (awards, funders, many authorships).
  const generated = await generateSnapshot({ works: 400, outDir: join(scratch, 'snapshot'), seed: 3 })
  const generatedLines = partFileLines(join(generated.outDir, 'data', 'works'))
  lines.set('works', [
    ...(lines.get('works') ?? []),
    ...generatedLines,
    ...EDGE_WORKS.map((work) => JSON.stringify(work)),
  ])
})

afterAll(() => {
  db?.closeSync()
  instance?.closeSync()
  rmSync(scratch, { recursive: true, force: true })
})

// Values must be equal as they are: the SQL writes numbers as JavaScript does (`4`, not DuckDB's `4.0`).
const sameValue = (js: unknown, sql: unknown, name = ''): boolean => {
  // External ids and link keys are sets (the SQL's order is DuckDB's).
  if (SET_COLUMNS.test(name) && Array.isArray(js) && Array.isArray(sql))
    return sameValue(sortedTexts(js), sortedTexts(sql))
  if (js === sql) return true
  // BIGINT counts come back as text.
  if (typeof js === 'number' && typeof sql === 'string') return js === Number(sql)
  if (Array.isArray(js) && Array.isArray(sql))
    return js.length === sql.length && js.every((value, at) => sameValue(value, sql[at]))
  return JSON.stringify(js) === JSON.stringify(sql)
}

const SET_COLUMNS = /^(external_ids|link_\d+)$/
const sortedTexts = (values: readonly unknown[]): string[] =>
  values.map((value) => JSON.stringify(value)).sort()

/**
 * The extracted columns of each line, computed by DuckDB from the typed read of a file of the lines (each
 * with its number put first, as the native path frames them), in the lines' order.
 */
async function sqlValues(entity: CatalogEntity, texts: readonly string[]) {
  const { readColumns, columns } = typedExtractionSql(recordExtractionSpecOf(entity))
  const file = join(scratch, `${entity}.jsonl`)
  writeFileSync(file, texts.map((text, n) => `{"__n":${n},${text.slice(1)}\n`).join(''))
  const schema = [['__n', 'INTEGER'] as const, ...readColumns]
    .map(([name, type]) => `${constantLiteral(name)}: ${constantLiteral(type)}`)
    .join(', ')
  const select = columns.map(({ name, sql }) => `${sql} AS ${quoteIdentifier(name)}`).join(', ')
  const reader = await db.runAndReadAll(
    `SELECT ${select} FROM read_json(${constantLiteral(file)}, format = 'newline_delimited', columns = {${schema}}) ORDER BY __n`,
  )
  return { columns, rows: reader.getRowObjectsJson() }
}

describe('the native path computes what the parse workers compute', () => {
  it('gives every staged column of every record the JavaScript extractor value, for every entity type', async () => {
    const differences: string[] = []
    let compared = 0
    let nonEmpty = 0
    for (const info of CATALOG_ENTITIES) {
      const texts = lines.get(info.entity) ?? []
      if (texts.length === 0) continue
      const extract = recordExtractorOf(recordExtractionSpecOf(info.entity))
      const { columns, rows } = await sqlValues(info.entity, texts)
      for (const [n, text] of texts.entries()) {
        const js = extract(JSON.parse(text) as Record<string, unknown>)
        for (const { name } of columns) {
          const expected = js[name] ?? null
          const actual = rows[n]![name] ?? null
          compared++
          if (expected !== null) nonEmpty++
          if (!sameValue(expected, actual, name))
            differences.push(
              `${info.entity} line ${n + 1} ${name}: ${JSON.stringify(expected)} vs ${JSON.stringify(actual)}`,
            )
        }
      }
    }
    expect(differences.slice(0, 20)).toStrictEqual([])
    // Every entity type of the sample, hundreds of paths each: the comparison covered real values.
    expect(compared).toBeGreaterThan(100_000)
    expect(nonEmpty).toBeGreaterThan(20_000)
  }, 180_000)

  it('finds each external id and link key once, whatever case or form the record writes it in', async () => {
    const edge = EDGE_WORKS.map((work) => JSON.stringify(work))
    const { rows } = await sqlValues('works', edge)
    const extract = recordExtractorOf(recordExtractionSpecOf('works'))
    for (const [n, text] of edge.entries()) {
      const js = extract(JSON.parse(text) as Record<string, unknown>)
      for (const [name, value] of Object.entries(js))
        if (name === 'external_ids' || name.startsWith('link_'))
          expect(sortedTexts(rows[n]![name] as unknown[]), `${name} of edge work ${n + 1}`).toStrictEqual(
            sortedTexts(value as unknown[]),
          )
    }
    // The first edge work's author A5, written in two cases, once; its DOI, stated twice in two forms, once.
    expect(rows[0]!.link_0).toStrictEqual(['A5'])
    expect(sortedTexts(rows[0]!.external_ids as unknown[])).toStrictEqual(
      sortedTexts([
        ['doi', '10.1/abc'],
        ['pmid', '123'],
        ['pmcid', '77'],
        ['mag', '42'],
      ]),
    )
  })

  it('refuses a record of another shape than the paths walk', async () => {
    for (const work of OTHER_SHAPES) {
      const lines = [JSON.stringify(EDGE_WORKS[0]), JSON.stringify(work)]
      await expect(sqlValues('works', lines), String(work.id)).rejects.toThrow(/JSON transform error/)
      // The JavaScript extractor reads it (its part is staged that way).
      expect(recordExtractorOf(recordExtractionSpecOf('works'))(work).derived).toHaveLength(28)
    }
  })
})
