// The terms a text model counts: the search index's exact tokens (apostrophes dropped, lower case, accents
// folded, split on non-letters/digits), stemmed with the same Porter stemmer, so "networks" in a title and
// "network" in a tag's name are one term. One-character tokens are dropped: they are initials, list markers
// and stray symbols far more often than words.
import { porterStem } from '../tokenizer/porter-stemmer.ts'
import { exactTokens } from '../tokenizer/search-tokenizer.ts'

/** Stemming dominates tokenising; a corpus repeats a few tens of thousands of tokens, so remember them. */
const stems = new Map<string, string>()
const STEM_MEMORY_LIMIT = 200_000

function stemOf(token: string): string {
  let stem = stems.get(token)
  if (stem === undefined) {
    if (stems.size >= STEM_MEMORY_LIMIT) stems.clear()
    stem = porterStem(token)
    stems.set(token, stem)
  }
  return stem
}

/** The stemmed terms of a text, in order, repeats kept (term frequency is counted from them). */
export function textTerms(text: string): string[] {
  const terms: string[] = []
  for (const token of exactTokens(text)) if (token.length > 1) terms.push(stemOf(token))
  return terms
}
