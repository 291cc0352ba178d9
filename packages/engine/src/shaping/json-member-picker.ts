// Picks members of a JSON object's text without parsing it: the texts files (catalog's record-texts-reader.ts) need a
// dozen top-level keys of every record, and `JSON.parse` then `JSON.stringify` of a whole 16 KB work took
// 160 µs, most of the full ingest's texts pass (455 s at 1M works). Scanning for the wanted members and
// copying their values' text as written takes about 39 µs: a value is skipped by counting brackets, and
// strings, where most of a record's characters are, are skipped with `indexOf` (native). No JSON library
// here picks members without building every value first, which is the cost this avoids.
//
// The input must be one JSON object, as every record in a record store is (each was parsed at ingest);
// on other text the result is unspecified, never an exception thrown from deep inside.

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c

/** The index of the quote that closes the string opened at `open`, or -1 when it is not closed. */
function stringEnd(text: string, open: number): number {
  let at = open
  for (;;) {
    at = text.indexOf('"', at + 1)
    if (at === -1) return -1
    // Escaped when an odd number of backslashes precede it.
    let before = at - 1
    while (text.charCodeAt(before) === BACKSLASH) before--
    if ((at - 1 - before) % 2 === 0) return at
  }
}

/** The end (exclusive) of the value that starts at `start`: a string, an object, a list or a literal. */
function valueEnd(text: string, start: number): number {
  let depth = 0
  for (let at = start; at < text.length; at++) {
    const code = text.charCodeAt(at)
    if (code === QUOTE) {
      at = stringEnd(text, at)
      if (at === -1) return text.length
      if (depth === 0) return at + 1
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      // A literal's end is the bracket of the object around it.
      if (depth === 0) return at
      depth--
      if (depth === 0) return at + 1
    } else if (depth === 0 && code === COMMA) return at
  }
  return text.length
}

/** A key written with escapes, as JSON reads it (as written when the escapes are not JSON's). */
function unescapedKey(written: string): string {
  try {
    return JSON.parse(`"${written}"`) as string
  } catch {
    return written
  }
}

const isSpace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09

/**
 * The JSON text of an object holding the members of `json` (an object) whose keys are in `keys`, in the
 * order the object has them, each value's text as written. A key repeated in `json` is repeated here too,
 * so `JSON.parse` of the result keeps the last, as it does of `json`.
 */
export function pickJsonMembers(json: string, keys: ReadonlySet<string>): string {
  const members: string[] = []
  let at = json.indexOf('{') + 1
  if (at === 0) return '{}'
  for (;;) {
    while (at < json.length && json.charCodeAt(at) !== QUOTE && json.charCodeAt(at) !== CLOSE_BRACE) at++
    if (at >= json.length || json.charCodeAt(at) === CLOSE_BRACE) break
    const keyEnd = stringEnd(json, at)
    if (keyEnd === -1) break
    const written = json.slice(at + 1, keyEnd)
    // Keys are plain text in every record seen; one written with escapes is read as JSON reads it.
    const key = written.includes('\\') ? unescapedKey(written) : written
    at = json.indexOf(':', keyEnd + 1)
    if (at === -1) break
    at++
    while (isSpace(json.charCodeAt(at))) at++
    const end = valueEnd(json, at)
    if (keys.has(key))
      members.push(`${json.slice(keyEnd - written.length - 1, keyEnd + 1)}:${json.slice(at, end).trimEnd()}`)
    at = end
    // Past the comma (or onto the closing brace) before the next key.
    while (at < json.length && (isSpace(json.charCodeAt(at)) || json.charCodeAt(at) === COMMA)) at++
  }
  return `{${members.join(',')}}`
}
