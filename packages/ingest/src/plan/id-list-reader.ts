// Reads the two id lists of a snapshot:
//   merged_ids/<entity>/YYYY-MM-DD.csv(.gz)   merge_date,id,merge_into_id    (legacy layout)
//   <entity>/deleted_ids.csv(.gz)             work_id,deleted_date           (2026 layout, works)
// Ids come back in the catalog's short form; a row that is not understood is an IngestError at its line.
import { shortOpenAlexId } from '@oqlkit/catalog'
import { IngestError, ingestErrorDetails } from '../ingest-error.ts'
import { readTextLines } from '../parse/line-reader.ts'
import type { SnapshotIdFile } from './snapshot-plan.ts'

export interface MergedIdRow {
  readonly oldId: string
  readonly newId: string
  readonly mergeDate: string | null
}

export interface DeletedIdRow {
  readonly id: string
  readonly deletedDate: string | null
}

const DATE = /^\d{4}-\d{2}-\d{2}/

export async function* readMergedIds(file: SnapshotIdFile): AsyncGenerator<MergedIdRow> {
  let columns: { date: number; id: number; into: number } | undefined
  for await (const { lineNumber, text } of readTextLines(file.path)) {
    if (text.trim() === '') continue
    const fields = splitCsvLine(text)
    if (columns === undefined) {
      const header = fields.map((field) => field.toLowerCase())
      if (header.includes('merge_into_id')) {
        columns = {
          date: header.indexOf('merge_date'),
          id: header.indexOf('id'),
          into: header.indexOf('merge_into_id'),
        }
        if (columns.id === -1) throw csvError(file, lineNumber, 'the header has no `id` column')
        continue
      }
      // No header: the order of the public files.
      columns = { date: 0, id: 1, into: 2 }
    }
    const oldId = idOf(file, lineNumber, fields[columns.id])
    const newId = idOf(file, lineNumber, fields[columns.into])
    const mergeDate = dateOf(file, lineNumber, columns.date === -1 ? undefined : fields[columns.date])
    yield { oldId, newId, mergeDate: mergeDate ?? file.fileDate }
  }
}

export async function* readDeletedIds(file: SnapshotIdFile): AsyncGenerator<DeletedIdRow> {
  let columns: { id: number; date: number } | undefined
  for await (const { lineNumber, text } of readTextLines(file.path)) {
    if (text.trim() === '') continue
    const fields = splitCsvLine(text)
    if (columns === undefined) {
      if (shortOpenAlexId(file.entity, fields[0] ?? '') === undefined) {
        const header = fields.map((field) => field.toLowerCase())
        const id = header.findIndex((name) => name === 'id' || name.endsWith('_id'))
        if (id === -1) throw csvError(file, lineNumber, 'expected a header with an id column, or ids')
        columns = { id, date: header.findIndex((name) => name.includes('date')) }
        continue
      }
      columns = { id: 0, date: 1 }
    }
    const id = idOf(file, lineNumber, fields[columns.id])
    const deletedDate = dateOf(file, lineNumber, columns.date === -1 ? undefined : fields[columns.date])
    yield { id, deletedDate }
  }
}

/** Ids and dates hold no commas, so a plain split does; surrounding quotes are dropped. */
function splitCsvLine(text: string): string[] {
  return text.split(',').map((field) => field.trim().replace(/^"(.*)"$/, '$1'))
}

function idOf(file: SnapshotIdFile, line: number, raw: string | undefined): string {
  const id = raw === undefined ? undefined : shortOpenAlexId(file.entity, raw)
  if (id === undefined) {
    throw csvError(file, line, `${JSON.stringify(raw ?? '')} is not an id of ${file.entity.entity}`)
  }
  return id
}

function dateOf(file: SnapshotIdFile, line: number, raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null
  if (!DATE.test(raw)) throw csvError(file, line, `${JSON.stringify(raw)} is not a date (YYYY-MM-DD)`)
  return raw.slice(0, 10)
}

function csvError(file: SnapshotIdFile, line: number, reason: string): IngestError {
  return new IngestError({
    code: 'invalid-csv',
    file: file.path,
    line,
    detail: ingestErrorDetails.invalidCsv(reason),
  })
}
