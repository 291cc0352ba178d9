// `buildSearchIndex`: reads the texts of a catalog's records (`../catalog/record-texts-file.ts`) and writes
// the inverted index under `search/`.
// Tokenizing, positions, postings and statistics are DuckDB SQL (`search-index-sql.ts`); only the stemmer
// runs in TypeScript, once per distinct exact term, so the index and the query words share one stemmer.
//
// Memory stays bounded whatever the catalog's size. Documents are tokenized in segments (a range of ids),
// each leaving an unsorted work file of exact postings; only the document numbers and the term → stem
// mapping outlive a segment. Then, per mode, those postings are split by term range into buckets of about a
// million, and each bucket is merged and sorted on its own into one index file. Within a statement,
// DuckDB spills to its `temp_directory` past its `memory_limit`.
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { type DuckDBConnection, type DuckDBValue, listValue } from '@duckdb/node-api'
import type { CatalogEntity } from '@oqlkit/catalog'
import {
  type CatalogFile,
  constantLiteral,
  FREQUENT_TERMS,
  MIN_FREQUENT_ROWS,
  SEARCH_DIR,
  SEARCH_MODES,
  SEARCHABLE_ENTITIES,
  type SearchEntityIndex,
  type SearchFieldStats,
  type SearchIndexFileKind,
  type SearchIndexManifest,
  type SearchMode,
  type StoredField,
  searchEntityDir,
  searchFilePath,
  searchIndexManifest,
  storedFieldsOf,
} from '@oqlkit/catalog'
import { porterStem } from '@oqlkit/text-models'
import {
  type BuildSession,
  connectionSession,
  memoryLimitBytesOf,
  type SettingValue,
  withSettings,
} from '../texts/build-session.ts'
import { RecordTextsFiles } from '../texts/record-texts-file.ts'
import {
  BUCKET_BOUNDS_SQL,
  BUCKET_ROWS,
  COPY_BUCKET_PARTS_SQL,
  COPY_BUCKET_TERMS_SQL,
  COPY_DOC_STATS_SQL,
  COPY_DOCS_SQL,
  COPY_EMPTY_DOC_STATS_SQL,
  COPY_ONE_BUCKET_TERMS_SQL,
  COPY_SEGMENT_DOC_STATS_SQL,
  COPY_SEGMENT_EXACT_SQL,
  COPY_TERMS_SQL,
  CREATE_STEMS_SQL,
  CREATE_TERM_ROWS_SQL,
  copyBucketSql,
  copyEmptyBucketSql,
  copyFieldStatsSql,
  createBucketsSql,
  createDocsSql,
  createTextsSql,
  dropWorkTablesSql,
  FIELD_STATS_ROWS_SQL,
  FREQUENT_TERMS_SQL,
  idSchemeSql,
  NEW_TERMS_SQL,
  SEGMENT_BOUNDS_SQL,
} from './search-index-sql.ts'

/** What the build needs of a database (`../sql/build-session.ts`): ingest passes its staging database. */
export type SearchBuildSession = BuildSession

/**
 * Where the build is, across every entity, in units of documents: each counts once as its segment is
 * tokenized and once as its postings are written (spread over the buckets).
 */
export interface SearchBuildProgress {
  readonly entity: CatalogEntity
  /** `segment n/m` while documents are tokenized, then `exact postings n/m`, … */
  readonly step: string
  readonly done: number
  readonly total: number
}

export interface BuildSearchIndexOptions {
  /**
   * An open connection (or ingest's staging database); the build creates and drops temporary
   * `search_build_*` tables on it. Its `memory_limit` and `temp_directory` bound what the build holds.
   */
  readonly connection: DuckDBConnection | SearchBuildSession
  /** The catalog folder (its records, and its serving database for where each one lies). */
  readonly catalogDir: string
  /**
   * The entities' texts files (an ingest shares its own with the vectors and the tagger). Default: written
   * from the record stores `catalog.json` names, into the work folder.
   */
  readonly texts?: RecordTextsFiles
  /** Where `search/` is written (default: the catalog folder). */
  readonly outDir?: string
  /** A folder for work files, removed afterwards (default: `search/.build` under `outDir`). */
  readonly workDir?: string
  /** The entities to index; every entity of the catalog when absent. */
  readonly entities?: readonly CatalogEntity[]
  /**
   * Documents per segment (default: as many as make a 32nd of the session's `memory_limit` in bytes of the
   * entity's texts file, at least 1,000).
   * Smaller segments hold less in memory while they are built; fewer segments are faster to search.
   */
  readonly segmentDocs?: number
  /** Postings per bucket file (default `BUCKET_ROWS`, about a million); a term with more has one of its own. */
  readonly bucketRows?: number
  /** Called before each entity is indexed. */
  readonly onEntity?: (entity: CatalogEntity, done: number, total: number) => void
  /** Called as segments and index files are written. */
  readonly onProgress?: (progress: SearchBuildProgress) => void
}

/**
 * A segment holds about this share of the session's `memory_limit` in bytes of the texts file (zstd
 * Parquet, about 1.3 kB per generated work): tokenizing a segment and aggregating its postings (the positions
 * as lists, which DuckDB cannot spill) take 20-30 times its compressed texts. At 100k works in one segment of
 * 133 MB, a 768 MB limit ran out of memory and a 2 GB one reached 2.3 GB of RSS. A 2 GB limit makes
 * segments of about 43k generated works, 768 MB of 17k.
 */
const SEGMENT_SHARE_OF_MEMORY = 1 / 32
const MIN_SEGMENT_DOCS = 1000

interface SegmentBounds {
  readonly segment: number
  readonly docs: number
  readonly firstId: string
  readonly lastId: string
}

/** Builds the index of each entity; returns the manifest for `catalog.json` `extensions.search`. */
export async function buildSearchIndex(options: BuildSearchIndexOptions): Promise<SearchIndexManifest> {
  const { catalogDir } = options
  const outDir = options.outDir ?? catalogDir
  const workDir = options.workDir ?? join(outDir, SEARCH_DIR, '.build')
  const session = sessionOf(options.connection)
  const bucketRows = options.bucketRows ?? BUCKET_ROWS
  if (!Number.isSafeInteger(bucketRows) || bucketRows < 1)
    throw new Error(`bucketRows must be a positive integer, got ${bucketRows}`)
  const entities = options.entities ?? SEARCHABLE_ENTITIES
  const run = (sql: string, params: readonly DuckDBValue[] = []): Promise<number> => session.run(sql, params)
  const files: CatalogFile[] = []
  const output = (path: string): string => join(outDir, ...path.split('/'))
  const write = async (path: string, sql: string, params: readonly DuckDBValue[] = []): Promise<number> => {
    const rows = await run(sql, [...params, output(path)])
    files.push({ path, bytes: (await stat(output(path))).size, rows })
    return rows
  }

  const texts =
    options.texts ?? (await RecordTextsFiles.ofCatalog(session, catalogDir, join(workDir, 'texts')))
  const memoryLimit = await memoryLimitOf(session)
  const sizes = new Map<CatalogEntity, number>()
  for (const entity of entities) sizes.set(entity, await rowCount(session, texts.rowsOf(entity)))
  // Work in units of documents: each counts once when its segment is tokenized, once as its postings are
  // bucketed (spread over the buckets of both modes).
  const total = 2 * [...sizes.values()].reduce((sum, docs) => sum + docs, 0)
  let done = 0

  const indexed: Partial<Record<CatalogEntity, SearchEntityIndex>> = {}
  try {
    // Fewer DuckDB threads while the index is built, if its memory limit asks for it (then as it was).
    await withSettings(session, await threadsSettingFor(session, memoryLimit), async () => {
      for (const [position, entity] of entities.entries()) {
        options.onEntity?.(entity, position, entities.length)
        const report = (step: string) => options.onProgress?.({ entity, step, done, total })
        await mkdir(output(searchEntityDir(entity)), { recursive: true })
        await mkdir(workDir, { recursive: true })
        const fields = storedFieldsOf(entity)
        const source = await texts.of(entity)
        const path = (kind: SearchIndexFileKind, mode?: SearchMode, bucket?: number) =>
          searchFilePath(entity, kind, mode, bucket)
        // A rebuild in place starts from empty folders: no bucket of an earlier build is left to be read.
        for (const mode of SEARCH_MODES) {
          await rm(output(dirname(path('postings', mode))), { recursive: true, force: true })
          await mkdir(output(dirname(path('postings', mode))), { recursive: true })
        }

        const idPrefix = await idPrefixOf(session, `read_parquet(${constantLiteral(source)})`)
        const work = (name: string) => join(workDir, `${entity}-${name}`)
        const { exactParts, docStatsParts, postingRows } = await tokenizeTexts(session, {
          source,
          fields,
          numbered: idPrefix !== null,
          segmentDocs:
            options.segmentDocs ?? (await defaultSegmentDocs(source, sizes.get(entity) ?? 0, memoryLimit)),
          work,
          onSegment: (segment, segments) => report(`segment ${segment + 1}/${segments}`),
          onSegmentDone: (docs) => {
            done += docs
          },
        })

        report('docs')
        const docs = await write(path('docs'), COPY_DOCS_SQL)
        await run('DROP TABLE IF EXISTS search_build_docs')
        if (docStatsParts.length > 0) {
          await write(path('docStats'), COPY_DOC_STATS_SQL, [listOf(docStatsParts)])
        } else {
          await write(path('docStats'), COPY_EMPTY_DOC_STATS_SQL)
        }
        await write(path('fieldStats'), copyFieldStatsSql(fields), [output(path('docStats'))])
        const stats = await fieldStats(session, fields, output(path('docStats')))

        const postings = { exact: [] as string[], stemmed: [] as string[] }
        const bounds = { exact: [] as string[], stemmed: [] as string[] }
        const terms = { exact: 0, stemmed: 0 }
        const frequent: Record<SearchMode, Record<string, number>> = { exact: {}, stemmed: {} }
        // Postings that fit in one bucket (stemming only merges them: fewer still) are written straight from
        // the segments' files, with no split into buckets and no bucket term files: the sample catalog's
        // entities all fit, and their split was a third of the statements of its index build.
        const oneBucket = exactParts.length > 0 && postingRows <= bucketRows
        if (exactParts.length > 0 && !oneBucket) await run(CREATE_TERM_ROWS_SQL, [listOf(exactParts)])
        for (const mode of SEARCH_MODES) {
          const stemmed = mode === 'stemmed'
          if (oneBucket) {
            report(`${mode} postings 1/1`)
            postings[mode].push(path('postings', mode, 0))
            await write(path('postings', mode, 0), copyBucketSql(stemmed, 'segments'), [listOf(exactParts)])
            done += bucketShare(sizes.get(entity) ?? 0, 1)
            bounds[mode] = ['']
            report(`${mode} terms`)
            terms[mode] = await write(path('terms', mode), COPY_ONE_BUCKET_TERMS_SQL, [
              output(path('postings', mode, 0)),
            ])
            frequent[mode] = await frequentTermsOf(session, output(path('terms', mode)))
            continue
          }
          const lows = exactParts.length === 0 ? [] : await bucketLows(session, stemmed, bucketRows)
          const partsDir = work(`${mode}-buckets`)
          if (lows.length > 0) {
            // One copy into every bucket's folder (at 1M works 61 s and 0.8 GB of RSS for the exact postings;
            // the index's peak is scoring the stemmed buckets, 2.5 GB: BENCHMARKS.md, bh).
            report(`${mode} postings into ${lows.length} buckets`)
            await run(COPY_BUCKET_PARTS_SQL, [listOf(exactParts), partsDir])
          }
          for (const [bucket] of lows.entries()) {
            report(`${mode} postings ${bucket + 1}/${lows.length}`)
            const inputs = await filesIn(join(partsDir, `bucket=${bucket}`))
            postings[mode].push(path('postings', mode, bucket))
            await write(path('postings', mode, bucket), copyBucketSql(stemmed), [listOf(inputs)])
            await rm(join(partsDir, `bucket=${bucket}`), { recursive: true, force: true })
            done += bucketShare(sizes.get(entity) ?? 0, lows.length)
          }
          await rm(partsDir, { recursive: true, force: true })
          if (lows.length === 0) {
            // No postings at all: one empty bucket, so that every mode has a file to read.
            postings[mode].push(path('postings', mode, 0))
            await write(path('postings', mode, 0), copyEmptyBucketSql(idPrefix !== null))
          }
          // The first bucket starts at the smallest string, so every term falls in one.
          bounds[mode] = ['', ...lows.slice(1)]
          report(`${mode} terms`)
          const termParts = postings[mode].map((_, bucket) => work(`${mode}-terms-${bucket}.parquet`))
          for (const [bucket, file] of postings[mode].entries())
            await run(COPY_BUCKET_TERMS_SQL, [output(file), termParts[bucket]!])
          terms[mode] = await withSettings(session, { preserve_insertion_order: true }, () =>
            write(path('terms', mode), COPY_TERMS_SQL, [listOf(termParts)]),
          )
          for (const part of termParts) await rm(part, { force: true })
          frequent[mode] = await frequentTermsOf(session, output(path('terms', mode)))
        }
        for (const table of ['search_build_stems', 'search_build_term_rows', 'search_build_buckets'])
          await run(`DROP TABLE IF EXISTS ${table}`)
        for (const part of [...exactParts, ...docStatsParts]) await rm(part, { force: true })
        indexed[entity] = {
          docs,
          idPrefix,
          fields: stats,
          files: {
            docs: path('docs'),
            docStats: path('docStats'),
            fieldStats: path('fieldStats'),
            exact: {
              postings: postings.exact,
              bounds: bounds.exact,
              terms: path('terms', 'exact'),
              frequent: frequent.exact,
            },
            stemmed: {
              postings: postings.stemmed,
              bounds: bounds.stemmed,
              terms: path('terms', 'stemmed'),
              frequent: frequent.stemmed,
            },
          },
          terms,
        }
      }
    })
  } finally {
    for (const sql of dropWorkTablesSql()) await session.run(sql).catch(() => undefined)
    await rm(workDir, { recursive: true, force: true })
  }

  return searchIndexManifest(indexed, files, new Date())
}

/** What tokenizing a texts file leaves: per segment, a work file of exact postings and one of field lengths. */
export interface TokenizedTexts {
  readonly exactParts: readonly string[]
  readonly docStatsParts: readonly string[]
  /** Rows of exact postings in all the parts. */
  readonly postingRows: number
}

export interface TokenizeTextsOptions {
  /** The texts file (`../texts/record-texts-file.ts`). */
  readonly source: string
  readonly fields: readonly StoredField[]
  /** Documents numbered by the number in their id (`idPrefixOf` found one letter), else by rank. */
  readonly numbered: boolean
  readonly segmentDocs: number
  /** The path of a work file of this entity's, by name. */
  readonly work: (name: string) => string
  readonly onSegment?: (segment: number, segments: number) => void
  readonly onSegmentDone?: (docs: number) => void
}

/**
 * Numbers the documents of a texts file (the work table `search_build_docs`: doc, id, rank) and tokenizes
 * them in segments of consecutive ids, each into a work file of unsorted exact postings and one of field
 * lengths; every term not seen before is stemmed into `search_build_stems` (created empty here).
 */
export async function tokenizeTexts(
  session: SearchBuildSession,
  options: TokenizeTextsOptions,
): Promise<TokenizedTexts> {
  const { source, fields, work } = options
  await session.run(createDocsSql(options.numbered, `read_parquet(${constantLiteral(source)})`))
  await session.run(CREATE_STEMS_SQL)
  const segments = await segmentBounds(session, options.segmentDocs)
  const exactParts: string[] = []
  const docStatsParts: string[] = []
  let postingRows = 0
  for (const segment of segments) {
    options.onSegment?.(segment.segment, segments.length)
    const part = (name: string) => work(`${String(segment.segment).padStart(5, '0')}-${name}.parquet`)
    await session.run(createTextsSql(fields), [source, segment.firstId, segment.lastId])
    await session.run(COPY_SEGMENT_DOC_STATS_SQL, [part('doc-stats')])
    postingRows += await session.run(COPY_SEGMENT_EXACT_SQL, [part('exact')])
    await session.run('DROP TABLE IF EXISTS search_build_texts')
    await stemNewTerms(session, part('exact'))
    docStatsParts.push(part('doc-stats'))
    exactParts.push(part('exact'))
    options.onSegmentDone?.(segment.docs)
  }
  return { exactParts, docStatsParts, postingRows }
}

/** The manifest's `frequent` of a mode: the postings of its most frequent terms, from its dictionary. */
export async function frequentTermsOf(
  session: SearchBuildSession,
  termsFile: string,
): Promise<Record<string, number>> {
  const rows = await session.rows(FREQUENT_TERMS_SQL, [termsFile, FREQUENT_TERMS, MIN_FREQUENT_ROWS])
  return Object.fromEntries(rows.map((row) => [String(row.term), Number(row.rows)]))
}

export function sessionOf(connection: DuckDBConnection | SearchBuildSession): SearchBuildSession {
  return 'createAppender' in connection ? connectionSession(connection) : connection
}

export const listOf = (paths: readonly string[]): DuckDBValue => listValue([...paths])

async function rowCount(session: SearchBuildSession, relation: string): Promise<number> {
  const [row] = await session.rows(`SELECT count(*) AS n FROM ${relation}`)
  return Number(row?.n ?? 0)
}

/**
 * The letter every id of the entity starts with, when all are that letter and a plain number; else null.
 * `from`: its rows or texts, a relation with an `id`.
 */
export async function idPrefixOf(session: SearchBuildSession, from: string): Promise<string | null> {
  const [row] = await session.rows(idSchemeSql(from))
  const numbered =
    Number(row?.records ?? 0) > 0 && Number(row?.prefixes) === 1 && Number(row?.irregular) === 0
  return numbered && typeof row?.prefix === 'string' ? row.prefix : null
}

export async function defaultSegmentDocs(file: string, docs: number, memoryLimit: number): Promise<number> {
  if (docs === 0) return MIN_SEGMENT_DOCS
  const bytesPerDoc = Math.max(1, (await stat(file)).size / docs)
  return Math.max(MIN_SEGMENT_DOCS, Math.floor((memoryLimit * SEGMENT_SHARE_OF_MEMORY) / bytesPerDoc))
}

/**
 * Memory each DuckDB thread needs beyond what it can spill: tokenizing a segment's texts holds about 100-150
 * MB per thread of vectors of token lists (5,000 generated works under a 244 MiB limit: out of memory on two
 * threads, done on one; on two threads from 320 MB).
 */
const MEMORY_PER_THREAD = 256 * 2 ** 20

/**
 * The `threads` setting the session's `memory_limit` gives room for, when it has more threads than that; no
 * setting when it fits (for `withSettings`).
 */
export async function threadsSettingFor(
  session: SearchBuildSession,
  memoryLimit: number,
): Promise<Readonly<Record<string, SettingValue>>> {
  const [row] = await session.rows("SELECT current_setting('threads') AS threads")
  const fits = Math.max(1, Math.floor(memoryLimit / MEMORY_PER_THREAD))
  return Number(row?.threads) > fits ? { threads: fits } : {}
}

/** The session's `memory_limit` in bytes; DuckDB shows it rounded, as `732.4 MiB`. */
export async function memoryLimitOf(session: SearchBuildSession): Promise<number> {
  const bytes = await memoryLimitBytesOf(session)
  if (bytes === undefined) throw new Error('Unexpected DuckDB memory_limit: not a size')
  return bytes
}

/** A bucket's share of the second count of an entity's documents (two modes). */
const bucketShare = (docs: number, buckets: number): number => docs / 2 / buckets

/** Assigns every term (stemmed mode: every stem) a bucket; returns each bucket's first term, in order. */
async function bucketLows(
  session: SearchBuildSession,
  stemmed: boolean,
  bucketRows: number,
): Promise<string[]> {
  await session.run(createBucketsSql(stemmed), [bucketRows])
  return (await session.rows(BUCKET_BOUNDS_SQL)).map((row) => String(row.low))
}

async function filesIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith('.parquet')).map((name) => join(dir, name))
}

async function segmentBounds(session: SearchBuildSession, segmentDocs: number): Promise<SegmentBounds[]> {
  if (!Number.isSafeInteger(segmentDocs) || segmentDocs < 1)
    throw new Error(`segmentDocs must be a positive integer, got ${segmentDocs}`)
  return (await session.rows(SEGMENT_BOUNDS_SQL, [segmentDocs])).map((row) => ({
    segment: Number(row.segment),
    docs: Number(row.docs),
    firstId: String(row.first_id),
    lastId: String(row.last_id),
  }))
}

/** Stems the terms of a segment not seen in an earlier one; every term seen is kept, with its stem. */
async function stemNewTerms(session: SearchBuildSession, postingsFile: string): Promise<void> {
  const terms = await session.rows(NEW_TERMS_SQL, [postingsFile])
  const appender = await session.appender('search_build_stems')
  try {
    for (const { term } of terms) {
      if (typeof term !== 'string') continue
      appender.appendVarchar(term)
      appender.appendVarchar(porterStem(term))
      appender.endRow()
    }
  } finally {
    appender.closeSync()
  }
}

export async function fieldStats(
  session: SearchBuildSession,
  fields: readonly StoredField[],
  docStatsFile: string,
): Promise<SearchFieldStats[]> {
  const rows = await session.rows(FIELD_STATS_ROWS_SQL, [docStatsFile])
  const byCode = new Map(rows.map((row) => [Number(row.field), row]))
  return fields.map((field) => {
    const row = byCode.get(field.code)
    const docs = Number(row?.docs ?? 0)
    const tokens = Number(row?.tokens ?? 0)
    return {
      name: field.name,
      code: field.code,
      docs,
      tokens,
      avgLength: docs === 0 ? 0 : tokens / docs,
    }
  })
}
