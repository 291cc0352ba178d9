import type { EntityRecord } from '../adapter/storage-adapter.ts'

/** The record's top-level fields that `select` names, in the record's own order. */
export const selectFields = (record: EntityRecord, select: readonly string[]): EntityRecord => {
  const wanted = new Set(select)
  return Object.fromEntries(Object.entries(record).filter(([key]) => wanted.has(key)))
}

/**
 * A result row as the API returns it: `relevance_score` only where the row has one (a search scored
 * it above zero) and, under `select`, only when selected; the other fields as stored.
 */
export const shapeEntity = (record: EntityRecord, select: readonly string[] | null): EntityRecord => {
  const score = record.relevance_score
  const keepScore =
    typeof score === 'number' && score !== 0 && (select === null || select.includes('relevance_score'))
  if (keepScore || !('relevance_score' in record)) return record
  const { relevance_score: _dropped, ...rest } = record
  return rest
}
