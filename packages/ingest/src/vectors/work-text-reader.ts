// The text a work is embedded from: its title and its abstract (rebuilt from the inverted index OpenAlex ships,
// by the same SQL the search index uses), read from the works' texts file (`../catalog/record-texts-file.ts`)
// in id order, a batch at a time, so a catalog of millions of works never sits in memory as text.
import type { DuckDBValue } from '@duckdb/node-api'
import { STORED_FIELDS } from '@oqlkit/catalog'

export interface WorkText {
  readonly id: string
  /** Title, a blank line, abstract ('' when the work has neither). */
  readonly text: string
}

/** What reading needs of a database: the `rows` of ingest's `StagingDatabase` and the search build session. */
export interface RowSource {
  rows(sql: string, params?: readonly DuckDBValue[]): Promise<Record<string, unknown>[]>
}

const abstract = STORED_FIELDS.abstract
const ABSTRACT_SQL = abstract.textsSql(abstract.prepareSql!('r.abstract_inverted_index'))

// `$1` the works' texts file (in id order), `$2`, `$3` the batch's first and next row numbers: each batch
// reads only its own row groups (`id > last ORDER BY id LIMIT n` read every row group after the last id).
// With `sample`, only the rows that table names (`../texts/training-sample.ts`) have their abstract rebuilt.
const batchSql = (
  sample?: string,
) => `SELECT id, coalesce(display_name, '') AS title, coalesce((${ABSTRACT_SQL})[1], '') AS abstract
FROM (
  SELECT id, display_name, json_transform(texts, '{"abstract_inverted_index":"MAP(VARCHAR, INTEGER[])"}') AS r,
    file_row_number
  FROM read_parquet($1, file_row_number = true) WHERE file_row_number >= $2 AND file_row_number < $3${
    sample === undefined ? '' : ` AND file_row_number IN (SELECT "row" FROM ${sample})`
  }
) ORDER BY file_row_number`

/**
 * Batches of `(id, text)` of every work, in id order; with `sample`, of the works whose rows that temporary
 * table holds (`pickTrainingSample`), and a batch may then be empty.
 */
export async function* readWorkTexts(
  source: RowSource,
  worksTexts: string,
  batchSize = 5000,
  sample?: { readonly table: string; readonly total: number },
): AsyncGenerator<readonly WorkText[]> {
  const sql = batchSql(sample?.table)
  for (let from = 0; ; from += batchSize) {
    if (sample !== undefined && from >= sample.total) return
    const rows = await source.rows(sql, [worksTexts, from, from + batchSize])
    if (rows.length === 0 && sample === undefined) return
    yield rows.map((row) => {
      const title = String(row.title ?? '').trim()
      const body = String(row.abstract ?? '').trim()
      return { id: String(row.id), text: title === '' ? body : body === '' ? title : `${title}\n\n${body}` }
    })
    if (sample === undefined && rows.length < batchSize) return
  }
}
