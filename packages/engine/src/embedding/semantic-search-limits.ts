// The bounds of `search.semantic` the API description sets: a nearest-neighbour search answers a short list,
// not a ranking of the whole catalog, and a query is a passage, not a document.

export const SEMANTIC_SEARCH_LIMITS = {
  /** The most works one semantic search returns (its result set; pages and groups are taken from it). */
  maxResults: 50,
  /** The longest query text, in characters (Unicode code points). */
  maxQueryLength: 2000,
} as const
