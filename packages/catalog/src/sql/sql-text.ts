// The one place identifiers and constant literals enter SQL text, for the query compiler, ingest and the search
// index alike. Names come from the catalog's allow-lists (entity tables, derived columns, link tables) and JSON
// paths from the properties registry; both are checked against a strict shape here anyway, so a bad name fails
// loudly instead of reaching DuckDB. Anything read from a snapshot or given by a caller goes through bound
// parameters instead.

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/
// `$`, then `.key`, `."quoted key"` or `[*]`/`[0]` steps. Keys are registry path segments.
const JSON_PATH = /^\$(?:\.[A-Za-z0-9_]+|\."[A-Za-z0-9_]+"|\[\*\]|\[[0-9]+\])*$/

export class SqlIdentifierError extends Error {
  override readonly name = 'SqlIdentifierError'
  constructor(readonly text: string) {
    super(`Refusing to write '${text}' into SQL: it is not an identifier of the catalog`)
  }
}

/** `"name"`, for a table, view or column name of the catalog. */
export const quoteIdentifier = (name: string): string => {
  if (!IDENTIFIER.test(name)) throw new SqlIdentifierError(name)
  return `"${name}"`
}

const JSON_MEMBER = /^[A-Za-z0-9_]+$/

/**
 * `"key"`, for a member of a record's JSON object as a STRUCT field or a `read_json` column: a registry path
 * segment, which may start with a digit (`2yr_mean_citedness`).
 */
export const quoteJsonMember = (key: string): string => {
  if (!JSON_MEMBER.test(key)) throw new SqlIdentifierError(key)
  return `"${key}"`
}

/** A JSON path as an SQL string literal (`'$.open_access.is_oa'`). */
export const jsonPathLiteral = (path: string): string => {
  if (!JSON_PATH.test(path)) throw new SqlIdentifierError(path)
  return `'${path}'`
}

/**
 * A constant string literal of this package (a file path of the catalog, a regular expression): single
 * quotes doubled, so the text cannot end the literal.
 */
export const constantLiteral = (text: string): string => `'${text.replaceAll("'", "''")}'`

/** A SQL integer literal for a constant of this package; anything but a safe integer is a bug. */
export const sqlInteger = (value: number): string => {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer constant: ${value}`)
  return String(value)
}
