// The search index of the committed sample catalog, checked against the records themselves: the SQL
// tokenizer agrees with the TypeScript one on every text, the postings give back every title, and searches
// return exactly the works a brute-force scan of the records finds, in BM25 order.
import { existsSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { type DuckDBConnection, type DuckDBInstance, listValue } from '@duckdb/node-api'
import type { SearchIndexManifest } from '@oqlkit/catalog'
import {
  allOf,
  CATALOG_ENTITY_NAMES,
  phrase,
  readCatalogManifest,
  type SearchNode,
  searchIndexOf,
  withSearchIndex,
  word,
} from '@oqlkit/catalog'
import { buildSearchIndex } from '@oqlkit/ingest'
import { CatalogInspector, copyOfSampleCatalog } from '@oqlkit/ingest/test-support'
import { exactTokens, stemmedTokens } from '@oqlkit/text-models'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDuckDbInstance } from '../src/query/duckdb-instance-factory.ts'
import { compileSearch } from '../src/search/search-compiler.ts'
import { exactTokensSql } from '../src/search/search-tokenizer-sql.ts'

let disposeCopy: (() => void) | undefined
let catalogDir: string
let instance: DuckDBInstance
let connection: DuckDBConnection
let index: SearchIndexManifest

interface SampleWork {
  readonly id: string
  readonly title: string
  readonly abstract: string
}
let works: SampleWork[]
/** The other names of every author, from the records. */
/** The display name of every record of every entity of the sample. */
let displayNames: string[]
let authorAlternatives: string[]
const SEGMENT_DOCS = 200
const BUCKET_ROWS = 20_000

/** The abstract of a record, rebuilt from its inverted index without the code under test. */
function abstractOf(record: Record<string, unknown>): string {
  const inverted = record.abstract_inverted_index
  if (typeof inverted !== 'object' || inverted === null) return ''
  const words: [number, string][] = []
  for (const [text, positions] of Object.entries(inverted as Record<string, unknown>)) {
    if (Array.isArray(positions)) for (const position of positions) words.push([Number(position), text])
  }
  return words
    .sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))
    .map(([, text]) => text)
    .join(' ')
}

const rows = async (sql: string, params: readonly unknown[] = []): Promise<Record<string, unknown>[]> =>
  (await connection.runAndReadAll(sql, params as never[])).getRowObjectsJS()

beforeAll(async () => {
  // The index is rebuilt below with small segments and buckets: a copy of the run's sample catalog to write it in.
  const copy = await copyOfSampleCatalog()
  catalogDir = copy.catalogDir
  disposeCopy = copy.dispose
  instance = await createDuckDbInstance()
  connection = await instance.connect()
  // Small segments and buckets, so that the sample's works are tokenized in several segments and searches
  // read postings from several buckets.
  index = await buildSearchIndex({
    connection,
    catalogDir,
    segmentDocs: SEGMENT_DOCS,
    bucketRows: BUCKET_ROWS,
  })
  // The records themselves, from the record store (what the index is built from too, through a texts file).
  const inspector = await CatalogInspector.open(catalogDir)
  let records: Map<string, Record<string, unknown>>
  let titles: Record<string, unknown>[]
  try {
    titles = await inspector.rows('SELECT id, display_name FROM read_parquet($1) ORDER BY id', [
      inspector.file('entities/works.parquet'),
    ])
    displayNames = (
      await inspector.rows(
        'SELECT display_name AS t FROM read_parquet($1, union_by_name = true) WHERE display_name IS NOT NULL',
        [join(dirname(inspector.file('entities/works.parquet')), '*.parquet')],
      )
    ).map((row) => String(row.t))
    records = await inspector.records('works')
    authorAlternatives = [...(await inspector.records('authors')).values()].flatMap((record) =>
      Array.isArray(record.display_name_alternatives)
        ? record.display_name_alternatives.filter((name): name is string => typeof name === 'string')
        : [],
    )
  } finally {
    inspector.close()
  }
  expect(titles.length).toBe(records.size)
  works = titles.map((row) => ({
    id: String(row.id),
    title: typeof row.display_name === 'string' ? row.display_name : '',
    abstract: abstractOf(records.get(String(row.id))!),
  }))
}, 120_000)

afterAll(() => {
  connection?.closeSync()
  instance?.closeSync()
  disposeCopy?.()
})

async function search(field: string, mode: 'stemmed' | 'exact', match: SearchNode) {
  const works = index.entities.works
  if (works === undefined) throw new Error('works are not indexed')
  const compiled = compileSearch({ entity: 'works', field, mode, match }, { catalogDir, index: works })
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems))
  const hits = await rows(`SELECT id, score FROM (${compiled.sql}) ORDER BY score DESC, id`, compiled.params)
  return hits.map((hit) => ({ id: String(hit.id), score: Number(hit.score) }))
}

const hasAdjacent = (tokens: readonly string[], first: string, second: string): boolean =>
  tokens.some((token, i) => token === first && tokens[i + 1] === second)

describe('the sample index', () => {
  it('indexes every entity and lists files that exist', async () => {
    expect(Object.keys(index.entities).sort()).toStrictEqual([...CATALOG_ENTITY_NAMES].sort())
    expect(index.entities.works?.docs).toBe(works.length)
    const buckets = index.entities.works?.files.stemmed.postings.length ?? 0
    expect(buckets).toBeGreaterThan(2)
    // Per entity: docs, doc stats, field stats, two dictionaries, and a postings file per bucket and mode.
    const postingsFiles = Object.values(index.entities).reduce(
      (sum, entity) => sum + entity.files.exact.postings.length + entity.files.stemmed.postings.length,
      0,
    )
    expect(index.files).toHaveLength(CATALOG_ENTITY_NAMES.length * 5 + postingsFiles)
    for (const file of index.files) {
      const path = join(catalogDir, ...file.path.split('/'))
      expect(existsSync(path)).toBe(true)
      expect(statSync(path).size).toBe(file.bytes)
    }
    const read = await readCatalogManifest(catalogDir)
    if (!read.ok) throw new Error(read.message)
    const merged = withSearchIndex(read.manifest, index)
    expect(searchIndexOf(merged)).toBe(index)
    expect(merged.files.filter((file) => file.path.startsWith('search/'))).toStrictEqual(index.files)
    // Ingest already registered an index; merging replaces its files rather than adding them twice.
    const outside = read.manifest.files.filter((file) => !file.path.startsWith('search/'))
    expect(merged.files.length).toBe(outside.length + index.files.length)
    expect(withSearchIndex(merged, index).files).toStrictEqual(merged.files)
  })

  it('writes buckets of consecutive terms, each sorted by term, field and document, as its bounds say', async () => {
    const worksIndex = index.entities.works
    expect(worksIndex?.idPrefix).toBe('W')
    for (const mode of ['exact', 'stemmed'] as const) {
      const { postings, bounds } = worksIndex?.files[mode] ?? { postings: [], bounds: [] }
      expect(bounds).toHaveLength(postings.length)
      expect(bounds[0]).toBe('')
      for (const [bucket, file] of postings.entries()) {
        const [row] = await rows(
          `SELECT count(*) FILTER (WHERE previous IS NOT NULL AND previous >= current) AS unordered,
             count(*) FILTER (WHERE term < $2 OR ($3 IS NOT NULL AND term >= $3)) AS outside
           FROM (SELECT term, (term, field, doc) AS current, lag((term, field, doc)) OVER (ORDER BY file_row_number) AS previous
                 FROM read_parquet($1, file_row_number = true))`,
          [join(catalogDir, ...file.split('/')), bounds[bucket] ?? '', bounds[bucket + 1] ?? null],
        )
        expect(Number(row?.unordered)).toBe(0)
        expect(Number(row?.outside)).toBe(0)
      }
    }
  })

  it('scores a word by BM25 from its postings, the dictionary and the field statistics', async () => {
    const worksIndex = index.entities.works
    if (worksIndex === undefined) throw new Error('works are not indexed')
    const title = worksIndex.fields.find((field) => field.name === 'display_name')
    if (title === undefined) throw new Error('no title statistics')
    const files = listValue(worksIndex.files.exact.postings.map((file) => join(catalogDir, file)))
    // Three title words of different frequencies: the commonest, one in the middle, one of a single work.
    const terms = await rows(`SELECT term, df FROM read_parquet($1) WHERE field = 0 ORDER BY df DESC, term`, [
      join(catalogDir, worksIndex.files.exact.terms),
    ])
    const picked = [terms[0], terms[Math.floor(terms.length / 2)], terms.at(-1)]
    let compared = 0
    for (const picks of picked) {
      const term = String(picks?.term)
      const df = Number(picks?.df)
      const postings = await rows('SELECT doc, tf, len FROM read_parquet($1) WHERE term = $2 AND field = 0', [
        files,
        term,
      ])
      expect(postings).toHaveLength(df)
      const idf = Math.log(1 + (title.docs - df + 0.5) / (df + 0.5))
      const expected = new Map(
        postings.map(({ doc, tf, len }) => {
          const norm = 1.2 * (1 - 0.75 + (0.75 * Number(len)) / title.avgLength)
          return [`W${doc}`, (idf * Number(tf) * 2.2) / (Number(tf) + norm)]
        }),
      )
      const hits = await search('display_name', 'exact', word(term))
      expect(hits.map((hit) => hit.id).sort()).toStrictEqual([...expected.keys()].sort())
      for (const hit of hits) expect(hit.score).toBeCloseTo(expected.get(hit.id) ?? Number.NaN, 9)
      compared += hits.length
    }
    expect(compared).toBeGreaterThan(3)
  })

  it('tokenizes in SQL exactly as in TypeScript, on every text of the sample', async () => {
    const texts = [...displayNames]
    expect(authorAlternatives.length).toBeGreaterThan(100)
    texts.push(...authorAlternatives)
    texts.push(...works.map((work) => work.abstract))
    const tokenized = await rows(`SELECT ${exactTokensSql('t')} AS tokens FROM (SELECT unnest($1) AS t)`, [
      listValue(texts),
    ])
    expect(tokenized).toHaveLength(texts.length)
    let compared = 0
    tokenized.forEach((row, i) => {
      expect(row.tokens, texts[i]).toStrictEqual(exactTokens(texts[i] ?? ''))
      compared++
    })
    expect(compared).toBeGreaterThan(10_000)
  })

  it('gives back every title and abstract from the exact postings', async () => {
    const search = join(catalogDir, 'search', 'works')
    const stored = await rows(
      `SELECT d.id, p.field, list(p.term ORDER BY p.pos) AS tokens
       FROM (SELECT term, field, doc, unnest(positions) AS pos FROM read_parquet($1)) p
       JOIN read_parquet($2) d USING (doc) GROUP BY d.id, p.field`,
      [
        listValue((index.entities.works?.files.exact.postings ?? []).map((file) => join(catalogDir, file))),
        join(search, 'docs.parquet'),
      ],
    )
    const byKey = new Map(stored.map((row) => [`${row.id}/${row.field}`, row.tokens]))
    for (const work of works) {
      expect(byKey.get(`${work.id}/0`) ?? [], work.id).toStrictEqual(exactTokens(work.title))
      expect(byKey.get(`${work.id}/1`) ?? [], work.id).toStrictEqual(exactTokens(work.abstract))
    }
  })
})

describe('searches on the sample', () => {
  it('two words in title and abstract: the brute-force set, relevance-sorted, title matches first', async () => {
    const hits = await search('title_and_abstract', 'stemmed', allOf(word('climate'), word('change')))
    const expected = works.filter((work) => {
      const tokens = new Set([...stemmedTokens(work.title), ...stemmedTokens(work.abstract)])
      return tokens.has('climat') && tokens.has('chang')
    })
    expect(hits.map((hit) => hit.id).sort()).toStrictEqual(expected.map((work) => work.id).sort())
    expect(hits.length).toBeGreaterThan(25)

    const top = hits.slice(0, 25)
    expect(top).toHaveLength(25)
    for (let i = 1; i < top.length; i++) expect(top[i - 1]?.score).toBeGreaterThanOrEqual(top[i]?.score ?? 0)
    const titleWords = (id: string): number => {
      const tokens = stemmedTokens(works.find((work) => work.id === id)?.title ?? '')
      return Number(tokens.includes('climat')) + Number(tokens.includes('chang'))
    }
    const bothInTitle = hits.filter((hit) => titleWords(hit.id) === 2).map((hit) => hit.score)
    const noneInTitle = hits.filter((hit) => titleWords(hit.id) === 0).map((hit) => hit.score)
    expect(bothInTitle.length).toBeGreaterThan(0)
    expect(noneInTitle.length).toBeGreaterThan(0)
    expect(Math.min(...bothInTitle)).toBeGreaterThan(Math.max(...noneInTitle))
  })

  it('an exact phrase: the works whose title or abstract has the two words adjacent', async () => {
    const hits = await search('title_and_abstract', 'exact', phrase('climate change'))
    const expected = works.filter(
      (work) =>
        hasAdjacent(exactTokens(work.title), 'climate', 'change') ||
        hasAdjacent(exactTokens(work.abstract), 'climate', 'change'),
    )
    expect(expected.length).toBeGreaterThan(0)
    expect(hits.map((hit) => hit.id).sort()).toStrictEqual(expected.map((work) => work.id).sort())
  })

  it('a wildcard whose terms are in two buckets: every work with a word of that prefix', async () => {
    const exact = index.entities.works?.files.exact
    if (exact === undefined) throw new Error('works are not indexed')
    const dictionary = join(catalogDir, exact.terms)
    let prefix: string | undefined
    for (const bound of exact.bounds.slice(1)) {
      const candidate = bound.slice(0, 4)
      if (!/^[a-z]{4}$/.test(candidate)) continue
      const [row] = await rows(
        'SELECT count(*) AS n FROM read_parquet($1) WHERE starts_with(term, $2) AND term < $3',
        [dictionary, candidate, bound],
      )
      if (Number(row?.n) > 0) {
        prefix = candidate
        break
      }
    }
    if (prefix === undefined) throw new Error('no bucket boundary inside a 4-letter prefix')
    const hits = await search('title_and_abstract', 'exact', word(`${prefix}*`))
    const expected = works.filter((work) =>
      [...exactTokens(work.title), ...exactTokens(work.abstract)].some((token) => token.startsWith(prefix)),
    )
    expect(expected.length).toBeGreaterThan(0)
    expect(hits.map((hit) => hit.id).sort()).toStrictEqual(expected.map((work) => work.id).sort())
  })

  it('a wildcard: every work with a title word of that prefix', async () => {
    const hits = await search('display_name', 'exact', word('clim*'))
    const expected = works.filter((work) => exactTokens(work.title).some((token) => token.startsWith('clim')))
    expect(expected.length).toBeGreaterThan(0)
    expect(hits.map((hit) => hit.id).sort()).toStrictEqual(expected.map((work) => work.id).sort())
  })
})
