// Immutable pieces of SQL with their parameters. Fragments compose by concatenation, so `?` placeholders and
// their values always stay in the same order; nothing here ever writes a value into the text.
import type { SqlParam, SqlStatement } from './compiled-query.ts'

export interface SqlFragment {
  readonly sql: string
  readonly params: readonly SqlParam[]
}

/** Constant SQL text (no parameters). Only ever called with text built from this package's constants. */
export const raw = (sql: string): SqlFragment => ({ sql, params: [] })

/** One `?` placeholder bound to a value. */
export const param = (value: SqlParam): SqlFragment => ({ sql: '?', params: [value] })

/**
 * A tagged template: literal parts are SQL text, interpolations are fragments (`${fragment}`). There is no
 * way to interpolate a plain value: values go through `param`.
 */
export const sql = (strings: TemplateStringsArray, ...parts: readonly SqlFragment[]): SqlFragment => {
  let text = strings[0] ?? ''
  const params: SqlParam[] = []
  parts.forEach((part, index) => {
    text += part.sql + (strings[index + 1] ?? '')
    params.push(...part.params)
  })
  return { sql: text, params }
}

export const joinSql = (parts: readonly SqlFragment[], separator: string): SqlFragment => ({
  sql: parts.map((part) => part.sql).join(separator),
  params: parts.flatMap((part) => part.params),
})

/** A comma-separated list of placeholders: `?, ?, ?`. */
export const paramList = (values: readonly SqlParam[]): SqlFragment => joinSql(values.map(param), ', ')

export const toStatement = (fragment: SqlFragment): SqlStatement => ({
  sql: fragment.sql,
  params: [...fragment.params],
})

export const TRUE_SQL: SqlFragment = raw('TRUE')
export const FALSE_SQL: SqlFragment = raw('FALSE')
