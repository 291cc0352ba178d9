// Percent-encoding as the classic URLs of the corpus and the GUI write them: besides letters, digits
// and `_.-~`, the characters `:|,!<>=*()/` stay literal, so `filter=type:article|review` reads as
// written; everything else (space, `"`, `+`, `?`, `&`, `%`, non-ASCII) is percent-encoded as UTF-8.

const LITERAL = /^[A-Za-z0-9_.\-~:|,!<>=*()/]$/

const utf8 = new TextEncoder()
// Not fatal: a malformed byte sequence becomes U+FFFD instead of an exception.
const utf8Decoder = new TextDecoder('utf-8', { fatal: false })

const hex = (byte: number): string => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`

export const encodeUrlComponent = (text: string): string => {
  let out = ''
  for (const char of text) {
    if (LITERAL.test(char)) out += char
    else for (const byte of utf8.encode(char)) out += hex(byte)
  }
  return out
}

const HEX_PAIR = /^[0-9A-Fa-f]{2}$/

/**
 * Decodes a query-string component the way a form decoder does: `+` is a space, `%XX` a byte, and the
 * bytes are UTF-8. A `%` that starts no valid escape stays literal, so no input makes it throw.
 */
export const decodeUrlComponent = (raw: string): string => {
  const bytes: number[] = []
  const text = raw.replaceAll('+', ' ')
  for (let index = 0; index < text.length; ) {
    const char = text[index]!
    const pair = text.slice(index + 1, index + 3)
    if (char === '%' && HEX_PAIR.test(pair)) {
      bytes.push(Number.parseInt(pair, 16))
      index += 3
      continue
    }
    const codePoint = text.codePointAt(index)!
    const width = codePoint > 0xffff ? 2 : 1
    for (const byte of utf8.encode(text.slice(index, index + width))) bytes.push(byte)
    index += width
  }
  return utf8Decoder.decode(new Uint8Array(bytes))
}

/** Decodes a path segment: like a query component, except that `+` is a literal plus. */
export const decodePathSegment = (raw: string): string => decodeUrlComponent(raw.replaceAll('+', '%2B'))
