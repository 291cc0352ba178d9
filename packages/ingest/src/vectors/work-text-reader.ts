// The text a work is embedded from: its title and its abstract (rebuilt from the inverted index OpenAlex ships,
// by the same SQL the search index uses), read from the works' texts file (`../catalog/record-texts-file.ts`)
// in id order, a batch at a time, so a catalog of millions of works never sits in memory as text.
import type { DuckDBValue } from '@duckdb/node-api'
import { STORED_FIELDS } from '@oqlkit/catalog'

export interface WorkText {
  readonly id: string
  /** Title, a blank line, abstract ('' when the work has neither, or when its vector is `kept`). */
  readonly text: string
  /** The work's vector in the catalog being updated, when it is kept: its norm and row in that matrix. */
  readonly kept?: { readonly norm: number; readonly row: number }
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
// With `kept`, a table of vectors kept from the catalog being updated (`id`, `norm`, `row`), the works it
// holds come with their norm and row, and their texts are not parsed (CASE runs its branch only on the rows
// it selects).
const batchSql = (sample?: string, kept?: string) => {
  const parsed = `json_transform(t.texts, '{"abstract_inverted_index":"MAP(VARCHAR, INTEGER[])"}')`
  return `SELECT id, coalesce(display_name, '') AS title, coalesce((${ABSTRACT_SQL})[1], '') AS abstract${
    kept === undefined ? '' : ', kept_norm, kept_row'
  }
FROM (
  SELECT t.id, t.display_name, t.file_row_number, ${
    kept === undefined
      ? `${parsed} AS r`
      : `CASE WHEN k.id IS NULL THEN ${parsed} END AS r, k.norm AS kept_norm, k."row" AS kept_row`
  }
  FROM read_parquet($1, file_row_number = true) t${kept === undefined ? '' : ` LEFT JOIN ${kept} k ON k.id = t.id`}
  WHERE t.file_row_number >= $2 AND t.file_row_number < $3${
    sample === undefined ? '' : ` AND t.file_row_number IN (SELECT "row" FROM ${sample})`
  }
) ORDER BY file_row_number`
}

/**
 * Batches of `(id, text)` of every work, in id order; with `sample`, of the works whose rows that temporary
 * table holds (`pickTrainingSample`), and a batch may then be empty; with `kept`, every work, those that
 * table holds with their kept vector's norm and row and no text.
 */
export async function* readWorkTexts(
  source: RowSource,
  worksTexts: string,
  batchSize = 5000,
  sample?: { readonly table: string; readonly total: number },
  kept?: string,
): AsyncGenerator<readonly WorkText[]> {
  const sql = batchSql(sample?.table, kept)
  for (let from = 0; ; from += batchSize) {
    if (sample !== undefined && from >= sample.total) return
    const rows = await source.rows(sql, [worksTexts, from, from + batchSize])
    if (rows.length === 0 && sample === undefined) return
    yield rows.map((row) => {
      const id = String(row.id)
      if (row.kept_row !== undefined && row.kept_row !== null)
        return { id, text: '', kept: { norm: Number(row.kept_norm), row: Number(row.kept_row) } }
      const title = String(row.title ?? '').trim()
      const body = String(row.abstract ?? '').trim()
      return { id, text: title === '' ? body : body === '' ? title : `${title}\n\n${body}` }
    })
    if (sample === undefined && rows.length < batchSize) return
  }
}
