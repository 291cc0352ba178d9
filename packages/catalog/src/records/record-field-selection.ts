// `select`: the top-level fields of a stored record that a request asked for, in the record's own order.

/** The record's top-level fields that were asked for, in the record's own order. */
export const selectRecordFields = (
  record: Record<string, unknown>,
  select: readonly string[],
): Record<string, unknown> => {
  const wanted = new Set(select)
  const picked: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(record)) if (wanted.has(key)) picked[key] = value
  return picked
}
