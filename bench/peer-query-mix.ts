// The fixed query mix of the peer benchmark: real API shapes, each asked three ways over the same data —
// `app` (our whole request without a socket: URL reading, planning, DuckDB, shaping, JSON, through h3's
// `app.fetch`), `duckdb` (the same question written by hand in DuckDB SQL over the catalog's Parquet files,
// the engine's own floor) and `postgres` (the equivalent SQL over the snapshot loaded into PostgreSQL the way
// OpenAlex's documentation scripts lay it out, with keys and indexes added).
//
// What each side returns differs in one way worth knowing: `app` and `duckdb` return whole records (the JSON
// the API serves; the hand-written DuckDB pages select where each record is in the works' record store and
// read it from there, `hand-sql-views.ts`), `postgres` returns the flattened `works` rows, since that layout
// keeps no whole record; rebuilding one would take a join per side table, so the baseline is spared that cost.
import type { DuckDBConnection } from '@duckdb/node-api'
import type { H3 } from 'h3'
import type { PostgresSql } from './postgres/postgres-snapshot-loader.ts'

/** How a shape's cost should grow with the catalog: where an index or a sorted range answers, or a scan. */
export type Growth = 'constant' | 'matches' | 'linear'

export interface QueryShape {
  readonly name: string
  readonly growth: Growth
  /** Our request (path and query) for round `round`. */
  readonly path: (round: number) => string
  readonly duckdb: (round: number) => Promise<unknown>
  readonly postgres?: (round: number) => Promise<unknown>
  /**
   * The number each contender's answer should agree on, read once before timing: a list's total count, a
   * group-by's largest bucket. A disagreement means the hand-written SQL asks a different question.
   */
  readonly check?: {
    readonly fromApp: (body: string) => number
    readonly duckdb: () => Promise<number>
    readonly postgres?: () => Promise<number>
  }
}

const firstNumber = (rows: readonly Record<string, unknown>[]): number => Number(rows[0]?.n ?? Number.NaN)
const listCount = (body: string): number => (JSON.parse(body) as { meta: { count: number } }).meta.count
const largestBucket = (body: string): number =>
  Math.max(...(JSON.parse(body) as { group_by: { count: number }[] }).group_by.map((bucket) => bucket.count))

export interface QueryMixSources {
  readonly app: H3
  readonly duckdb: DuckDBConnection
  /** The works' records of the rows a hand-written page selects (`record_offset`, `record_bytes`). */
  readonly duckdbRecords: (sql: string, params?: Param[]) => Promise<Uint8Array[]>
  readonly postgres: PostgresSql | undefined
}

type Param = string | number

const OPENALEX = 'https://openalex.org/'
const longId = (shortId: string) => (shortId.startsWith('http') ? shortId : `${OPENALEX}${shortId}`)

export const appGet = async (app: H3, path: string): Promise<string> => {
  const response = await app.fetch(new Request(`http://bench${path}`))
  const body = await response.text()
  if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status} ${body.slice(0, 300)}`)
  return body
}

/** The values the queries use, drawn from the catalog deterministically (the same at every run and size). */
interface MixValues {
  readonly workIds: readonly string[]
  readonly dois: readonly string[]
  readonly author: string
  readonly institution: string
  readonly topic: string
  readonly cited: string
}

const CURSOR_DEPTH_PAGES = 100 // of 100 results: the page that starts at result 10,000
const SEARCH_WORDS = ['learning', 'network'] as const
const SAMPLE_SEED = 42
// Each word in the title (any case). The abstracts are only in the record store, which SQL cannot read, so the
// hand-written search is a stand-in over titles: its count is not checked against the app's.
const HAND_SEARCH = [1, 2].map((n) => `w.display_name ILIKE '%' || $${n} || '%'`).join(' AND ')
// The API answers from the core corpus unless asked otherwise (xpac works left out, as OpenAlex does), so
// every hand-written list, count and group-by says so too; over the alias `w` of the works table.
const CORE_W = 'NOT coalesce(w.is_xpac, FALSE)'
export const NESTED_OQL =
  'works where (type is (article) or type is (review)) and (year >= (2015) and (open access is (true) or citation count > (20)))'

export async function buildQueryMix(sources: QueryMixSources): Promise<QueryShape[]> {
  const { app, duckdb, postgres, duckdbRecords: records } = sources
  const rows = async (sql: string, params: Param[] = []) =>
    (await duckdb.runAndReadAll(sql, params)).getRowObjectsJson()
  const pg = postgres
  const pgRows = (sql: string, params: Param[] = []) => pg!.unsafe(sql, params)

  const values = await drawValues(rows)
  const at = <T>(list: readonly T[], round: number) => list[round % list.length]!

  // A list shape: the count and the first page, as two statements (what a client of either database sends).
  const list = (
    name: string,
    growth: Growth,
    path: string,
    duck: { count: string; page: string; params?: Param[] },
    pgSql?: { count: string; page: string; params?: Param[] },
    checked = true,
  ): QueryShape => ({
    name,
    growth,
    path: () => path,
    duckdb: () => Promise.all([rows(duck.count, duck.params), records(duck.page, duck.params)]),
    ...(pg === undefined || pgSql === undefined
      ? {}
      : {
          postgres: () => Promise.all([pgRows(pgSql.count, pgSql.params), pgRows(pgSql.page, pgSql.params)]),
        }),
    ...(checked
      ? {
          check: {
            fromApp: listCount,
            duckdb: async () => firstNumber(await rows(duck.count, duck.params)),
            ...(pg === undefined || pgSql === undefined
              ? {}
              : { postgres: async () => firstNumber(await pgRows(pgSql.count, pgSql.params)) }),
          },
        }
      : {}),
  })
  const group = (name: string, growth: Growth, path: string, duck: string, pgSql: string): QueryShape => ({
    name,
    growth,
    path: () => path,
    duckdb: () => rows(duck),
    ...(pg === undefined ? {} : { postgres: () => pgRows(pgSql) }),
    check: {
      fromApp: largestBucket,
      duckdb: async () => firstNumber(await rows(duck)),
      ...(pg === undefined ? {} : { postgres: async () => firstNumber(await pgRows(pgSql)) }),
    },
  })
  // Works linked to one entity through a side table, newest-cited first.
  const linked = (
    name: string,
    filter: string,
    key: string,
    duckView: string,
    pgTable: string,
    pgColumn: string,
  ) =>
    list(
      name,
      'matches',
      `/works?filter=${filter}:${key}&sort=cited_by_count:desc`,
      {
        count: `SELECT count(*) AS n FROM ${duckView} l JOIN works w ON w.id = l.work_id WHERE l.key = $1 AND ${CORE_W}`,
        page: `SELECT w.record_offset, w.record_bytes FROM works w WHERE w.id IN (SELECT work_id FROM ${duckView} WHERE key = $1) AND ${CORE_W} ORDER BY w.cited_by_count DESC NULLS LAST, w.id LIMIT 25`,
        params: [key],
      },
      {
        count: `SELECT count(DISTINCT l.work_id) AS n FROM ${pgTable} l JOIN works w ON w.id = l.work_id WHERE l.${pgColumn} = $1 AND ${CORE_W}`,
        page: `SELECT w.* FROM works w WHERE w.id IN (SELECT work_id FROM ${pgTable} WHERE ${pgColumn} = $1) AND ${CORE_W} ORDER BY w.cited_by_count DESC NULLS LAST, w.id LIMIT 25`,
        params: [longId(key)],
      },
    )

  const yearTypeOa = `w.publication_year = 2020 AND w.type = 'article' AND ${CORE_W}`
  const citedYears = `w.cited_by_count > 50 AND w.publication_year BETWEEN 2010 AND 2015 AND ${CORE_W}`
  const nested = `(w.type = 'article' OR w.type = 'review') AND w.publication_year >= 2015 AND (OA OR w.cited_by_count > 20) AND ${CORE_W}`
  const shapes: QueryShape[] = [
    {
      name: 'singleton by id',
      growth: 'constant',
      path: (round) => `/works/${at(values.workIds, round)}`,
      duckdb: (round) =>
        records('SELECT record_offset, record_bytes FROM works WHERE id = $1', [at(values.workIds, round)]),
      ...(pg === undefined
        ? {}
        : {
            postgres: (round: number) =>
              pgRows('SELECT * FROM works WHERE id = $1', [longId(at(values.workIds, round))]),
          }),
    },
    {
      name: 'singleton by DOI',
      growth: 'constant',
      path: (round) => `/works/doi:${at(values.dois, round)}`,
      duckdb: (round) =>
        records(
          "SELECT record_offset, record_bytes FROM works WHERE id = (SELECT min(id) FROM external_ids WHERE entity = 'works' AND scheme = 'doi' AND value = $1)",
          [at(values.dois, round)],
        ),
      ...(pg === undefined
        ? {}
        : {
            postgres: (round: number) =>
              pgRows('SELECT * FROM works WHERE doi = $1', [`https://doi.org/${at(values.dois, round)}`]),
          }),
    },
    list(
      'year+type+OA, top 25 by citations',
      'linear',
      '/works?filter=publication_year:2020,type:article,is_oa:true&sort=cited_by_count:desc',
      {
        count: `SELECT count(*) AS n FROM works w WHERE ${yearTypeOa} AND w.is_oa`,
        page: `SELECT w.record_offset, w.record_bytes FROM works w WHERE ${yearTypeOa} AND w.is_oa ORDER BY w.cited_by_count DESC NULLS LAST, w.id LIMIT 25`,
      },
      {
        count: `SELECT count(*) AS n FROM works w JOIN works_open_access o ON o.work_id = w.id WHERE ${yearTypeOa} AND o.is_oa`,
        page: `SELECT w.* FROM works w JOIN works_open_access o ON o.work_id = w.id WHERE ${yearTypeOa} AND o.is_oa ORDER BY w.cited_by_count DESC NULLS LAST, w.id LIMIT 25`,
      },
    ),
    list(
      'citations > 50, years 2010-2015, newest 25',
      'linear',
      '/works?filter=cited_by_count:>50,publication_year:2010-2015&sort=publication_date:desc',
      {
        count: `SELECT count(*) AS n FROM works w WHERE ${citedYears}`,
        page: `SELECT w.record_offset, w.record_bytes FROM works w WHERE ${citedYears} ORDER BY w.publication_date DESC NULLS LAST, w.id LIMIT 25`,
      },
      {
        count: `SELECT count(*) AS n FROM works w WHERE ${citedYears}`,
        page: `SELECT w.* FROM works w WHERE ${citedYears} ORDER BY w.publication_date DESC NULLS LAST, w.id LIMIT 25`,
      },
    ),
    linked(
      'works of an author',
      'authorships.author.id',
      values.author,
      'authorships',
      'works_authorships',
      'author_id',
    ),
    linked(
      'works of an institution',
      'authorships.institutions.id',
      values.institution,
      'work_institutions',
      'works_authorships',
      'institution_id',
    ),
    linked('works of a topic', 'topics.id', values.topic, 'work_topics', 'works_topics', 'topic_id'),
    linked(
      'works citing a work',
      'cites',
      values.cited,
      'citations',
      'works_referenced_works',
      'referenced_work_id',
    ),
    group(
      'group_by type',
      'linear',
      '/works?group_by=type',
      `SELECT w.type, count(*) AS n FROM works w WHERE ${CORE_W} GROUP BY w.type ORDER BY n DESC, w.type`,
      `SELECT w.type, count(*) AS n FROM works w WHERE ${CORE_W} GROUP BY w.type ORDER BY n DESC, w.type`,
    ),
    group(
      'group_by year',
      'linear',
      '/works?group_by=publication_year',
      `SELECT w.publication_year, count(*) AS n FROM works w WHERE ${CORE_W} GROUP BY w.publication_year ORDER BY n DESC, w.publication_year`,
      `SELECT w.publication_year, count(*) AS n FROM works w WHERE ${CORE_W} GROUP BY w.publication_year ORDER BY n DESC, w.publication_year`,
    ),
    group(
      'group_by institution country',
      'linear',
      '/works?group_by=authorships.institutions.country_code',
      `SELECT c.key, count(*) AS n FROM work_institution_countries c JOIN works w ON w.id = c.work_id WHERE ${CORE_W} GROUP BY c.key ORDER BY n DESC, c.key`,
      `SELECT i.country_code, count(DISTINCT a.work_id) AS n FROM works_authorships a JOIN institutions i ON i.id = a.institution_id JOIN works w ON w.id = a.work_id WHERE i.country_code IS NOT NULL AND ${CORE_W} GROUP BY i.country_code ORDER BY n DESC, i.country_code`,
    ),
    group(
      'group_by topic',
      'linear',
      '/works?group_by=topics.id',
      `SELECT t.key, count(*) AS n FROM work_topics t JOIN works w ON w.id = t.work_id WHERE ${CORE_W} GROUP BY t.key ORDER BY n DESC, t.key LIMIT 200`,
      `SELECT wt.topic_id, t.display_name, count(*) AS n FROM works_topics wt JOIN topics t ON t.id = wt.topic_id JOIN works w ON w.id = wt.work_id WHERE ${CORE_W} GROUP BY wt.topic_id, t.display_name ORDER BY n DESC, wt.topic_id LIMIT 200`,
    ),
    list(
      `search "${SEARCH_WORDS.join(' ')}", top 25 by relevance`,
      'matches',
      `/works?search=${SEARCH_WORDS.join('%20')}&sort=relevance_score:desc`,
      {
        // DuckDB has no full-text index without the `fts` extension (not reachable offline): the hand-written
        // form scans titles for the words, most-cited first (a stand-in: the app also finds them in abstracts).
        count: `SELECT count(*) AS n FROM works w WHERE ${HAND_SEARCH} AND ${CORE_W}`,
        page: `SELECT w.record_offset, w.record_bytes FROM works w WHERE ${HAND_SEARCH} AND ${CORE_W} ORDER BY w.cited_by_count DESC NULLS LAST, w.id LIMIT 25`,
        params: [...SEARCH_WORDS],
      },
      {
        count: `SELECT count(*) AS n FROM works w WHERE w.search_vector @@ plainto_tsquery('english', $1) AND ${CORE_W}`,
        page: `SELECT w.*, ts_rank(w.search_vector, plainto_tsquery('english', $1)) AS score FROM works w WHERE w.search_vector @@ plainto_tsquery('english', $1) AND ${CORE_W} ORDER BY score DESC, w.id LIMIT 25`,
        params: [SEARCH_WORDS.join(' ')],
      },
      false,
    ),
    await cursorShape(app, rows, records, pg),
    // The sample's `meta.count` is the sample's size, so there is no total to check against.
    list(
      `sample 25 with seed ${SAMPLE_SEED}`,
      'linear',
      `/works?sample=25&seed=${SAMPLE_SEED}`,
      {
        count: `SELECT count(*) AS n FROM works w WHERE ${CORE_W}`,
        page: `SELECT w.record_offset, w.record_bytes FROM works w WHERE ${CORE_W} ORDER BY hash(w.id || '/' || ${SAMPLE_SEED}), w.id LIMIT 25`,
      },
      {
        count: `SELECT count(*) AS n FROM works w WHERE ${CORE_W}`,
        page: `SELECT w.* FROM works w WHERE ${CORE_W} ORDER BY md5(w.id || '/${SAMPLE_SEED}'), w.id LIMIT 25`,
      },
      false,
    ),
    list(
      'OQL, nested booleans',
      'linear',
      `/?oql=${encodeURIComponent(NESTED_OQL)}`,
      {
        count: `SELECT count(*) AS n FROM works w WHERE ${nested.replace('OA', 'w.is_oa')}`,
        page: `SELECT w.record_offset, w.record_bytes FROM works w WHERE ${nested.replace('OA', 'w.is_oa')} ORDER BY w.id LIMIT 25`,
      },
      {
        count: `SELECT count(*) AS n FROM works w JOIN works_open_access o ON o.work_id = w.id WHERE ${nested.replace('OA', 'o.is_oa')}`,
        page: `SELECT w.* FROM works w JOIN works_open_access o ON o.work_id = w.id WHERE ${nested.replace('OA', 'o.is_oa')} ORDER BY w.id LIMIT 25`,
      },
    ),
  ]
  return shapes
}

type Rows = (sql: string, params?: Param[]) => Promise<Record<string, unknown>[]>

async function drawValues(rows: Rows): Promise<MixValues> {
  const pick = async (sql: string) => String(Object.values((await rows(sql))[0] ?? {})[0])
  // The key at a rank of popularity, or the least popular one when a small catalog has fewer keys.
  const keyAt = async (view: string, rank: number) => {
    const keys = Number(await pick(`SELECT count(DISTINCT key) FROM ${view}`))
    return pick(
      `SELECT key FROM ${view} GROUP BY key ORDER BY count(*) DESC, key LIMIT 1 OFFSET ${Math.max(0, Math.min(rank, keys - 1))}`,
    )
  }
  return {
    workIds: (await rows('SELECT id FROM works ORDER BY hash(id) LIMIT 64')).map((row) => String(row.id)),
    dois: (
      await rows(
        "SELECT value FROM external_ids WHERE entity = 'works' AND scheme = 'doi' ORDER BY hash(value) LIMIT 64",
      )
    ).map((row) => String(row.value)),
    author: await keyAt('authorships', 1000),
    institution: await keyAt('work_institutions', 10),
    topic: await keyAt('work_topics', 50),
    cited: await keyAt('citations', 1000),
  }
}

/**
 * Cursor paging at depth 10,000: the cursor of the page that starts at result 10,000 is found beforehand by
 * walking the pages (untimed); the shape times fetching that page. The hand-written forms are the same
 * keyset condition on (cited_by_count, id) from the last row before that page.
 */
async function cursorShape(
  app: H3,
  rows: Rows,
  records: (sql: string, params?: Param[]) => Promise<Uint8Array[]>,
  pg: PostgresSql | undefined,
): Promise<QueryShape> {
  const base = '/works?filter=publication_year:>1990&sort=cited_by_count:desc&per_page=100'
  let cursor = '*'
  let last: { id: string; cited_by_count: number } | undefined
  for (let page = 0; page < CURSOR_DEPTH_PAGES; page++) {
    const body = JSON.parse(await appGet(app, `${base}&cursor=${encodeURIComponent(cursor)}`)) as {
      meta: { next_cursor: string | null }
      results: { id: string; cited_by_count: number }[]
    }
    if (body.meta.next_cursor === null || body.results.length === 0) break
    cursor = body.meta.next_cursor
    last = body.results.at(-1)
  }
  const lastId = (last?.id ?? '').replace(OPENALEX, '')
  const lastCount = last?.cited_by_count ?? Number.MAX_SAFE_INTEGER
  const keyset = `(w.cited_by_count < $1 OR (w.cited_by_count = $1 AND w.id > $2)) AND ${CORE_W}`
  const totalSql = `SELECT count(*) AS n FROM works w WHERE w.publication_year > 1990 AND ${CORE_W}`
  return {
    name: 'cursor page at depth 10,000',
    check: {
      fromApp: listCount,
      duckdb: async () => firstNumber(await rows(totalSql)),
      ...(pg === undefined ? {} : { postgres: async () => firstNumber(await pg.unsafe(totalSql)) }),
    },
    growth: 'linear',
    path: () => `${base}&cursor=${encodeURIComponent(cursor)}`,
    duckdb: () =>
      Promise.all([
        rows(totalSql),
        records(
          `SELECT w.record_offset, w.record_bytes FROM works w WHERE w.publication_year > 1990 AND ${keyset} ORDER BY w.cited_by_count DESC NULLS LAST, w.id LIMIT 100`,
          [lastCount, lastId],
        ),
      ]),
    ...(pg === undefined
      ? {}
      : {
          postgres: () =>
            Promise.all([
              pg.unsafe(totalSql),
              pg.unsafe(
                `SELECT w.* FROM works w WHERE w.publication_year > 1990 AND ${keyset} ORDER BY w.cited_by_count DESC NULLS LAST, w.id LIMIT 100`,
                [lastCount, longId(lastId)],
              ),
            ]),
        }),
  }
}
