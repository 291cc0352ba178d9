// The two ways text gets into the SQL that ingest runs besides bound parameters. Both are only for values
// this package owns (entity table names, column names, JSON paths, regex patterns): anything read from a
// snapshot or given by a caller goes through parameters instead.

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/

/** A quoted SQL identifier; throws on anything outside `[a-z_][a-z0-9_]*`, which only a bug can produce. */
export function sqlIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`not an allow-listed SQL identifier: ${JSON.stringify(name)}`)
  return `"${name}"`
}

/** A SQL string literal for a constant of this package. */
export function sqlConstant(value: string): string {
  return `'${value.replaceAll("'", "''")}'`
}

/** A SQL integer literal for a constant of this package. */
export function sqlInteger(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer constant: ${value}`)
  return String(value)
}
