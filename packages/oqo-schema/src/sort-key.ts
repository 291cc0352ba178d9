// The sorted canonical form orders operands by their JSON text the way the reference engine does
// (Python's `json.dumps(…, sort_keys=True, ensure_ascii=True)`), so that our sorted OQOs and the
// corpus's canonical OQL list operands in the same order.

const escapeString = (text: string): string => {
  let out = '"'
  for (const char of text) {
    const code = char.codePointAt(0)!
    if (char === '"') out += '\\"'
    else if (char === '\\') out += '\\\\'
    else if (char === '\n') out += '\\n'
    else if (char === '\r') out += '\\r'
    else if (char === '\t') out += '\\t'
    else if (char === '\b') out += '\\b'
    else if (char === '\f') out += '\\f'
    else if (code < 0x20 || (code > 0x7e && code <= 0xffff)) out += `\\u${code.toString(16).padStart(4, '0')}`
    else if (code > 0xffff) {
      // Outside the BMP: a surrogate pair, as Python writes it.
      const high = Math.floor((code - 0x10000) / 0x400) + 0xd800
      const low = ((code - 0x10000) % 0x400) + 0xdc00
      out += `\\u${high.toString(16)}\\u${low.toString(16)}`
    } else out += char
  }
  return `${out}"`
}

export const pythonJsonText = (value: unknown): string => {
  if (value === null || value === undefined) return 'null'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') return escapeString(value)
  if (Array.isArray(value)) return `[${value.map(pythonJsonText).join(', ')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return `{${entries.map(([key, item]) => `${escapeString(key)}: ${pythonJsonText(item)}`).join(', ')}}`
}

/** Comparison operators sort as "0" to "3", so a lower bound comes before an upper bound. */
export const OPERATOR_SORT_NAMES: Readonly<Record<string, string>> = {
  '>': '0',
  '>=': '1',
  '<': '2',
  '<=': '3',
}

export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)
