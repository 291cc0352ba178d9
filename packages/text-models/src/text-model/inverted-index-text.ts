// OpenAlex ships abstracts as an inverted index, `{word: [positions]}`, for copyright reasons; a text model
// needs the running text back. Words are laid at their positions and joined by single spaces; positions no
// word claims (the index has gaps in real data) are skipped rather than left as double spaces.

/** The abstract text an `abstract_inverted_index` encodes ('' for null, non-objects or an empty index). */
export function textFromInvertedIndex(index: unknown): string {
  if (index === null || typeof index !== 'object' || Array.isArray(index)) return ''
  const words: string[] = []
  for (const [word, positions] of Object.entries(index as Record<string, unknown>)) {
    if (!Array.isArray(positions)) continue
    for (const position of positions) {
      // A bad position in one record must not make a sparse array of millions of slots.
      if (Number.isInteger(position) && position >= 0 && position < MAX_POSITION) words[position] = word
    }
  }
  let text = ''
  for (const word of words) {
    if (word === undefined) continue
    text = text === '' ? word : `${text} ${word}`
  }
  return text
}

/** Far beyond the longest real abstract (a few thousand words). */
const MAX_POSITION = 100_000
