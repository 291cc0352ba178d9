// The search index's tokenizer in DuckDB SQL: the same steps as the TypeScript tokenizer of
// @oqlkit/text-models (`exactTokens`), which query words go through. The two must agree token for token, or a
// query word would miss the index; test/search-sample.test.ts runs both over every text of the sample catalog
// and a set of awkward characters. Apostrophes deleted, lower case, accents folded (`strip_accents`), split on
// every run of characters that are neither Unicode letters nor digits.

/**
 * The SQL expression that gives the exact tokens (VARCHAR[]) of the VARCHAR expression `text`. `text` is a
 * fragment this package builds from its own column names and JSON paths, never a value from a caller.
 */
export function exactTokensSql(text: string): string {
  return (
    'list_filter(string_split_regex(strip_accents(lower(regexp_replace(' +
    text +
    ", '[''\u2019\u02bc]', '', 'g'))), '[^\\p{L}\\p{N}]+'), lambda token: token <> '')"
  )
}
