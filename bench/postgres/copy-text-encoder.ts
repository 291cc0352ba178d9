// PostgreSQL's COPY text format (the default of `COPY … FROM STDIN`): one line per row, columns split by a
// tab, NULL written as `\N`, and the characters that would break that framing escaped with a backslash.
// Objects and arrays go in as JSON text, for the loader's `json` columns.

export type CopyValue = string | number | boolean | null | undefined | object

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' }

export const encodeCopyField = (value: CopyValue): string => {
  if (value === null || value === undefined) return '\\N'
  if (typeof value === 'boolean') return value ? 't' : 'f'
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`COPY cannot carry the number ${value}`)
    return String(value)
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return text.replace(/[\\\n\r\t]/g, (character) => ESCAPES[character]!)
}

export const encodeCopyRow = (values: readonly CopyValue[]): string =>
  `${values.map(encodeCopyField).join('\t')}\n`
