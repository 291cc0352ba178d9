// The text of an OQO search leaf as a search-index query. The OQO keeps the boolean structure in its filter
// tree; what remains in one value is (oql-v2.2 §6, the URL search syntax):
//   bare words and quoted phrases, all of which must match     `mental health "climate change"`
//   list proximity, K quoted operands in an N-word window      `"smart"~3~"phone"`, `"a"~3~"b"~"c"`
//   single-phrase slop, the phrase's words in an N-word window `"smart phone"~3`
// Wildcards (`phone*`) stay inside the words; the search compiler checks where they may be.
import { allOf, phrase, proximity, type SearchNode, word } from './search-query.ts'

const LIST_PROXIMITY = /^"([^"]*)"~(\d+)~"([^"]*)"((?:~"[^"]*")*)$/
const PHRASE_SLOP = /^"([^"]*)"~(\d+)$/
const ITEM = /"([^"]*)"|(\S+)/g
// A bare word of punctuation only (`--`, `&`) searches for nothing; it is skipped, as an analyzer would.
const SEARCHABLE = /[\p{L}\p{N}]/u

/** The search-index query of a search value, or undefined when it holds nothing to search for. */
export const searchMatchOfText = (text: string): SearchNode | undefined => {
  const value = text.trim()
  const list = LIST_PROXIMITY.exec(value)
  if (list !== null) {
    const rest = [...list[4]!.matchAll(/~"([^"]*)"/g)].map((match) => match[1]!)
    return proximity(Number(list[2]), list[1]!, list[3]!, ...rest)
  }
  const slop = PHRASE_SLOP.exec(value)
  if (slop !== null) {
    const words = slop[1]!.split(/\s+/).filter((part) => part !== '')
    return words.length > 1
      ? proximity(Number(slop[2]), ...words)
      : words.length === 1
        ? word(words[0]!)
        : undefined
  }
  const items: SearchNode[] = []
  for (const match of value.matchAll(ITEM)) {
    if (match[1] !== undefined) {
      if (match[1].trim() !== '') items.push(phrase(match[1]))
    } else if (match[2] !== undefined && SEARCHABLE.test(match[2])) items.push(word(match[2]))
  }
  if (items.length === 0) return undefined
  return items.length === 1 ? items[0] : allOf(...items)
}
