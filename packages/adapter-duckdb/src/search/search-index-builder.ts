// `buildSearchIndex`: reads the entity files of a catalog and writes the inverted index under `search/`.
// Tokenizing, positions, postings and statistics are DuckDB SQL (`search-index-sql.ts`); only the stemmer
// runs in TypeScript, once per distinct exact term, so the index and the query words share one stemmer.
import { mkdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { DuckDBAppender, DuckDBConnection, DuckDBValue } from '@duckdb/node-api'
import type { CatalogEntity } from '../catalog/catalog-entities.ts'
import { type CatalogFile, entityFilePath } from '../catalog/catalog-layout.ts'
import { porterStem } from './porter-stemmer.ts'
import { SEARCHABLE_ENTITIES, type StoredField, storedFieldsOf } from './search-fields.ts'
import {
  BM25_B,
  BM25_K1,
  SEARCH_INDEX_FORMAT,
  SEARCH_INDEX_FORMAT_VERSION,
  SEARCH_MODES,
  SEARCH_STEMMER_ID,
  SEARCH_TOKENIZER_ID,
  SEGMENT_GAP,
  type SearchEntityIndex,
  type SearchFieldStats,
  type SearchIndexFileKind,
  type SearchIndexManifest,
  type SearchMode,
  searchEntityDir,
  searchFilePath,
} from './search-index-layout.ts'
import {
  COPY_DOC_STATS_SQL,
  COPY_DOCS_SQL,
  CREATE_DOC_STATS_SQL,
  CREATE_DOCS_SQL,
  CREATE_EXACT_SQL,
  CREATE_STEMMED_SQL,
  CREATE_STEMS_SQL,
  copyFieldStatsSql,
  copyPostingsSql,
  copyTermsSql,
  createSegmentsSql,
  DISTINCT_EXACT_TERMS_SQL,
  dropWorkTablesSql,
  FIELD_STATS_ROWS_SQL,
  type PostingsTable,
} from './search-index-sql.ts'

/**
 * What the build needs of a database: the shape of ingest's `StagingDatabase`, so ingest can pass its own.
 * `run` returns the number of rows changed or written; `rows` returns row objects.
 */
export interface SearchBuildSession {
  run(sql: string, params?: readonly DuckDBValue[]): Promise<number>
  rows(sql: string, params?: readonly DuckDBValue[]): Promise<Record<string, unknown>[]>
  appender(table: string): Promise<DuckDBAppender>
}

export interface BuildSearchIndexOptions {
  /**
   * An open connection (or ingest's staging database); the build creates and drops temporary
   * `search_build_*` tables on it.
   */
  readonly connection: DuckDBConnection | SearchBuildSession
  /** The catalog folder: entity files are read from `entities/`, the index is written to `search/`. */
  readonly catalogDir: string
  /** The entities to index; every entity of the catalog when absent. */
  readonly entities?: readonly CatalogEntity[]
  /** Called before each entity is indexed. */
  readonly onEntity?: (entity: CatalogEntity, done: number, total: number) => void
}

const POSTINGS_TABLES: Readonly<Record<SearchMode, PostingsTable>> = {
  exact: 'search_build_exact',
  stemmed: 'search_build_stemmed',
}

/** Builds the index of each entity; returns the manifest for `catalog.json` `extensions.search`. */
export async function buildSearchIndex(options: BuildSearchIndexOptions): Promise<SearchIndexManifest> {
  const { catalogDir } = options
  const session = sessionOf(options.connection)
  const entities = options.entities ?? SEARCHABLE_ENTITIES
  const run = (sql: string, params: readonly DuckDBValue[] = []): Promise<number> => session.run(sql, params)
  const files: CatalogFile[] = []
  const absolute = (path: string): string => join(catalogDir, ...path.split('/'))
  const write = async (path: string, sql: string): Promise<number> => {
    const rows = await run(sql, [absolute(path)])
    files.push({ path, bytes: (await stat(absolute(path))).size, rows })
    return rows
  }

  const indexed: Partial<Record<CatalogEntity, SearchEntityIndex>> = {}
  try {
    for (const [done, entity] of entities.entries()) {
      options.onEntity?.(entity, done, entities.length)
      await mkdir(absolute(searchEntityDir(entity)), { recursive: true })
      const fields = storedFieldsOf(entity)
      const source = [absolute(entityFilePath(entity))]
      const path = (kind: SearchIndexFileKind, mode?: SearchMode) => searchFilePath(entity, kind, mode)

      await run(CREATE_DOCS_SQL, source)
      await run(createSegmentsSql(fields), source)
      await run(CREATE_DOC_STATS_SQL)
      await run(CREATE_EXACT_SQL)
      await createStems(session)
      await run(CREATE_STEMMED_SQL)

      const docs = await write(path('docs'), COPY_DOCS_SQL)
      await write(path('docStats'), COPY_DOC_STATS_SQL)
      await write(path('fieldStats'), copyFieldStatsSql(fields))
      const terms = { exact: 0, stemmed: 0 }
      for (const mode of SEARCH_MODES) {
        await write(path('postings', mode), copyPostingsSql(POSTINGS_TABLES[mode]))
        terms[mode] = await write(path('terms', mode), copyTermsSql(POSTINGS_TABLES[mode]))
      }
      indexed[entity] = {
        docs,
        fields: await fieldStats(session, fields),
        files: {
          docs: path('docs'),
          docStats: path('docStats'),
          fieldStats: path('fieldStats'),
          exact: { postings: path('postings', 'exact'), terms: path('terms', 'exact') },
          stemmed: { postings: path('postings', 'stemmed'), terms: path('terms', 'stemmed') },
        },
        terms,
      }
      for (const sql of dropWorkTablesSql()) await run(sql)
    }
  } finally {
    for (const sql of dropWorkTablesSql()) await session.run(sql).catch(() => undefined)
  }

  return {
    format: SEARCH_INDEX_FORMAT,
    formatVersion: SEARCH_INDEX_FORMAT_VERSION,
    builtAt: new Date().toISOString(),
    tokenizer: SEARCH_TOKENIZER_ID,
    stemmer: SEARCH_STEMMER_ID,
    segmentGap: SEGMENT_GAP,
    bm25: { k1: BM25_K1, b: BM25_B },
    entities: indexed,
    files,
  }
}

function sessionOf(connection: DuckDBConnection | SearchBuildSession): SearchBuildSession {
  if (!('createAppender' in connection)) return connection
  return {
    run: async (sql, params = []) => (await connection.run(sql, [...params])).rowsChanged,
    rows: async (sql, params = []) => (await connection.runAndReadAll(sql, [...params])).getRowObjectsJson(),
    appender: (table) => connection.createAppender(table),
  }
}

/** Stems every distinct exact term once; only the terms the stemmer changes are stored. */
async function createStems(session: SearchBuildSession): Promise<void> {
  await session.run(CREATE_STEMS_SQL)
  const terms = await session.rows(DISTINCT_EXACT_TERMS_SQL)
  const appender = await session.appender('search_build_stems')
  try {
    for (const { term } of terms) {
      if (typeof term !== 'string') continue
      const stem = porterStem(term)
      if (stem === term) continue
      appender.appendVarchar(term)
      appender.appendVarchar(stem)
      appender.endRow()
    }
  } finally {
    appender.closeSync()
  }
}

async function fieldStats(
  session: SearchBuildSession,
  fields: readonly StoredField[],
): Promise<SearchFieldStats[]> {
  const byCode = new Map((await session.rows(FIELD_STATS_ROWS_SQL)).map((row) => [Number(row.field), row]))
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
