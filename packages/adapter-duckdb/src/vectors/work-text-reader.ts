// The text a work is embedded from: its title and its abstract (rebuilt from the inverted index OpenAlex ships,
// by the same SQL the search index uses), read from the works' texts file (`../catalog/record-texts-file.ts`)
// in id order, a batch at a time, so a catalog of millions of works never sits in memory as text.
import type { DuckDBValue } from '@duckdb/node-api'
import { STORED_FIELDS } from '../search/search-fields.ts'

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

// `$1` the works' texts file, `$2` the last id of the previous batch, `$3` the batch size. The file is sorted by id,
// so its zone maps give each batch only the row groups after the last id.
const BATCH_SQL = `SELECT id, coalesce(display_name, '') AS title, coalesce((${ABSTRACT_SQL})[1], '') AS abstract
FROM (
  SELECT id, display_name, json_transform(texts, '{"abstract_inverted_index":"MAP(VARCHAR, INTEGER[])"}') AS r
  FROM read_parquet($1) WHERE id > $2 ORDER BY id LIMIT $3
) ORDER BY id`

/** Batches of `(id, text)` of every work, in id order. */
export async function* readWorkTexts(
  source: RowSource,
  worksTexts: string,
  batchSize = 5000,
): AsyncGenerator<readonly WorkText[]> {
  let after = ''
  for (;;) {
    const rows = await source.rows(BATCH_SQL, [worksTexts, after, batchSize])
    if (rows.length === 0) return
    yield rows.map((row) => {
      const title = String(row.title ?? '').trim()
      const body = String(row.abstract ?? '').trim()
      return { id: String(row.id), text: title === '' ? body : body === '' ? title : `${title}\n\n${body}` }
    })
    after = String(rows[rows.length - 1]!.id)
    if (rows.length < batchSize) return
  }
}
