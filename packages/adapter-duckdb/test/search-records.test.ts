// Search on a tiny catalog of hand-made records whose answers are known: stemmed and exact words, phrases,
// proximity, wildcards, boolean operators, BM25 order, accent folding, list fields, and user text that looks
// like SQL. The catalog goes through the real ingest, then the index build, then compiled searches.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api'
import type { CatalogEntity, SearchIndexManifest, SearchMode } from '@oqlkit/catalog'
import { allOf, anyOf, not, phrase, proximity, type SearchNode, word } from '@oqlkit/catalog'
import { buildSearchIndex, ingestSnapshot, StagingDatabase } from '@oqlkit/ingest'
import { author, type FixtureRecord, partsOf, work, writeLegacySnapshot } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDuckDbInstance } from '../src/query/duckdb-instance-factory.ts'
import { compileSearch } from '../src/search/search-compiler.ts'

const DATE = '2024-01-01T00:00:00'

/** `abstract_inverted_index` of a text split on spaces, as OpenAlex stores abstracts. */
function invertedIndex(text: string): Record<string, number[]> {
  const index: Record<string, number[]> = {}
  text.split(' ').forEach((wordText, position) => {
    index[wordText] = [...(index[wordText] ?? []), position]
  })
  return index
}

const titled = (n: number, title: string | null, abstract?: string): FixtureRecord =>
  work(n, DATE, {
    title,
    display_name: title,
    ...(abstract === undefined ? {} : { abstract_inverted_index: invertedIndex(abstract) }),
  })

const WORKS: readonly FixtureRecord[] = [
  titled(1, 'Cats and dogs', 'A study of pets'),
  titled(2, 'A cat'),
  titled(3, 'Pets at home', 'The cat sat on the mat while the cat slept'),
  titled(4, 'Climate change in the Arctic'),
  titled(5, 'Change of climate policy'),
  titled(6, 'Café society in Zürich'),
  titled(7, 'Women in science'),
  titled(8, 'Woman engineers'),
  titled(9, 'Womb biology'),
  titled(10, 'Notes', 'cat cat cat dog'),
  titled(11, 'Notes', 'cat dog bird fish'),
  titled(12, `O'Brien; DROP TABLE works; -- "quoted" \\ 'x'`),
  titled(13, null, 'Untitled climate notes'),
  titled(14, 'Changing climates'),
]

const AUTHORS: readonly FixtureRecord[] = [
  author(1, DATE, { display_name: 'Jane Doe', display_name_alternatives: ['John Smith', 'J. Smith'] }),
  author(2, DATE, { display_name: 'Smithers Jones', display_name_alternatives: [] }),
]

let root: string
let catalogDir: string
let instance: DuckDBInstance
let connection: DuckDBConnection
let manifest: SearchIndexManifest

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-search-records-'))
  const snapshotDir = join(root, 'snapshot')
  writeLegacySnapshot(snapshotDir, [...partsOf('works', WORKS), ...partsOf('authors', AUTHORS)])
  catalogDir = join(root, 'catalog')
  await ingestSnapshot({ snapshotDir, outDir: catalogDir })
  instance = await createDuckDbInstance()
  connection = await instance.connect()
  manifest = await buildSearchIndex({ connection, catalogDir, entities: ['works', 'authors'] })
})

afterAll(() => {
  connection?.closeSync()
  instance?.closeSync()
  rmSync(root, { recursive: true, force: true })
})

interface Hit {
  readonly id: string
  readonly score: number
}

async function search(
  field: string,
  mode: SearchMode,
  match: SearchNode,
  entity: CatalogEntity = 'works',
  frequent?: Record<string, number>,
): Promise<Hit[]> {
  const built = manifest.entities[entity]
  if (built === undefined) throw new Error(`${entity} is not indexed`)
  // `frequent` stands in for the build's list of frequent terms, which this small index leaves empty.
  const index =
    frequent === undefined
      ? built
      : { ...built, files: { ...built.files, [mode]: { ...built.files[mode], frequent } } }
  const compiled = compileSearch({ entity, field, mode, match }, { catalogDir, index })
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.problems))
  const reader = await connection.runAndReadAll(
    `SELECT id, score FROM (${compiled.sql}) ORDER BY score DESC, id`,
    [...compiled.params],
  )
  return reader.getRowObjectsJS().map((row) => ({ id: String(row.id), score: Number(row.score) }))
}

const ids = async (...args: Parameters<typeof search>): Promise<string[]> =>
  (await search(...args)).map((hit) => hit.id).sort()

const scoreOf = (hits: readonly Hit[], id: string): number => {
  const hit = hits.find((candidate) => candidate.id === id)
  if (hit === undefined) throw new Error(`${id} not found`)
  return hit.score
}

describe('the index', () => {
  it('records its files and statistics', () => {
    const works = manifest.entities.works
    expect(works?.docs).toBe(WORKS.length)
    expect(works?.fields.map((field) => [field.name, field.docs])).toStrictEqual([
      ['display_name', 13],
      ['abstract', 5],
      ['fulltext', 0],
    ])
    expect(manifest.files.map((file) => file.path)).toContain('search/works/stemmed-postings/00000.parquet')
    expect(manifest.files.every((file) => file.bytes > 0)).toBe(true)
  })

  it("builds the same index through ingest's staging database", async () => {
    const staging = await StagingDatabase.open(join(root, 'staging'))
    try {
      const rebuilt = await buildSearchIndex({
        connection: staging,
        catalogDir,
        entities: ['works', 'authors'],
      })
      const summary = (index: SearchIndexManifest) => index.files.map(({ path, rows }) => ({ path, rows }))
      expect(summary(rebuilt)).toStrictEqual(summary(manifest))
      expect(rebuilt.entities).toStrictEqual(manifest.entities)
    } finally {
      staging.close()
    }
    expect(await ids('display_name', 'stemmed', word('cats'))).toStrictEqual(['W1', 'W2'])
  })
})

describe('words', () => {
  it('stemmed: a plural finds the singular and the plural', async () => {
    expect(await ids('display_name', 'stemmed', word('cats'))).toStrictEqual(['W1', 'W2'])
    expect(await ids('display_name', 'stemmed', word('cat'))).toStrictEqual(['W1', 'W2'])
  })

  it('exact: only the form written', async () => {
    expect(await ids('display_name', 'exact', word('cat'))).toStrictEqual(['W2'])
    expect(await ids('display_name', 'exact', word('cats'))).toStrictEqual(['W1'])
  })

  it('folds case and accents on both sides', async () => {
    expect(await ids('display_name', 'exact', word('cafe'))).toStrictEqual(['W6'])
    expect(await ids('display_name', 'exact', word('CAFÉ'))).toStrictEqual(['W6'])
    expect(await ids('display_name', 'stemmed', word('zurich'))).toStrictEqual(['W6'])
  })

  it('searches the abstract, and title and abstract together', async () => {
    expect(await ids('abstract', 'stemmed', word('cat'))).toStrictEqual(['W10', 'W11', 'W3'])
    expect(await ids('title_and_abstract', 'stemmed', word('cat'))).toStrictEqual([
      'W1',
      'W10',
      'W11',
      'W2',
      'W3',
    ])
    expect(await ids('title_and_abstract', 'stemmed', word('climate'))).toStrictEqual([
      'W13',
      'W14',
      'W4',
      'W5',
    ])
  })

  it('finds nothing for a word no record has', async () => {
    expect(await ids('title_and_abstract', 'stemmed', word('zebra'))).toStrictEqual([])
  })
})

describe('phrases and proximity', () => {
  it('an exact phrase needs the words adjacent and in order', async () => {
    expect(await ids('display_name', 'exact', phrase('climate change'))).toStrictEqual(['W4'])
    expect(await ids('display_name', 'exact', phrase('change climate'))).toStrictEqual([])
  })

  it('a stemmed phrase matches other forms of its words', async () => {
    expect(await ids('display_name', 'stemmed', phrase('climates changes'))).toStrictEqual(['W4'])
    expect(await ids('display_name', 'stemmed', phrase('changed climate'))).toStrictEqual(['W14'])
  })

  it('a word the tokenizer splits is a phrase', async () => {
    expect(await ids('display_name', 'exact', word('climate-change'))).toStrictEqual(['W4'])
  })

  it('proximity is unordered and counts the positions between operands', async () => {
    expect(await ids('display_name', 'stemmed', proximity(0, 'climate', 'change'))).toStrictEqual([
      'W14',
      'W4',
    ])
    expect(await ids('display_name', 'stemmed', proximity(1, 'climate', 'change'))).toStrictEqual([
      'W14',
      'W4',
      'W5',
    ])
    expect(await ids('display_name', 'exact', proximity(1, 'climate', 'change'))).toStrictEqual(['W4', 'W5'])
  })

  it('a phrase operand counts as a unit in a proximity window', async () => {
    // "climate change in the arctic": the phrase covers 2 positions, then 2 gaps before "arctic".
    expect(await ids('display_name', 'exact', proximity(2, 'climate change', 'arctic'))).toStrictEqual(['W4'])
    expect(await ids('display_name', 'exact', proximity(1, 'climate change', 'arctic'))).toStrictEqual([])
  })

  it('three operands share one window', async () => {
    // "the cat sat on the mat while the cat slept": cat(8) sat(2) slept(9) leave 5 positions uncovered.
    expect(await ids('abstract', 'exact', proximity(5, 'slept', 'cat', 'sat'))).toStrictEqual(['W3'])
    expect(await ids('abstract', 'exact', proximity(4, 'slept', 'cat', 'sat'))).toStrictEqual([])
  })

  it('a phrase never spans two values of a list field', async () => {
    // Jane Doe, alternatives "John Smith" and "J. Smith".
    expect(await ids('text', 'exact', phrase('john smith'), 'authors')).toStrictEqual(['A1'])
    expect(await ids('text', 'exact', phrase('j smith'), 'authors')).toStrictEqual(['A1'])
    expect(await ids('text', 'exact', phrase('smith j'), 'authors')).toStrictEqual([])
    expect(await ids('text', 'exact', phrase('doe john'), 'authors')).toStrictEqual([])
    expect(await ids('display_name', 'exact', word('smith'), 'authors')).toStrictEqual([])
    expect(await ids('text', 'stemmed', word('smith'), 'authors')).toStrictEqual(['A1'])
  })
})

describe('wildcards', () => {
  it('? is one character, * any', async () => {
    expect(await ids('display_name', 'exact', word('wom?n'))).toStrictEqual(['W7', 'W8'])
    expect(await ids('display_name', 'exact', word('wom*'))).toStrictEqual(['W7', 'W8', 'W9'])
    expect(await ids('display_name', 'exact', word('wome*'))).toStrictEqual(['W7'])
    expect(await ids('display_name', 'exact', word('wo?b'))).toStrictEqual(['W9'])
  })

  it('work inside a phrase and a proximity operand', async () => {
    expect(await ids('display_name', 'exact', phrase('climate chan*'))).toStrictEqual(['W4'])
    expect(await ids('display_name', 'exact', proximity(1, 'clim*', 'change'))).toStrictEqual(['W4', 'W5'])
  })
})

describe('and, or, not', () => {
  it('and requires every operand, not excludes', async () => {
    expect(await ids('title_and_abstract', 'stemmed', allOf(word('cat'), word('dog')))).toStrictEqual([
      'W1',
      'W10',
      'W11',
    ])
    expect(await ids('title_and_abstract', 'stemmed', allOf(word('cat'), not(word('dog'))))).toStrictEqual([
      'W2',
      'W3',
    ])
  })

  it('or takes either, and a record matching both scores higher', async () => {
    const hits = await search('display_name', 'stemmed', anyOf(word('climate'), word('arctic')))
    expect(hits.map((hit) => hit.id).sort()).toStrictEqual(['W14', 'W4', 'W5'])
    expect(hits[0]?.id).toBe('W4')
  })

  it('a not alone selects every other record, untitled ones included', async () => {
    const others = await ids('display_name', 'stemmed', not(word('cat')))
    expect(others).toHaveLength(WORKS.length - 2)
    expect(others).toContain('W13')
    expect(others).not.toContain('W1')
    const neither = await ids('title_and_abstract', 'stemmed', allOf(not(word('cat')), not(word('climate'))))
    expect(neither.sort()).toStrictEqual(['W12', 'W6', 'W7', 'W8', 'W9'])
  })

  it('nests', async () => {
    const match = allOf(anyOf(word('cat'), word('woman')), not(anyOf(word('dog'), word('science'))))
    expect(await ids('title_and_abstract', 'stemmed', match)).toStrictEqual(['W2', 'W3', 'W8'])
  })
})

describe('how an and is evaluated', () => {
  it('starting from its rarest word finds the same documents with the same scores', async () => {
    const frequent = { cat: 1_000_000, dog: 500_000, climat: 900_000 }
    for (const match of [
      allOf(word('cat'), word('dog')),
      allOf(word('dog'), word('bird'), not(word('fish'))),
      allOf(word('climate'), phrase('climate change')),
      allOf(word('cat'), anyOf(word('dog'), word('mat'))),
    ]) {
      const plain = await search('title_and_abstract', 'stemmed', match)
      const driven = await search('title_and_abstract', 'stemmed', match, 'works', frequent)
      expect(driven.map((hit) => hit.id)).toStrictEqual(plain.map((hit) => hit.id))
      for (const [i, hit] of driven.entries()) expect(hit.score).toBeCloseTo(plain[i]?.score ?? Number.NaN, 9)
    }
    expect((await search('title_and_abstract', 'stemmed', allOf(word('cat'), word('bird')))).length).toBe(1)
  })

  it('an and of more operands than it tags with bits joins them', async () => {
    const once = await search('title_and_abstract', 'stemmed', word('cat'))
    const many = await search(
      'title_and_abstract',
      'stemmed',
      allOf(...Array.from({ length: 60 }, () => word('cat'))),
    )
    expect(many.map((hit) => hit.id)).toStrictEqual(once.map((hit) => hit.id))
    for (const [i, hit] of many.entries())
      expect(hit.score).toBeCloseTo(60 * (once[i]?.score ?? Number.NaN), 9)
  })
})

describe('relevance', () => {
  it('a word in the title outranks the same word only in the abstract', async () => {
    const hits = await search('title_and_abstract', 'stemmed', word('cat'))
    expect(scoreOf(hits, 'W2')).toBeGreaterThan(scoreOf(hits, 'W3'))
    expect(scoreOf(hits, 'W1')).toBeGreaterThan(scoreOf(hits, 'W10'))
    expect(hits.slice(0, 2).map((hit) => hit.id)).toStrictEqual(['W2', 'W1'])
  })

  it('more occurrences in a text of the same length rank higher', async () => {
    const hits = await search('abstract', 'stemmed', word('cat'))
    expect(scoreOf(hits, 'W10')).toBeGreaterThan(scoreOf(hits, 'W11'))
  })

  it('a rarer word weighs more', async () => {
    // In the abstract "cat dog bird fish", "bird" is in one abstract, "dog" in two.
    const bird = await search('abstract', 'stemmed', word('bird'))
    const dog = await search('abstract', 'stemmed', word('dog'))
    expect(scoreOf(bird, 'W11')).toBeGreaterThan(scoreOf(dog, 'W11'))
  })

  it('a boost multiplies the score', async () => {
    const plain = await search('display_name', 'stemmed', word('arctic'))
    const boosted = await search('display_name', 'stemmed', word('arctic', 2))
    expect(boosted[0]?.score).toBeCloseTo(2 * (plain[0]?.score ?? 0), 9)
  })
})

describe('user text reaches DuckDB only as parameters', () => {
  it('finds a title full of SQL syntax by searching for it', async () => {
    const text = `O'Brien; DROP TABLE works; -- "quoted" \\ 'x'`
    expect(await ids('display_name', 'exact', phrase(text))).toStrictEqual(['W12'])
    expect(await ids('display_name', 'exact', word("o'brien"))).toStrictEqual(['W12'])
  })

  it('runs hostile text as search terms and changes nothing', async () => {
    await connection.run('CREATE TABLE search_guard AS SELECT 1 AS x')
    const hostile = [
      "'); DROP TABLE search_guard; --",
      '"; DELETE FROM search_guard; SELECT "',
      "x' OR '1'='1",
      '$1 %_ \\ ::text',
    ]
    for (const text of hostile) {
      expect(await ids('title_and_abstract', 'exact', phrase(text))).toStrictEqual([])
      expect(await ids('title_and_abstract', 'stemmed', allOf(word(text), not(word(text))))).toStrictEqual([])
    }
    const rows = (await connection.runAndReadAll('SELECT count(*) AS n FROM search_guard')).getRowObjectsJS()
    expect(Number(rows[0]?.n)).toBe(1)
  })
})
