// What staging checks and prepares of a part file outside the parse workers: a Parquet part's ids (so a bad
// row is named by its row number) and its rows as JSON Lines for the workers, and each part's record count
// against its manifest entry.
import { PARQUET_PART_AS_JSON_LINES_SQL, parquetBadIdSql } from './catalog-sql.ts'
import { IngestError, ingestErrorDetails } from './ingest-error.ts'
import type { SnapshotPart } from './snapshot-plan.ts'
import type { StagingDatabase } from './staging-database.ts'

/** Checks a Parquet part's ids and writes its rows to `jsonLinesPath`, one JSON object per line. */
export async function prepareParquetPart(
  db: StagingDatabase,
  part: SnapshotPart,
  jsonLinesPath: string,
): Promise<void> {
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
  try {
    await db.run(PARQUET_PART_AS_JSON_LINES_SQL, [part.path, jsonLinesPath])
  } catch (error) {
    throw parquetError(part, error)
  }
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
