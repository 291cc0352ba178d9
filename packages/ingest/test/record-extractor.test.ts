// The values ingest computes in JavaScript from each parsed record (record-extractor.ts) against what DuckDB
// computes from the record's text with `json_extract_string` and the catalog's SQL id forms, for every
// record of the committed sample plus hand-made edge cases: the catalog's derived columns, record-path
// columns, external ids and link keys must not depend on which of the two computed them.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import {
  CATALOG_ENTITIES,
  type CatalogEntity,
  constantLiteral,
  derivedColumnsOf,
  LINK_TABLES,
  type ValueSource,
} from '@oqlkit/catalog'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { externalIdSql, letterIdSql, pathIdSql } from '../src/build/catalog-sql.ts'
import { recordExtractionSpecOf } from '../src/parse/record-extraction-spec.ts'
import { linkColumnName, PRESENT, recordExtractorOf } from '../src/parse/record-extractor.ts'

const snapshotDir = SAMPLE_SNAPSHOT_DIR

/** Records the sample lacks: values of every JSON type where the paths expect others. */
const EDGE_WORKS: Record<string, unknown>[] = [
  {
    id: 'https://openalex.org/W1',
    doi: 'https://doi.org/10.1/ABC/',
    publication_year: 2020.0,
    authorships: [
      { author: { id: 'https://openalex.org/a5' }, institutions: [{ id: null, lineage: ['I9', 'W3'] }] },
      { author: null, institutions: 'none', countries: ['us', null, 'https://openalex.org/countries/FR'] },
      null,
    ],
    referenced_works: ['https://openalex.org/W2', 'W2', 'https://openalex.org/A3', ''],
    primary_topic: { id: 'T10', field: { id: 'https://openalex.org/fields/17/' } },
    locations: [
      { is_oa: true, version: null },
      { is_oa: 'true', version: 'publishedVersion' },
      { is_oa: false },
    ],
    keywords: [{ id: 'https://openalex.org/keywords/deep%20learning' }],
    ids: { pmid: 123, mag: 'mag:42', pmcid: 'PMC77' },
    open_access: { is_oa: true, oa_status: 'gold' },
    abstract_inverted_index: {},
    summary_stats: { '2yr_mean_citedness': 1.5 },
  },
  { id: 'https://openalex.org/W2', authorships: {}, referenced_works: null, locations: 'x', topics: [[], 1] },
]

function readSample(): Map<CatalogEntity, Record<string, unknown>[]> {
  const records = new Map<CatalogEntity, Record<string, unknown>[]>()
  for (const entity of readdirSync(snapshotDir)) {
    const entityDir = join(snapshotDir, entity)
    if (entity === 'merged_ids' || !statSync(entityDir).isDirectory()) continue
    const list: Record<string, unknown>[] = []
    for (const partition of readdirSync(entityDir).filter((name) => name.startsWith('updated_date=')))
      for (const part of readdirSync(join(entityDir, partition)))
        for (const line of gunzipSync(readFileSync(join(entityDir, partition, part)))
          .toString('utf8')
          .split('\n'))
          if (line !== '') list.push(JSON.parse(line) as Record<string, unknown>)
    records.set(entity as CatalogEntity, list)
  }
  records.set('works', [...(records.get('works') ?? []), ...EDGE_WORKS])
  return records
}

/** The SQL value of one source of a derived column (its transform applied to the text at its path). */
function sourceSql(source: ValueSource): string {
  const text = `json_extract_string(record, ${constantLiteral(source.path)})`
  switch (source.transform) {
    case 'value':
      return text
    case 'letter-id':
      return letterIdSql(text)
    case 'path-id':
      return pathIdSql(text)
    case 'upper':
      return `upper(${text})`
    case 'array-length':
      // As the catalog's SQL did: the length of the path's text (a JSON null has none).
      return `CAST(json_array_length(${text}) AS VARCHAR)`
    default:
      return externalIdSql(source.transform, text)
  }
}

// DuckDB writes a number read as a double with a decimal point (`4.0`), JavaScript without (`4`); the
// catalog casts number columns at query time, so texts that are the same number are the same value.
const sameValue = (js: unknown, sql: unknown): boolean => {
  if (js === sql) return true
  if (typeof js === 'string' && typeof sql === 'string' && js !== '' && sql !== '')
    return Number.isFinite(Number(js)) && Number(js) === Number(sql)
  return JSON.stringify(js) === JSON.stringify(sql)
}

let instance: DuckDBInstance
let db: DuckDBConnection
let sample: Map<CatalogEntity, Record<string, unknown>[]>

beforeAll(async () => {
  instance = await createDuckDbInstance()
  db = await instance.connect()
  sample = readSample()
})

afterAll(() => {
  db.closeSync()
  instance.closeSync()
})

/**
 * One row per record (in the given order): the SQL expressions evaluated on its text, where `texts` (paths)
 * are read as a list `t` by one `json_extract_string` over all of them, which parses the record once rather
 * than once a path (each path's value is the one it reads alone).
 */
async function sqlRows(
  records: readonly Record<string, unknown>[],
  expressions: readonly string[],
  texts: readonly string[] = [],
) {
  await db.run('CREATE OR REPLACE TEMP TABLE r (n INTEGER, record VARCHAR)')
  const appender = await db.createAppender('r')
  for (const [n, record] of records.entries()) {
    appender.appendInteger(n)
    appender.appendVarchar(JSON.stringify(record))
    appender.endRow()
  }
  appender.closeSync()
  const columns = expressions.map((expression, index) => `${expression} AS c${index}`)
  const from =
    texts.length === 0
      ? 'r'
      : `(SELECT *, json_extract_string(record, [${texts.map(constantLiteral).join(', ')}]) AS t FROM r)`
  const reader = await db.runAndReadAll(`SELECT ${columns.join(', ')} FROM ${from} ORDER BY n`)
  return reader.getRowObjectsJson().map((row) => expressions.map((_, index) => row[`c${index}`]))
}

describe('record extractor against DuckDB on the same records', () => {
  it('computes every derived column as the SQL sources do', async () => {
    const differences: string[] = []
    for (const info of CATALOG_ENTITIES) {
      const records = sample.get(info.entity) ?? []
      if (records.length === 0) continue
      const columns = derivedColumnsOf(info.entity)
      const expressions = columns.map((column) => {
        const terms = column.sources.map(sourceSql)
        return terms.length === 1 ? terms[0]! : `coalesce(${terms.join(', ')})`
      })
      const extract = recordExtractorOf(recordExtractionSpecOf(info.entity))
      const rows = await sqlRows(records, expressions)
      for (const [n, record] of records.entries()) {
        const derived = extract(record).derived as (string | null)[]
        for (const [index, column] of columns.entries())
          if (
            column.kind === 'presence'
              ? // Only presence is loaded (`IS NOT NULL`): the extractor writes a marker, never the value.
                (derived[index] === null) !== (rows[n]![index] === null) ||
                (derived[index] !== null && derived[index] !== PRESENT)
              : !sameValue(derived[index], rows[n]![index])
          )
            differences.push(
              `${info.entity} ${record.id} ${column.name}: ${derived[index]} vs ${rows[n]![index]}`,
            )
      }
    }
    expect(differences).toStrictEqual([])
  })

  it('tests a presence column for a value without writing the value into the row', () => {
    const columns = derivedColumnsOf('works')
    const hasAbstract = columns.findIndex((column) => column.name === 'has_abstract')
    const hasDoi = columns.findIndex((column) => column.name === 'has_doi')
    const extract = recordExtractorOf(recordExtractionSpecOf('works'))
    const derivedOf = (record: Record<string, unknown>) => extract(record).derived as (string | null)[]
    const abstract = { Deep: [0], learning: [1, 7], of: [2], graphs: [3] }
    expect(derivedOf({ id: 'W1', abstract_inverted_index: abstract })[hasAbstract]).toBe(PRESENT)
    // An empty index is a value (as `json_extract_string` gives '{}'); null and a missing key are not.
    expect(derivedOf({ id: 'W1', abstract_inverted_index: {} })[hasAbstract]).toBe(PRESENT)
    expect(derivedOf({ id: 'W1', abstract_inverted_index: null })[hasAbstract]).toBeNull()
    expect(derivedOf({ id: 'W1' })[hasAbstract]).toBeNull()
    // A transform still decides: a DOI that normalises to nothing is no DOI.
    expect(derivedOf({ id: 'W1', doi: 'https://doi.org/10.1/x' })[hasDoi]).toBe(PRESENT)
    expect(derivedOf({ id: 'W1', doi: 'https://doi.org/' })[hasDoi]).toBeNull()
    expect(derivedOf({ id: 'W1', doi: null, ids: { doi: '10.2/y' } })[hasDoi]).toBe(PRESENT)
  })

  it('computes every record-path column as json_extract_string reads the path', async () => {
    const differences: string[] = []
    let compared = 0
    for (const info of CATALOG_ENTITIES) {
      const records = sample.get(info.entity) ?? []
      const spec = recordExtractionSpecOf(info.entity)
      if (records.length === 0 || spec.pathColumns.length === 0) continue
      // The text paths read in one call (a path with a wildcard, which the lists have, cannot be one of
      // several): the record parsed once for them all, not once a path, ~2 of this test's ~9 s of CPU.
      const texts = spec.pathColumns.filter(({ form }) => form === 'text').map(({ path }) => path)
      const expressions = spec.pathColumns.map(({ path, form }) => {
        const literal = constantLiteral(path)
        if (form === 'text') return `t[${texts.indexOf(path) + 1}]`
        if (form === 'count') return `coalesce(len(json_extract(record, ${literal})), 0)`
        if (form === 'list')
          return `coalesce(list_filter(json_extract_string(record, ${literal}), lambda x: x IS NOT NULL), [])`
        return `coalesce(list_transform(list_filter(json_extract(record, ${literal}), lambda l: json_extract_string(l, '$.is_oa') = 'true'), lambda l: json_extract_string(l, '$.version')), [])`
      })
      const extract = recordExtractorOf(spec)
      const rows = await sqlRows(records, expressions, texts)
      for (const [n, record] of records.entries()) {
        const values = extract(record)
        for (const [index, { name, form }] of spec.pathColumns.entries()) {
          // The rows leave out nulls, empty lists and zero counts.
          const js = values[name] ?? (form === 'text' ? null : form === 'count' ? 0 : [])
          const sql = rows[n]![index]
          const same =
            Array.isArray(js) && Array.isArray(sql)
              ? js.length === sql.length && js.every((value, at) => sameValue(value, sql[at]))
              : sameValue(js, form === 'count' ? Number(sql) : sql)
          compared++
          if (!same)
            differences.push(
              `${info.entity} ${record.id} ${name}: ${JSON.stringify(js)} vs ${JSON.stringify(sql)}`,
            )
        }
      }
    }
    expect(compared).toBeGreaterThan(100_000)
    expect(differences.slice(0, 20)).toStrictEqual([])
    // DuckDB evaluates 220 paths over 9,566 records one path at a time: tens of seconds on a loaded machine.
  }, 180_000)

  it('finds the same external ids and link keys as the SQL id forms', async () => {
    const records = sample.get('works')!
    const spec = recordExtractionSpecOf('works')
    const linkExpressions = LINK_TABLES.map((link) => {
      const keyEntity = CATALOG_ENTITIES.find((info) => info.entity === link.keyEntity)!
      const key =
        link.transform === 'letter-id'
          ? letterIdSql('x', keyEntity.letter)
          : link.transform === 'country'
            ? `upper(${pathIdSql('x')})`
            : pathIdSql('x')
      const values = link.sources.map((source) => {
        const path = constantLiteral(`$.${source.field}${source.path.slice(1)}`)
        return source.scalar
          ? `[json_extract_string(record, ${path})]`
          : `coalesce(json_extract_string(record, ${path}), [])`
      })
      return `list_sort(list_distinct(list_filter(list_transform(flatten([${values.join(', ')}]), lambda x: ${key}), lambda k: k IS NOT NULL)))`
    })
    const idExpressions = spec.externalIds.map(({ scheme, path }) => {
      const literal = constantLiteral(path)
      const values = path.includes('[*]')
        ? `coalesce(json_extract_string(record, ${literal}), [])`
        : `[json_extract_string(record, ${literal})]`
      return `list_transform(list_filter(list_transform(${values}, lambda raw: ${externalIdSql(scheme, 'raw')}), lambda v: v IS NOT NULL), lambda v: ${constantLiteral(scheme)} || ':' || v)`
    })
    const rows = await sqlRows(records, [
      ...linkExpressions,
      `list_sort(list_distinct(flatten([${idExpressions.join(', ')}])))`,
    ])
    const extract = recordExtractorOf(spec)
    let keys = 0
    let ids = 0
    for (const [n, record] of records.entries()) {
      const values = extract(record)
      for (const index of LINK_TABLES.keys()) {
        const js = [...((values[linkColumnName(index)] as string[] | undefined) ?? [])].sort()
        keys += js.length
        expect(js, `${record.id} ${LINK_TABLES[index]!.name}`).toStrictEqual(rows[n]![index])
      }
      const found = ((values.external_ids as [string, string][] | undefined) ?? [])
        .map(([scheme, value]) => `${scheme}:${value}`)
        .sort()
      ids += found.length
      expect(found, `${record.id} external ids`).toStrictEqual(rows[n]![LINK_TABLES.length])
    }
    expect(keys).toBeGreaterThan(10_000)
    expect(ids).toBeGreaterThan(500)
  }, 120_000)
})
