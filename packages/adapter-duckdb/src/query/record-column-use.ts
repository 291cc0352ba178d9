// Whether a statement reads an entity's `record` column (the JSON tier of column-sources.ts, the unindexed
// search, the related-works expansion). A catalog opened in `narrow` mode answers every other statement
// from an in-memory table without that column, so the compiler asks this of the SQL it has just written.

// String literals are not column references; quoted identifiers are, so their quotes are dropped.
const STRING_LITERAL = /'(?:[^']|'')*'/g
const QUOTED_IDENTIFIER = /"((?:[^"]|"")*)"/g
const RECORD_COLUMN = /(?<![A-Za-z0-9_$])record(?![A-Za-z0-9_])/i

/**
 * True when the SQL text refers to a column named `record`. A false positive only sends a statement to the
 * slower full view; a false negative fails loudly (DuckDB: no such column), never with a wrong answer.
 */
export const readsRecordColumn = (sqlText: string): boolean =>
  RECORD_COLUMN.test(sqlText.replace(STRING_LITERAL, "''").replace(QUOTED_IDENTIFIER, ' $1 '))
