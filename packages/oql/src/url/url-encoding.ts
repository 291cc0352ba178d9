// Percent-encoding as the classic URLs of the corpus and the GUI write them: besides letters, digits
// and `_.-~`, the characters `:|,!<>=*()/` stay literal, so `filter=type:article|review` reads as
// written; everything else (space, `"`, `+`, `?`, `&`, `%`, non-ASCII) is percent-encoded as UTF-8.

const LITERAL = /^[A-Za-z0-9_.\-~:|,!<>=*()/]$/
const ALL_LITERAL = /^[A-Za-z0-9_.\-~:|,!<>=*()/]*$/

// Which ASCII characters stay literal, by code.
const LITERAL_ASCII: readonly boolean[] = Array.from({ length: 128 }, (_, code) =>
  LITERAL.test(String.fromCharCode(code)),
)

// Not fatal: a malformed byte sequence becomes U+FFFD instead of an exception.
const utf8Decoder = new TextDecoder('utf-8', { fatal: false })

const HEX_DIGITS = '0123456789ABCDEF'

const hex = (byte: number): string => `%${HEX_DIGITS[byte >> 4]}${HEX_DIGITS[byte & 0x0f]}`

const REPLACEMENT_CHARACTER = 0xfffd

/**
 * The code point at `index` and how many UTF-16 units it takes; a lone surrogate is U+FFFD, as the
 * UTF-8 encoder writes it.
 */
const codePointAt = (text: string, index: number): { readonly code: number; readonly width: number } => {
  const code = text.charCodeAt(index)
  if (code < 0xd800 || code > 0xdfff) return { code, width: 1 }
  const next = code <= 0xdbff ? text.charCodeAt(index + 1) : Number.NaN
  if (next >= 0xdc00 && next <= 0xdfff)
    return { code: (code - 0xd800) * 0x400 + (next - 0xdc00) + 0x10000, width: 2 }
  return { code: REPLACEMENT_CHARACTER, width: 1 }
}

/** Appends the UTF-8 bytes of a code point. */
const pushUtf8 = (bytes: number[], code: number): void => {
  if (code < 0x80) bytes.push(code)
  else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f))
  else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f))
  else
    bytes.push(
      0xf0 | (code >> 18),
      0x80 | ((code >> 12) & 0x3f),
      0x80 | ((code >> 6) & 0x3f),
      0x80 | (code & 0x3f),
    )
}

export const encodeUrlComponent = (text: string): string => {
  if (ALL_LITERAL.test(text)) return text
  let out = ''
  const bytes: number[] = []
  for (let index = 0; index < text.length; ) {
    const { code, width } = codePointAt(text, index)
    index += width
    if (code < 0x80 && LITERAL_ASCII[code] === true) {
      out += String.fromCharCode(code)
      continue
    }
    bytes.length = 0
    pushUtf8(bytes, code)
    for (const byte of bytes) out += hex(byte)
  }
  return out
}

const asciiText = (bytes: readonly number[]): string => {
  let text = ''
  for (const byte of bytes) text += String.fromCharCode(byte)
  return text
}

const hexValue = (code: number): number => {
  if (code >= 0x30 && code <= 0x39) return code - 0x30
  if (code >= 0x41 && code <= 0x46) return code - 0x37
  if (code >= 0x61 && code <= 0x66) return code - 0x57
  return -1
}

// Text that decodes to itself: no escapes, no surrogates (a lone one becomes U+FFFD), and no leading
// byte order mark (the UTF-8 decoder drops it).
const NEEDS_DECODING = /[%\uD800-\uDFFF]|^\uFEFF/

/**
 * Decodes a query-string component the way a form decoder does: `+` is a space, `%XX` a byte, and the
 * bytes are UTF-8. A `%` that starts no valid escape stays literal, so no input makes it throw.
 */
export const decodeUrlComponent = (raw: string): string => {
  const text = raw.replaceAll('+', ' ')
  if (!NEEDS_DECODING.test(text)) return text
  return (SURROGATE.test(text) ? undefined : strictlyDecoded(text)) ?? decodeBytes(text)
}

const SURROGATE = /[\uD800-\uDFFF]/

/**
 * The built-in decoder, where it agrees with the byte-wise one below: it throws on what that one
 * repairs (a `%` that starts no escape, bytes that are not UTF-8), and keeps a leading byte order mark
 * the UTF-8 decoder drops. Text with surrogates never comes here.
 */
const strictlyDecoded = (text: string): string | undefined => {
  try {
    const decoded = decodeURIComponent(text)
    return decoded.startsWith('\uFEFF') ? undefined : decoded
  } catch {
    return undefined
  }
}

const decodeBytes = (text: string): string => {
  const bytes: number[] = []
  let ascii = true
  for (let index = 0; index < text.length; ) {
    if (text.charCodeAt(index) === 0x25) {
      const high = hexValue(text.charCodeAt(index + 1))
      const low = high === -1 ? -1 : hexValue(text.charCodeAt(index + 2))
      if (low !== -1) {
        const byte = high * 16 + low
        if (byte >= 0x80) ascii = false
        bytes.push(byte)
        index += 3
        continue
      }
    }
    const { code, width } = codePointAt(text, index)
    if (code >= 0x80) ascii = false
    pushUtf8(bytes, code)
    index += width
  }
  return ascii ? asciiText(bytes) : utf8Decoder.decode(new Uint8Array(bytes))
}
/** Decodes a path segment: like a query component, except that `+` is a literal plus. */
export const decodePathSegment = (raw: string): string => decodeUrlComponent(raw.replaceAll('+', '%2B'))
