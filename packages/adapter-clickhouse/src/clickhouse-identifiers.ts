// Identifiers in ClickHouse SQL. Values never enter SQL text (they travel as query parameters); names do,
// and every name this package writes comes from the catalog's manifest or the operator's command line, so a
// name is checked to be a plain one before it is quoted, rather than escaped and trusted.

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** `name` in backticks, or an error when it is anything but letters, digits and underscores. */
export const quoteIdentifier = (name: string): string => {
  if (!PLAIN_NAME.test(name) || name.length > 200)
    throw new Error(
      `${JSON.stringify(name)} cannot name a ClickHouse database, table or column here: use letters, digits and underscores, starting with a letter or underscore`,
    )
  return `\`${name}\``
}

/** Whether a name can be used as a database, table or column name. */
export const isPlainName = (name: string): boolean => PLAIN_NAME.test(name) && name.length <= 200
