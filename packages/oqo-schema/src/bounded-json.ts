/**
 * How deep the JSON of a request may nest (objects and arrays together). Every layer after the parser
 * recurses over what it was given (validation, messages that quote a value, canonicalisation, the
 * response that echoes the query, `JSON.stringify`), so a body of a few thousand nested arrays overflowed
 * the stack and answered 500. An OQO nested `MAX_FILTER_DEPTH` (256) branches deep needs about 520 levels.
 */
export const MAX_JSON_DEPTH = 600

/** The deepest nesting of objects and arrays in a JSON text, found in one pass (strings skipped). */
export const jsonNestingDepth = (text: string): number => {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === 0x5c) i++
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x7b || code === 0x5b) {
      depth++
      if (depth > deepest) deepest = depth
    } else if (code === 0x7d || code === 0x5d) depth--
  }
  return deepest
}

/**
 * `JSON.parse` for text from a request: a text nested deeper than `MAX_JSON_DEPTH` throws a SyntaxError
 * (as malformed JSON does) before it is parsed, so callers answer both the same way.
 */
export const parseBoundedJson = (text: string): unknown => {
  const depth = jsonNestingDepth(text)
  if (depth > MAX_JSON_DEPTH)
    throw new SyntaxError(`it nests ${depth} levels deep; at most ${MAX_JSON_DEPTH} are read`)
  return JSON.parse(text)
}
