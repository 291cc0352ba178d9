// Nested values of an entity, shown compactly in a table cell: what a person would call the thing (its
// display name), not `[object Object]` nor a page of JSON. Pure, so the table and its tests agree.

const MAX_ITEMS = 3
const MAX_LENGTH = 160

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The short id at the end of an entity URL: `https://openalex.org/W123` → `W123`. */
export const shortId = (id: string): string => {
  const tail = id.replace(/\/+$/, '').split('/').pop()
  return tail === undefined || tail === '' ? id : tail
}

/** An object's name: its own display name, else that of the one entity it wraps (`author`, `source`, …). */
const nameOf = (record: Record<string, unknown>): string | undefined => {
  if (typeof record.display_name === 'string') return record.display_name
  for (const inner of Object.values(record))
    if (isRecord(inner) && typeof inner.display_name === 'string') return inner.display_name
  return undefined
}

const summarizeRecord = (record: Record<string, unknown>, depth: number): string => {
  const name = nameOf(record)
  if (name !== undefined) return name
  if (typeof record.id === 'string') return shortId(record.id)
  // A small object of scalars (biblio, open_access, …): its non-empty fields, one level deep.
  const parts = Object.entries(record)
    .filter(
      ([, value]) => value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0),
    )
    .map(([key, value]) => `${key}: ${depth > 0 ? summarize(value, depth - 1) : '…'}`)
  return parts.length === 0 ? '—' : parts.join(', ')
}

const summarize = (value: unknown, depth: number): string => {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) {
    if (value.length === 0) return '—'
    const shown = value.slice(0, MAX_ITEMS).map((item) => summarize(item, depth))
    const more = value.length - shown.length
    return more > 0 ? `${shown.join('; ')}; +${more} more` : shown.join('; ')
  }
  if (isRecord(value)) return summarizeRecord(value, depth)
  return String(value)
}

/** A cell's text: scalars as they are, entities by name, lists as their first few, cut to a line. */
export const summarizeValue = (value: unknown): string => {
  const text = summarize(value, 1)
  return text.length > MAX_LENGTH ? `${text.slice(0, MAX_LENGTH - 1)}…` : text
}
