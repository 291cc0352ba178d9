/**
 * Decodes percent escapes, keeping what is not one as written: `book%20series` is `book series`, and `50%` or
 * a lone `%E0` (not UTF-8) stay as they are, where `decodeURIComponent` would throw. The one decoder of ids,
 * paths and query parameters in every layer, so they all read an odd id the same way (DuckDB's `url_decode`,
 * which the catalog's SQL side uses, keeps malformed escapes too).
 */
export const decodePercentEscapes = (text: string): string => {
  if (!text.includes('%')) return text
  try {
    return decodeURIComponent(text)
  } catch {
    // Each run of escapes alone: a run that spells no UTF-8 stays as written.
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run)
      } catch {
        return run
      }
    })
  }
}
