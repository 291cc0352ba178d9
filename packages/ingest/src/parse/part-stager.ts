// What staging checks and reads of a part file outside the parse workers: a Parquet part's ids (so a bad row
// is named by its row number before any worker starts), the first records of an entity's parts (its record
// dictionary is chosen from them), and each part's record count against its manifest entry.
import { PARQUET_PART_FIRST_ROWS_AS_JSON_SQL, parquetBadIdSql } from '../build/catalog-sql.ts'
import type { StagingDatabase } from '../build/staging-database.ts'
import { IngestError, ingestErrorDetails } from '../ingest-error.ts'
import type { SnapshotPart } from '../plan/snapshot-plan.ts'
import { readTextLines } from './line-reader.ts'

/** Checks that every row of a Parquet part has an id; a part without one is named with its first such row. */
export async function checkParquetPart(db: StagingDatabase, part: SnapshotPart): Promise<void> {
  let bad: unknown
  try {
    bad = (await db.rows(parquetBadIdSql(part.entity), [part.path]))[0]?.bad
  } catch (error) {
    throw parquetError(part, error)
  }
  if (bad !== null && bad !== undefined) {
    throw new IngestError({
      code: 'missing-id',
      file: part.path,
      line: Number(bad) + 1,
      detail: ingestErrorDetails.missingId(),
    })
  }
}

/** A part's first `count` records as the parse workers will read them: its non-blank lines, or its rows. */
export async function firstRecordsOf(
  db: StagingDatabase,
  part: SnapshotPart,
  count: number,
): Promise<string[]> {
  if (part.format === 'parquet') {
    try {
      const rows = await db.rows(PARQUET_PART_FIRST_ROWS_AS_JSON_SQL, [part.path, count])
      return rows.map((row) => String(row.json))
    } catch (error) {
      throw parquetError(part, error)
    }
  }
  const records: string[] = []
  for await (const { text } of readTextLines(part.path)) {
    if (text.trim() === '') continue
    records.push(text)
    if (records.length === count) break
  }
  return records
}

/** The first `count` records of `parts`, read in order: the first part's, then the next one's while too few. */
export async function firstRecordsAcross(
  db: StagingDatabase,
  parts: readonly SnapshotPart[],
  count: number,
): Promise<string[]> {
  const records: string[] = []
  for (const part of parts) {
    if (records.length >= count) break
    records.push(...(await firstRecordsOf(db, part, count - records.length)))
  }
  return records
}

export function checkRecordCount(part: SnapshotPart, records: number): void {
  if (part.expectedRecords !== null && part.expectedRecords !== records) {
    throw new IngestError({
      code: 'manifest-mismatch',
      file: part.manifestPath,
      ...(part.manifestLine === undefined ? {} : { line: part.manifestLine }),
      detail: ingestErrorDetails.recordCountMismatch(part.relativePath, part.expectedRecords, records),
    })
  }
}

function parquetError(part: SnapshotPart, error: unknown): IngestError {
  const message = (error as Error).message
  // A file without an `id` column fails to bind the check query: every row lacks an id.
  if (/Referenced column "id" not found/.test(message)) {
    return new IngestError(
      { code: 'missing-id', file: part.path, line: 1, detail: ingestErrorDetails.missingId() },
      { cause: error },
    )
  }
  return new IngestError(
    { code: 'invalid-parquet', file: part.path, detail: ingestErrorDetails.invalidParquet(message) },
    { cause: error },
  )
}
