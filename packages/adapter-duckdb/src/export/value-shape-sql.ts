// A value shape (the engine's `ValueShape`, learnt from an export's rows and the registry) as a DuckDB type, to
// read JSON Lines with declared columns instead of letting DuckDB infer them by reading the whole file first.

import { constantLiteral } from '@oqlkit/catalog'
import type { ShapedColumn, ValueShape } from '@oqlkit/engine'

const SCALAR_TYPES = {
  // A field never seen with a value holds only nulls: text is the least surprising type for them.
  null: 'VARCHAR',
  json: 'JSON',
  boolean: 'BOOLEAN',
  integer: 'BIGINT',
  float: 'DOUBLE',
  text: 'VARCHAR',
  date: 'DATE',
  timestamp: 'TIMESTAMP',
} as const

/**
 * A struct field's name as DuckDB type text: double-quoted, inner quotes doubled. Names are data (record
 * keys), so they are quoted this way whatever they hold, and the whole type text is a string literal again.
 */
const fieldName = (name: string): string => `"${name.replaceAll('"', '""')}"`

/**
 * The DuckDB type of a shape: scalars as themselves (a field never seen with a value as text, one of mixed
 * kinds as JSON), lists as `T[]`, objects as STRUCT of their fields (one never seen with a field as JSON, since a
 * STRUCT needs one) and maps as `MAP(VARCHAR, T)`.
 */
export const duckDbTypeOf = (shape: ValueShape): string => {
  switch (shape.kind) {
    case 'list':
      return `${duckDbTypeOf(shape.of)}[]`
    case 'map':
      return `MAP(VARCHAR, ${duckDbTypeOf(shape.of)})`
    case 'struct':
      return shape.fields.size === 0
        ? 'JSON'
        : `STRUCT(${[...shape.fields].map(([name, field]) => `${fieldName(name)} ${duckDbTypeOf(field)}`).join(', ')})`
    default:
      return SCALAR_TYPES[shape.kind]
  }
}

/** `columns = {'name': 'TYPE', …}` of `read_json`, every name and type a quoted constant. */
export const readJsonColumnsArgument = (columns: readonly ShapedColumn[]): string =>
  `{${columns.map((column) => `${constantLiteral(column.name)}: ${constantLiteral(duckDbTypeOf(column.shape))}`).join(', ')}}`
