// What a ClickHouse client stand-in answers before a statement of a request runs: the catalog has one served
// version, and that version has no search index, and link tables and no type-ahead index of the first layout
// (no columns beside `(key, work_id)` named in `system.columns`). Tests whose stand-in plays out a failure at a set moment
// (which cannot be timed against a real server) answer these questions with it, and the rest themselves.

type QueryArguments = { readonly query: string; readonly query_params?: Record<string, unknown> }

/** A query's answer as @clickhouse/client gives it: rows read with `json()`. */
export const rowsAnswer = (rows: unknown[]) => ({ json: async () => rows })

/** The answer to a served-version question, or undefined for any other query. */
export const servedVersionAnswer = ({ query, query_params }: QueryArguments) => {
  if (query.includes('system.tables'))
    return rowsAnswer([{ n: query_params?.table === 'catalog_versions' ? 1 : 0 }])
  if (query.includes('system.columns')) return rowsAnswer([])
  if (query.includes('catalog_versions'))
    return rowsAnswer([
      { database: 'sample_v1', loaded_at: '2026-11-26 00:00:00', catalog_created_at: '', entity_rows: '{}' },
    ])
  return undefined
}
