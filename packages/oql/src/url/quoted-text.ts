// Double quotes protect what they enclose from the separators of the classic value grammar
// (`,` between filters, `|` between OR values, spaces between AND words).

const WHITESPACE = /\s/

/** Splits `text` on `separator` wherever it is outside double quotes. */
export const splitOutsideQuotes = (text: string, separator: string): string[] => {
  const parts: string[] = []
  let quoted = false
  let start = 0
  for (let index = 0; index < text.length; index++) {
    const char = text[index]
    if (char === '"') quoted = !quoted
    else if (char === separator && !quoted) {
      parts.push(text.slice(start, index))
      start = index + 1
    }
  }
  parts.push(text.slice(start))
  return parts
}

/** True when `separator` occurs in `text` outside double quotes. */
export const hasOutsideQuotes = (text: string, separator: RegExp): boolean => {
  let quoted = false
  for (const char of text) {
    if (char === '"') quoted = !quoted
    else if (!quoted && separator.test(char)) return true
  }
  return false
}

export const hasBalancedQuotes = (text: string): boolean => {
  let count = 0
  for (let index = text.indexOf('"'); index !== -1; index = text.indexOf('"', index + 1)) count += 1
  return count % 2 === 0
}

/** `"a b"` (one pair of quotes around text that holds no other quote) gives `a b`; anything else undefined. */
export const unwrapQuotes = (text: string): string | undefined =>
  text.length >= 2 && text.startsWith('"') && text.endsWith('"') && !text.slice(1, -1).includes('"')
    ? text.slice(1, -1)
    : undefined

/** Splits on whitespace outside quotes: `"machine learning" neural` gives two tokens. */
export const wordsOutsideQuotes = (text: string): string[] => {
  const words: string[] = []
  let quoted = false
  let current = ''
  for (const char of text) {
    if (char === '"') quoted = !quoted
    if (!quoted && WHITESPACE.test(char)) {
      if (current !== '') words.push(current)
      current = ''
    } else current += char
  }
  if (current !== '') words.push(current)
  return words
}
