// Streams snapshot part files into the staging tables, one record per row, and checks each file's record
// count against its manifest entry. JSON Lines go through JavaScript (so a bad line is reported with its
// line number); Parquet parts are read by DuckDB directly.
import type { DuckDBAppender } from '@duckdb/node-api'
import { parquetBadIdSql, stageParquetPartSql } from './catalog-sql.ts'
import { IngestError, ingestErrorDetails } from './ingest-error.ts'
import { readTextLines } from './line-reader.ts'
import { parseSnapshotLine } from './snapshot-line-parser.ts'
import type { SnapshotPart } from './snapshot-plan.ts'
import type { StagingDatabase } from './staging-database.ts'

/** Where staging stands: the next sequence number (arrival order, the last tie-breaker) and tallies. */
export interface StageCursor {
  nextSeq: bigint
  recordsRead: number
  rewritten: number
}

const PROGRESS_EVERY = 10_000

export async function stageJsonLinesPart(
  part: SnapshotPart,
  appender: DuckDBAppender,
  cursor: StageCursor,
  onRecords: () => void,
): Promise<number> {
  let records = 0
  for await (const { lineNumber, text } of readTextLines(part.path)) {
    const parsed = parseSnapshotLine(part.entity, text, part.path, lineNumber)
    if (parsed === null) continue
    if (parsed instanceof IngestError) throw parsed
    appender.appendBigInt(cursor.nextSeq++)
    appender.appendVarchar(parsed.id)
    appender.appendVarchar(parsed.openalexId)
    if (part.partitionDate === null) appender.appendNull()
    else appender.appendVarchar(part.partitionDate)
    if (parsed.updatedDate === null) appender.appendNull()
    else appender.appendVarchar(parsed.updatedDate)
    appender.appendVarchar(parsed.text)
    appender.endRow()
    records++
    cursor.recordsRead++
    if (parsed.rewritten) cursor.rewritten++
    if (records % PROGRESS_EVERY === 0) onRecords()
  }
  checkRecordCount(part, records)
  return records
}

export async function stageParquetPart(
  db: StagingDatabase,
  part: SnapshotPart,
  cursor: StageCursor,
): Promise<number> {
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
  let records: number
  try {
    records = await db.run(stageParquetPartSql(part.entity), [part.path, cursor.nextSeq, part.partitionDate])
  } catch (error) {
    throw parquetError(part, error)
  }
  cursor.nextSeq += BigInt(records) + 1n
  cursor.recordsRead += records
  checkRecordCount(part, records)
  return records
}

function checkRecordCount(part: SnapshotPart, records: number): void {
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
