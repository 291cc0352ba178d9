// The catalog's id forms are computed twice: in TypeScript (ingest of JSON Lines, and the query adapter on
// request input) and in the ingest SQL (derived columns, link tables, external ids, Parquet snapshots). These
// tests run both on the same awkward inputs and require the same answers.
import type { DuckDBInstance } from '@duckdb/node-api'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import {
  catalogEntityInfo,
  EXTERNAL_ID_SCHEME_NAMES,
  type ExternalIdScheme,
  fullOpenAlexId,
  normalizeExternalId,
  shortOpenAlexId,
} from '@oqlkit/catalog'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { externalIdSql, shortIdSql } from '../src/build/catalog-sql.ts'

let instance: DuckDBInstance
let evaluate: (sql: string, value: string) => Promise<string | null>

beforeAll(async () => {
  instance = await createDuckDbInstance()
  const connection = await instance.connect()
  evaluate = async (sql, value) => {
    const rows = (
      await connection.runAndReadAll(`SELECT ${sql} AS v FROM (SELECT $1 AS x)`, [value])
    ).getRows()
    return (rows[0]?.[0] ?? null) as string | null
  }
})

afterAll(() => instance?.closeSync())

const EXTERNAL_CASES: Readonly<Record<ExternalIdScheme, readonly string[]>> = {
  doi: [
    'https://doi.org/10.1021/AC00033A733',
    'http://dx.doi.org/10.1000/X/',
    'doi:10.5555/ABC',
    '10.1000/plain',
    ' https://DOI.org/10.1/Spaced ',
    'https://doi.org/',
    'doi:10.1/x///',
    'doi:///',
  ],
  orcid: ['https://orcid.org/0000-0002-5793-304X', 'orcid:0000-0001-2345-6789', '0000-0003-1111-222x'],
  ror: ['https://ror.org/04pxj3j71', 'ror:05CF2BT40', '00x6h5n95'],
  issn: ['2009-2431', '1520688X', 'issn:0003-2700', '1234-567x'],
  pmid: [
    'https://pubmed.ncbi.nlm.nih.gov/12241923',
    'https://www.ncbi.nlm.nih.gov/pubmed/29456894/',
    '22748086',
  ],
  pmcid: ['https://www.ncbi.nlm.nih.gov/pmc/articles/5815332', 'PMC5815332', 'pmcid:PMC123/', '1083739'],
  mag: ['2606768298', 'mag:33158414'],
  wikidata: [
    'https://www.wikidata.org/wiki/Q2329',
    'https://www.wikidata.org/entity/Q6046250',
    'Q15',
    'wikidata:q42',
  ],
}

describe('external id normalisation', () => {
  it('gives the stored forms the README promises', () => {
    expect(normalizeExternalId('doi', 'https://doi.org/10.1021/AC00033A733')).toBe('10.1021/ac00033a733')
    expect(normalizeExternalId('pmcid', 'PMC5815332')).toBe('5815332')
    expect(normalizeExternalId('pmcid', 'https://www.ncbi.nlm.nih.gov/pmc/articles/5815332')).toBe('5815332')
    expect(normalizeExternalId('issn', '1520688X')).toBe('1520-688x')
    expect(normalizeExternalId('wikidata', 'https://www.wikidata.org/entity/Q6046250')).toBe('q6046250')
    expect(normalizeExternalId('doi', 'https://doi.org/')).toBeUndefined()
  })

  it.each(EXTERNAL_ID_SCHEME_NAMES)('agrees between TypeScript and SQL for %s', async (scheme) => {
    for (const raw of EXTERNAL_CASES[scheme]) {
      expect(await evaluate(externalIdSql(scheme, 'x'), raw), `${scheme} ${raw}`).toBe(
        normalizeExternalId(scheme, raw) ?? null,
      )
    }
  })
})

describe('OpenAlex id forms', () => {
  const cases: readonly [string, readonly string[]][] = [
    ['works', ['https://openalex.org/W4206759534', 'w123', 'W0', 'https://openalex.org/A1', 'W12x', '']],
    ['authors', ['https://openalex.org/A5023888391', 'HTTPS://OPENALEX.ORG/a9']],
    [
      'source-types',
      ['https://openalex.org/source-types/book%20series', 'https://openalex.org/source-types/50%'],
    ],
    [
      'keywords',
      [
        'https://openalex.org/keywords/deep-learning',
        'keywords/caf%C3%A9/',
        'x%zz%20y',
        'a//',
        '/',
        '//',
        'x/',
        'a/b/',
        ' b ',
      ],
    ],
    ['sdgs', ['https://metadata.un.org/sdg/3', 'https://openalex.org/sdgs/17']],
    ['work-types', ['https://openalex.org/types/article', 'https://openalex.org/work-types/book-chapter']],
  ]

  it.each(cases)('agrees between TypeScript and SQL for %s', async (entity, inputs) => {
    const info = catalogEntityInfo(entity)!
    for (const raw of inputs) {
      expect(await evaluate(shortIdSql(info, 'x'), raw), `${entity} ${raw}`).toBe(
        shortOpenAlexId(info, raw) ?? null,
      )
    }
  })

  it('reads an id of 400,000 characters in linear time, as SQL does', async () => {
    // Request bodies carry ids of any length (a bulk lookup's 4 MB): the patterns these once were took time in
    // the square of it, minutes of a blocked event loop for one such id.
    const keywords = catalogEntityInfo('keywords')!
    const started = performance.now()
    for (const raw of [`${'a'.repeat(400_000)}//`, `${'/'.repeat(400_000)}x`, `k/${'a'.repeat(400_000)}/`])
      expect(shortOpenAlexId(keywords, raw)?.length ?? null, raw.slice(0, 12)).toBe(
        ((await evaluate(shortIdSql(keywords, 'x'), raw)) as string | null)?.length ?? null,
      )
    expect(normalizeExternalId('doi', `doi:10.1/${'/'.repeat(400_000)}x`)).toBe(
      `10.1/${'/'.repeat(400_000)}x`,
    )
    expect(normalizeExternalId('doi', `doi:10.1/x${'/'.repeat(400_000)}`)).toBe('10.1/x')
    expect(performance.now() - started).toBeLessThan(10_000)
  })

  it('turns short ids back into the full ids the API prints', () => {
    expect(fullOpenAlexId(catalogEntityInfo('works')!, 'w123')).toBe('https://openalex.org/W123')
    expect(fullOpenAlexId(catalogEntityInfo('work-types')!, 'article')).toBe(
      'https://openalex.org/types/article',
    )
    expect(fullOpenAlexId(catalogEntityInfo('source-types')!, 'book series')).toBe(
      'https://openalex.org/source-types/book%20series',
    )
  })
})
