// The autocomplete index against the scan it replaces: for typed text of every kind (one letter, two, whole
// words, phrases, text longer than the index's cut, accents and punctuation, nothing matching), with and
// without filters, on several entities, the two must give the same records in the same order. On the bundled
// sample (a real ingest, so real filters) and on a generated snapshot (names as the generator writes them).
// The index is built with a short cut and small thresholds here, so that a small catalog reaches every path:
// the stored answers, ranges, pieces chained across several word starts, and the fallback to the scan.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { CatalogEntity } from '@oqlkit/catalog'
import { CATALOG_ENTITIES, readCatalogManifest, SERVING_DATABASE_FILE } from '@oqlkit/catalog'
import { type AutocompleteRequest, type FilterNode, planQuery } from '@oqlkit/engine'
import type { EntityType, Oqo } from '@oqlkit/oqo-schema'
import { generateSnapshot } from '@oqlkit/snapshot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  AUTOCOMPLETE_LAYOUT_TABLE,
  type AutocompleteIndexLayout,
  type AutocompleteIndexOptions,
  autocompleteIndexStatements,
  autocompleteListTable,
  autocompletePrefixTable,
  readAutocompleteLayouts,
} from '../src/query/autocomplete-index.ts'
import { rankAutocompleteMatches, textPieces } from '../src/query/autocomplete-lookup.ts'
import { catalogViewStatements } from '../src/query/catalog-view-statements.ts'
import {
  NARROW_ROW_COLUMN,
  normalizedNameSql,
  SERVING_DATABASE_NAME,
  served,
} from '../src/query/catalog-views.ts'
import { createDuckDbAdapter } from '../src/query/duckdb-adapter.ts'
import { type DuckDbConnectionLike, openDuckDbDatabase } from '../src/query/duckdb-driver.ts'
import { ingestSampleCatalog } from './query-sample-fixture.ts'

/** Small enough that a few hundred names have stored answers, chained pieces and words too long for a piece. */
const SMALL: AutocompleteIndexOptions = {
  prefixChars: 8,
  listRows: 5,
  listAbove: 24,
  popularRows: 40,
  minRows: 0,
}

/** Drops the index an ingest built (if any) and builds one with `options`, in the attached serving database. */
const rebuildIndex = async (
  db: DuckDbConnectionLike,
  rowCountOf: (entity: CatalogEntity) => number,
  options: AutocompleteIndexOptions,
): Promise<void> => {
  await db.all(`DROP TABLE IF EXISTS ${served(`"${AUTOCOMPLETE_LAYOUT_TABLE}"`)}`)
  for (const info of CATALOG_ENTITIES) {
    await db.all(`DROP TABLE IF EXISTS ${served(autocompletePrefixTable(info.entity))}`)
    await db.all(`DROP TABLE IF EXISTS ${served(autocompleteListTable(info.entity))}`)
  }
  for (const statement of autocompleteIndexStatements(served, rowCountOf, options)) await db.all(statement)
}

/**
 * What people type, cut from the names: a few of every kind (the first letters and two letters of words,
 * whole words, phrases from the second word with the last one cut, names cut just past the index's cut,
 * whole names, and names with more after them), the same for the same names.
 */
const typedTexts = (names: readonly string[], prefixChars: number, perKind = 6): string[] => {
  const kinds: string[][] = [[], [], [], [], [], [], []]
  names.forEach((name, index) => {
    const words = name.split(' ')
    const word = words[index % words.length]!
    kinds[0]!.push(word.slice(0, 1))
    if (word.length >= 2) kinds[1]!.push(word.slice(0, 2))
    kinds[2]!.push(word)
    if (words.length >= 3) {
      const phrase = words.slice(1, 5)
      phrase[phrase.length - 1] = phrase.at(-1)!.slice(0, 2)
      kinds[3]!.push(phrase.join(' '))
    }
    if (name.length > prefixChars + 3) kinds[4]!.push(name.slice(0, prefixChars + 3).trim())
    kinds[5]!.push(name)
    kinds[6]!.push(`${name} x`)
  })
  return [...new Set(kinds.flatMap((texts) => [...new Set(texts)].slice(0, perKind)))]
}

/** Texts every catalog is asked: forms that normalise (case, accents, punctuation), and ones matching nothing. */
const ODD_TEXTS = [
  'THE',
  'Université de',
  'universite de',
  '  the,,  ',
  'l’étude',
  'covid-19',
  '(a)',
  'zzzzqq',
  'qx',
  'the the the the the',
  'a b c d e f g h i j',
  'internationalization',
  'characterization of the',
]

const sameAnswers = async (
  db: DuckDbConnectionLike,
  layout: AutocompleteIndexLayout,
  entity: EntityType,
  texts: readonly string[],
  limits: readonly number[],
  filter: FilterNode | null = null,
): Promise<number> => {
  let compared = 0
  for (const text of texts)
    for (const limit of limits) {
      const request: AutocompleteRequest = { entity, text, limit, filter }
      const indexed = (await rankAutocompleteMatches(db, request, NARROW_ROW_COLUMN, layout)).map(
        (row) => row.__id,
      )
      const scanned = (await rankAutocompleteMatches(db, request, NARROW_ROW_COLUMN, undefined)).map(
        (row) => row.__id,
      )
      expect(indexed, `${entity} ${JSON.stringify(text)} limit ${limit}`).toEqual(scanned)
      compared++
    }
  return compared
}

const filterOf = (entity: EntityType, filter_rows: Oqo['filter_rows'] & object): FilterNode => {
  const planned = planQuery({ get_rows: entity, filter_rows } as Oqo, {})
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan.filter!
}

describe('text pieces', () => {
  it('cover the text in overlapping pieces from word starts, or give up on a word too long', () => {
    expect(textPieces('deep learning', 16)).toEqual([{ text: 'deep learning', word: 0 }])
    // The last piece as long as it can be; each before it reaching the next one's word.
    expect(textPieces('deep learning for drug discovery', 16)).toEqual([
      { text: 'deep learning fo', word: 0 },
      { text: 'learning for dru', word: 1 },
      { text: 'drug discovery', word: 3 },
    ])
    expect(textPieces('the effect of vi', 16)).toEqual([{ text: 'the effect of vi', word: 0 }])
    expect(textPieces('three hence of vi', 16)).toEqual([
      { text: 'three hence of v', word: 0 },
      { text: 'hence of vi', word: 1 },
    ])
    // Each piece reaches the space before the next one's word.
    expect(textPieces('abcdefg hij', 8)).toEqual([
      { text: 'abcdefg ', word: 0 },
      { text: 'hij', word: 1 },
    ])
    expect(textPieces('abcdefgh ij', 8)).toBeUndefined()
    expect(textPieces('abcdefghi', 8)).toBeUndefined()
    // Characters, not UTF-16 units.
    expect(textPieces('𝔞𝔟𝔠𝔡𝔢𝔣𝔤 x', 8)).toEqual([
      { text: '𝔞𝔟𝔠𝔡𝔢𝔣𝔤 ', word: 0 },
      { text: 'x', word: 1 },
    ])
  })
})

describe('on the bundled sample', () => {
  let catalogDir: string
  let dispose: () => void
  let db: DuckDbConnectionLike
  let layouts: ReadonlyMap<CatalogEntity, AutocompleteIndexLayout>
  const names = new Map<EntityType, string[]>()

  beforeAll(async () => {
    ;({ catalogDir, dispose } = await ingestSampleCatalog())
    const manifest = await readCatalogManifest(catalogDir)
    if (!manifest.ok) throw new Error(manifest.message)
    // Rebuilt in the catalog's own file, then opened the way `serve` opens it.
    const writer = await openDuckDbDatabase({ connections: 1, threads: 1 })
    await writer.all(`ATTACH '${join(catalogDir, SERVING_DATABASE_FILE)}' AS ${SERVING_DATABASE_NAME}`)
    await rebuildIndex(writer, (entity) => manifest.manifest.entities[entity]?.rowCount ?? 0, SMALL)
    await writer.close()
    // One thread: these tables are small, and a statement is then quicker to start.
    db = await openDuckDbDatabase({
      connections: 1,
      threads: 1,
      attach: { path: join(catalogDir, SERVING_DATABASE_FILE), name: SERVING_DATABASE_NAME },
    })
    for (const statement of catalogViewStatements(catalogDir, manifest.manifest, 'narrow'))
      await db.all(statement)
    layouts = await readAutocompleteLayouts(db, SERVING_DATABASE_NAME)
    for (const entity of ['works', 'authors', 'institutions', 'concepts'] as const)
      names.set(
        entity,
        (
          await db.all(
            `SELECT __autocomplete_name AS name FROM "${entity}__narrow" WHERE __autocomplete_name <> '' ORDER BY hash(id) LIMIT 120`,
          )
        ).map((row) => String(row.name)),
      )
  }, 240_000)
  afterAll(async () => {
    await db?.close()
    dispose?.()
  })

  it('has stored answers and word starts for every entity it was asked to index', async () => {
    expect(layouts.get('works')).toEqual({ prefixChars: 8, listRows: 5 })
    expect(layouts.size).toBe(CATALOG_ENTITIES.length)
    const [lists] = await db.all(`SELECT count(*) AS n FROM ${autocompleteListTable('works')}`)
    expect(Number(lists?.n)).toBeGreaterThan(20)
  })

  it('answers as the scan does, text of every kind, several entities and limits', async () => {
    let compared = 0
    for (const [entity, list] of names) {
      const texts = [...typedTexts(list, 8), ...ODD_TEXTS]
      // Limits within the stored answers' length and over it.
      compared += await sameAnswers(db, layouts.get(entity as CatalogEntity)!, entity, texts, [3, 12])
    }
    expect(compared).toBeGreaterThan(300)
  }, 60_000)

  it('answers as the scan does under filters, stored answer or not', async () => {
    const texts = [...typedTexts(names.get('works')!, 8, 2), 'a', 'th', 'of', 'the']
    const layout = layouts.get('works')!
    const [author] = await db.all(
      'SELECT key FROM link_works_authors__narrow GROUP BY key ORDER BY count(*) DESC, key LIMIT 1',
    )
    const filters = [
      filterOf('works', [{ column_id: 'publication_year', value: 2015, operator: '>=' }]),
      filterOf('works', [
        { column_id: 'type', value: 'article' },
        { join: 'or', is_negated: true, filters: [{ column_id: 'is_oa', value: true }] },
      ]),
      filterOf('works', [{ column_id: 'authorships.author.id', value: `A${author?.key}` }]),
    ]
    let compared = 0
    for (const filter of filters) compared += await sameAnswers(db, layout, 'works', texts, [2, 5], filter)
    compared += await sameAnswers(
      db,
      layouts.get('authors')!,
      'authors',
      ['a', 'j', 'mar'],
      [5],
      filterOf('authors', [{ column_id: 'works_count', value: 1, operator: '>' }]),
    )
    expect(compared).toBeGreaterThan(80)
  }, 60_000)

  it('scans instead when a filtered prefix matches more names than the candidate limit, with the same answers', async () => {
    // A recording wrapper over the real database (not a stand-in): which statements the lookup ran.
    const statements: string[] = []
    const recording: DuckDbConnectionLike = {
      all: (statement, params, signal) => {
        statements.push(statement)
        return db.all(statement, params, signal)
      },
      close: () => db.close(),
    }
    const isScan = (statement: string) => statement.includes("contains(' ' ||")
    const layout = layouts.get('works')!
    const filter = filterOf('works', [{ column_id: 'publication_year', value: 2000, operator: '>=' }])
    // Texts of two words or more have no stored answer: the index ranks their matches, then filters them.
    // (and that the index can cover: no word but the last longer than a piece).
    const texts = typedTexts(names.get('works')!, 8, 12).filter(
      (text) => text.includes(' ') && textPieces(text, layout.prefixChars) !== undefined,
    )
    let fellBack = 0
    for (const text of texts) {
      const request: AutocompleteRequest = { entity: 'works', text, limit: 3, filter }
      const scanned = (await rankAutocompleteMatches(db, request, NARROW_ROW_COLUMN, undefined)).map(
        (row) => row.__id,
      )
      statements.length = 0
      const ranked = await rankAutocompleteMatches(recording, request, NARROW_ROW_COLUMN, layout)
      const byIndex = !statements.some(isScan)
      statements.length = 0
      // One candidate allowed: any text matching two names or more goes to the scan.
      const capped = await rankAutocompleteMatches(recording, request, NARROW_ROW_COLUMN, layout, 1)
      if (statements.some(isScan)) fellBack++
      expect(
        capped.map((row) => row.__id),
        JSON.stringify(text),
      ).toEqual(scanned)
      expect(ranked.map((row) => row.__id)).toEqual(scanned)
      expect(byIndex, `${JSON.stringify(text)} by the index under the default limit`).toBe(true)
    }
    expect(texts.length).toBeGreaterThan(5)
    expect(fellBack).toBeGreaterThan(0)
  })

  it('is what the adapter answers in narrow mode, and the other modes and an index-less database agree', async () => {
    const request = (text: string, filter: FilterNode | null = null): AutocompleteRequest => ({
      entity: 'works',
      text,
      limit: 5,
      filter,
    })
    const idsOf = (records: readonly { id?: unknown }[]) => records.map((record) => record.id)
    const narrow = await createDuckDbAdapter({ catalogDir, load: 'narrow', threads: 1 })
    const tables = await createDuckDbAdapter({ catalogDir, load: 'tables', threads: 1 })
    try {
      for (const text of ['a', 'the', 'biodiversity conservation', 'Long short-term', 'zzzq']) {
        const expected = idsOf(await tables.autocomplete!(request(text)))
        expect(idsOf(await narrow.autocomplete!(request(text))), text).toEqual(expected)
      }
    } finally {
      await narrow.close()
      await tables.close()
    }
    // A serving database from before the index: no layout table, and the same answers by the scan.
    const writer = await openDuckDbDatabase({ connections: 1 })
    await writer.all(`ATTACH '${join(catalogDir, SERVING_DATABASE_FILE)}' AS ${SERVING_DATABASE_NAME}`)
    await writer.all(`DROP TABLE ${served(`"${AUTOCOMPLETE_LAYOUT_TABLE}"`)}`)
    await writer.close()
    const older = await createDuckDbAdapter({ catalogDir, load: 'narrow', threads: 1 })
    try {
      const found = await older.autocomplete!(request('the'))
      expect(found.length).toBe(5)
    } finally {
      await older.close()
    }
  }, 60_000)
})

/** `display_name` and popularity of every record of a generated entity folder, by id. */
const generatedRecords = (dataDir: string, entity: string) => {
  const byId = new Map<string, { id: string; name: string | null; cited: number; works: number }>()
  for (const entry of readdirSync(join(dataDir, entity), { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.gz')) continue
    for (const line of gunzipSync(readFileSync(join(dataDir, entity, entry)))
      .toString('utf8')
      .split('\n')) {
      if (line === '') continue
      const record = JSON.parse(line) as Record<string, unknown>
      const id = String(record.id).slice(String(record.id).lastIndexOf('/') + 1)
      byId.set(id, {
        id,
        name: (record.display_name as string | null) ?? null,
        cited: Number(record.cited_by_count ?? 0),
        works: Number(record.works_count ?? 0),
      })
    }
  }
  return [...byId.values()]
}

describe('on a generated snapshot', () => {
  let root: string
  let db: DuckDbConnectionLike
  const entities = ['works', 'authors', 'institutions', 'keywords'] as const
  const names = new Map<EntityType, string[]>()

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'oqlkit-autocomplete-'))
    const summary = await generateSnapshot({ works: 1500, outDir: join(root, 'snapshot'), seed: 3 })
    // Only what autocomplete reads, as the serving database holds it: narrow tables in id order with the
    // normalised name, and the row locations.
    db = await openDuckDbDatabase({ connections: 1, threads: 1 })
    await db.all(`ATTACH ':memory:' AS ${SERVING_DATABASE_NAME}`)
    await db.all(`SET search_path = 'memory.main,${SERVING_DATABASE_NAME}.main'`)
    const rows = new Map<string, number>()
    for (const entity of entities) {
      const records = generatedRecords(summary.dataDir, entity)
      // Popular works that match `dq` at many words and never first: their matches fill the window of word
      // starts read for three rows with two rows, and the rows are ranked whole instead.
      if (entity === 'works')
        records.push(
          ...['x', 'y', 'z'].map((first, index) => ({
            id: `W9999999${index}`,
            name: `${first} ${'dq '.repeat(index === 2 ? 1 : 8).trim()}`,
            cited: 1_000_000_000 - index,
            works: 0,
          })),
        )
      rows.set(entity, records.length)
      await db.all(
        `CREATE TABLE ${served(`"${entity}__narrow"`)} AS SELECT id, display_name, cited_by_count, works_count, 0 AS record_offset, 0 AS record_bytes, ${normalizedNameSql('r')} AS __autocomplete_name, CAST(row_number() OVER (ORDER BY id) - 1 AS UINTEGER) AS ${NARROW_ROW_COLUMN} FROM (SELECT unnest(CAST(CAST(? AS JSON) AS STRUCT(id VARCHAR, display_name VARCHAR, cited_by_count BIGINT, works_count BIGINT)[]), recursive := true)) AS r ORDER BY id`,
        [
          JSON.stringify(
            records.map((record) => ({
              id: record.id,
              display_name: record.name,
              cited_by_count: record.cited,
              works_count: record.works,
            })),
          ),
        ],
      )
      await db.all(
        `CREATE TABLE ${served(`"${entity}__locations"`)} AS SELECT ${NARROW_ROW_COLUMN} AS "row", id, record_offset, record_bytes FROM ${served(`"${entity}__narrow"`)}`,
      )
      names.set(
        entity,
        (
          await db.all(
            `SELECT __autocomplete_name AS name FROM "${entity}__narrow" WHERE __autocomplete_name <> '' ORDER BY hash(id) LIMIT 120`,
          )
        ).map((row) => String(row.name)),
      )
    }
    await rebuildIndex(db, (entity) => rows.get(entity) ?? 0, { ...SMALL, prefixChars: 12, minRows: 1 })
  }, 120_000)
  afterAll(async () => {
    await db?.close()
    if (root !== undefined) rmSync(root, { recursive: true, force: true })
  })

  it('answers as the scan does, text of every kind, several entities and limits', async () => {
    const layouts = await readAutocompleteLayouts(db, SERVING_DATABASE_NAME)
    for (const entity of entities) expect(layouts.has(entity), entity).toBe(true)
    let compared = 0
    for (const [entity, list] of names) {
      const texts = [...typedTexts(list, 12), ...ODD_TEXTS, 'dq']
      compared += await sameAnswers(db, layouts.get(entity as CatalogEntity)!, entity, texts, [3, 12])
    }
    expect(compared).toBeGreaterThan(300)
  }, 60_000)
})
