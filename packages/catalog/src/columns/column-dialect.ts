// The SQL the column map (column-sources.ts, value-codecs.ts) writes, as one interface per engine: where a
// registry column's values are is a fact of the catalog, but how a JSON text is typed, an id's last segment
// taken or a list filtered is written differently by DuckDB and ClickHouse (kysely's dialects do the same for
// their query nodes). DuckDB's is in @oqlkit/adapter-duckdb, ClickHouse's in @oqlkit/adapter-clickhouse. Every argument is SQL
// the map wrote itself (a column, an expression of columns) or a constant of this package: never a value of
// a request, which travels as a parameter.

export interface ColumnDialect {
  /** A column of the entity table, by its catalog name. */
  column(name: string): string
  /** A constant string of this package (a pattern, a country code, a URL prefix) as a literal. */
  constant(text: string): string
  /** The number a JSON text holds, or NULL. */
  tryNumber(text: string): string
  /** The date of the date or datetime a JSON text holds, or NULL. */
  tryDate(text: string): string
  /** The instant a JSON text holds, or NULL. */
  tryTimestamp(text: string): string
  /** The boolean a JSON text holds, or NULL. */
  tryBoolean(text: string): string
  /**
   * A stored integer column as the type `tryNumber` gives, so the two can be branches of one expression
   * (`coalesce` of a record's count and a counted list): DuckDB widens a BIGINT to DOUBLE itself, ClickHouse
   * would make a Variant of Float64 and Int64, which it can neither group nor sort by.
   */
  toNumber(expr: string): string
  /** A stored date or timestamp column as a date. */
  toDate(expr: string): string
  /** A stored date or timestamp column as a timestamp. */
  toTimestamp(expr: string): string
  /** The url-decoded last path segment of an id or code (`https://openalex.org/W1` gives `W1`). */
  idTail(text: string): string
  /**
   * The group key of an id read from a record: the upper-cased short form of a letter id in any form
   * (`https://openalex.org/w1` and `W1` share `W1`), any other id as written.
   */
  letterIdGroup(text: string): string
  /**
   * A predicate as a value of the boolean type, for a column computed from one: DuckDB's predicates are
   * BOOLEAN already, ClickHouse's are UInt8, which would group as `0` and `1` instead of `false` and `true`.
   */
  truth(predicate: string): string
  /** Whether a list holds any value. */
  nonEmpty(list: string): string
  /** Whether a list holds any of some constants. */
  anyOf(list: string, constants: readonly string[]): string
  /** Whether a list holds any of some upper-case constants, compared with its values upper-cased. */
  anyUpperOf(list: string, constants: readonly string[]): string
  /** The distinct non-null results of `map` over a list's values (`map` gets the SQL of one value). */
  distinctMapped(list: string, map: (value: string) => string): string
  /** The first group of a constant pattern in a text, empty when it does not match. */
  regexpExtract(text: string, pattern: string): string
  /** An external id as ingest normalises it: lower-cased, trimmed, without its URL prefix and end slashes. */
  externalIdKey(text: string, prefixPattern: string): string
  /** Two texts joined. */
  concat(left: string, right: string): string
  /** The placeholder of one parameter read as a date (a datetime's date counts), `?` marking the slot. */
  readonly datePlaceholder: string
  /** The placeholder of one parameter read as an instant, `?` marking the slot. */
  readonly timestampPlaceholder: string
}
