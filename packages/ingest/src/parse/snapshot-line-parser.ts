// Checks one line of a JSON Lines part file and turns it into what staging stores. The record text is
// kept as written (that is what the API serves back), except for `relevance_score`, a property of a search
// result rather than of the entity, which records copied from search pages carry and the catalog drops.
import type { CatalogEntityInfo } from '@oqlkit/catalog/records'
import { shortOpenAlexId } from '@oqlkit/catalog/records'
import { IngestError, ingestErrorDetails } from '../ingest-error.ts'

/** Keys removed from records on ingest. */
export const DROPPED_RECORD_KEYS = ['relevance_score'] as const

export interface StagedRecord {
  readonly id: string
  readonly openalexId: string
  readonly updatedDate: string | null
  readonly text: string
  /** The parsed record (without the dropped keys), for the values the catalog derives from it. */
  readonly record: Record<string, unknown>
  /** True when a dropped key was removed (the text was re-serialised). */
  readonly rewritten: boolean
}

/**
 * The record of a line, `null` for a blank line, or the IngestError that describes what is wrong with it
 * (returned, not thrown: the caller decides to stop).
 */
export function parseSnapshotLine(
  info: CatalogEntityInfo,
  text: string,
  file: string,
  line: number,
): StagedRecord | IngestError | null {
  if (text.trim() === '') return null
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return new IngestError({
      code: 'invalid-json',
      file,
      line,
      detail: ingestErrorDetails.invalidJson((error as Error).message),
    })
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return new IngestError({
      code: 'invalid-record',
      file,
      line,
      detail: ingestErrorDetails.invalidRecord(
        value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value,
      ),
    })
  }
  const record = value as Record<string, unknown>
  const rawId = record.id
  if (typeof rawId !== 'string' || rawId.trim() === '') {
    return new IngestError({ code: 'missing-id', file, line, detail: ingestErrorDetails.missingId() })
  }
  const id = shortOpenAlexId(info, rawId)
  if (id === undefined) {
    return new IngestError({
      code: 'invalid-id',
      file,
      line,
      detail: ingestErrorDetails.invalidId(info.entity, rawId),
    })
  }
  let rewritten = false
  for (const key of DROPPED_RECORD_KEYS) {
    if (Object.hasOwn(record, key)) {
      delete record[key]
      rewritten = true
    }
  }
  const updated = record.updated_date
  return {
    id,
    openalexId: rawId,
    updatedDate: typeof updated === 'string' && updated !== '' ? updated : null,
    text: rewritten ? JSON.stringify(record) : text,
    record,
    rewritten,
  }
}
