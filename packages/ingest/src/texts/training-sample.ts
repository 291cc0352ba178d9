// The works a model (LSA, the tag model) trains on, picked before any text is read: the ids of a texts file
// (`record-texts-file.ts`) are read alone, each is given a seeded key, and the rows of the `max` lowest keys
// (`lowestKeyRows`) go into a temporary table the training read joins with, so only the picked works' texts
// are rebuilt, sent to JavaScript and parsed. Training time then follows `max`, not the catalog's size,
// while every work is still embedded (or tagged) by the model.
import { lowestKeyRows } from '@oqlkit/text-models'
import type { BuildSession } from './build-session.ts'

/** Ids read at a time: a few MB of strings. */
const ID_BATCH_ROWS = 131_072

export interface TrainingSample {
  /** The temporary table of the picked rows: one column `row` (the texts file's `file_row_number`). */
  readonly table: string
  /** Rows of the texts file. */
  readonly total: number
  /** Rows picked. */
  readonly picked: number
}

/**
 * Picks the training rows of a texts file into the temporary table `table` (replaced if it exists).
 * `keyOf` gives a work's key from its id: a number in [0, 1), or `NaN` for a work that may not be picked
 * (held out). The caller drops the table when its training read is done.
 */
export async function pickTrainingSample(
  session: BuildSession,
  textsFile: string,
  table: string,
  keyOf: (id: string) => number,
  max: number,
): Promise<TrainingSample> {
  const [counted] = await session.rows('SELECT count(*) AS n FROM read_parquet($1)', [textsFile])
  const total = Number(counted?.n ?? 0)
  const keys = new Float64Array(total)
  for (let from = 0; from < total; from += ID_BATCH_ROWS) {
    const rows = await session.rows(
      `SELECT id FROM read_parquet($1, file_row_number = true)
       WHERE file_row_number >= $2 AND file_row_number < $3 ORDER BY file_row_number`,
      [textsFile, from, from + ID_BATCH_ROWS],
    )
    rows.forEach((row, index) => {
      keys[from + index] = keyOf(String(row.id))
    })
  }
  const picked = lowestKeyRows(keys, max)
  await session.run(`CREATE OR REPLACE TEMP TABLE ${table} ("row" BIGINT)`)
  const appender = await session.appender(table)
  try {
    for (const row of picked) {
      appender.appendBigInt(BigInt(row))
      appender.endRow()
    }
  } finally {
    appender.closeSync()
  }
  return { table, total, picked: picked.length }
}
