// How text becomes tokens in TypeScript (query words, the text models). The search index of each adapter does
// the same in its own SQL (adapter-duckdb: search/search-tokenizer-sql.ts); the two must agree token for
// token, or a query word would miss the index, and a test there runs both over every text of the sample
// catalog and a set of awkward characters. The steps:
//   1. apostrophes are deleted, so `O'Brien` is `obrien` and `children's` is `childrens` (then `children`
//      stemmed), instead of leaving a stray `s` token;
//   2. lower case;
//   3. accents folded: canonical decomposition, combining marks removed (DuckDB `strip_accents`): `Łódź` is
//      `łodz` (the stroke of `ł` is not a combining mark, so it stays, in both);
//   4. split on every run of characters that are neither Unicode letters nor digits.
// Exact tokens are the result; stemmed tokens are the exact ones through `porterStem`.
import { porterStem } from './porter-stemmer.ts'

const APOSTROPHES_JS = /['\u2019\u02bc]/gu
const COMBINING_MARKS = /\p{M}+/gu
const SEPARATORS_JS = /[^\p{L}\p{N}]+/u
/** In query text a `*` or `?` stays inside its token, where it is a wildcard (exact mode). */
const SEPARATORS_WITH_WILDCARDS_JS = /[^\p{L}\p{N}*?]+/u

/** Lower-cased, accent-folded text: steps 1–3. */
export function foldSearchText(text: string): string {
  return text
    .replace(APOSTROPHES_JS, '')
    .toLowerCase()
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .normalize('NFC')
}

/** The exact tokens of a text, in order. */
export function exactTokens(text: string): string[] {
  return foldSearchText(text)
    .split(SEPARATORS_JS)
    .filter((token) => token !== '')
}

/** The tokens of query text, keeping `*` and `?` inside tokens (they are only meaningful in exact mode). */
export function queryTokens(text: string): string[] {
  return foldSearchText(text)
    .split(SEPARATORS_WITH_WILDCARDS_JS)
    .filter((token) => token !== '' && /[\p{L}\p{N}*?]/u.test(token))
}

/** The stemmed tokens of a text, in order (one per exact token). */
export function stemmedTokens(text: string): string[] {
  return exactTokens(text).map(porterStem)
}
