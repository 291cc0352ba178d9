// The types of an export's columns, learnt while its rows are written: a typed file (Parquet) needs each
// column's type before its first row, and the rows come in batches the writer cannot hold. The registry gives
// the type of a top-level scalar field (`publication_year` is a number even where every value seen is null);
// nested fields (`authorships`, `open_access`) have no type there, so their shape is merged from the values
// themselves as each batch passes, once, at the cost of a walk over each record, where a reader of the
// finished file would have to read it twice (once to infer, once to convert) and hold what it infers from.
import type { ValueKind } from '@oqlkit/oqo-schema/registry'
import type { EntityRecord } from '../adapter/storage-adapter.ts'

/**
 * The type of a value, as a typed file holds it: a scalar, a list, an object of known fields (`struct`), an
 * object whose keys are data (`map`, e.g. an inverted index's words), `json` for values of kinds that do not
 * mix (an object here and a number there), kept as their JSON text, and `null` for a field never seen with a
 * value.
 */
export type ValueShape =
  | { readonly kind: 'null' | 'boolean' | 'integer' | 'float' | 'text' | 'date' | 'timestamp' | 'json' }
  | { readonly kind: 'list' | 'map'; readonly of: ValueShape }
  | { readonly kind: 'struct'; readonly fields: ReadonlyMap<string, ValueShape> }

/** A column of a typed export: its name and the type of its values. */
export interface ShapedColumn {
  readonly name: string
  readonly shape: ValueShape
}

/** An object with more distinct keys than this is a map (keys are data), as DuckDB's JSON reader decides. */
export const MAP_KEYS_THRESHOLD = 200

// Mutable while rows pass, so a value that fits its shape (almost every one) allocates nothing.
// A `hint` is a registry type no value has confirmed yet: the type of the field's values, or of its items when
// the field turns out to hold lists (the registry types `corresponding_author_ids` as ids, one id each).
type Node =
  | {
      kind: 'null' | 'boolean' | 'integer' | 'float' | 'text' | 'date' | 'timestamp' | 'json'
      hint?: true
    }
  | ItemsNode
  | StructNode
/** A list, or a map (whose values are its items). */
interface ItemsNode {
  kind: 'list' | 'map'
  of: Node
}
interface StructNode {
  kind: 'struct'
  fields: Map<string, Node>
  /** The fields' names in lower case, to refuse one that differs from another only by case. */
  folded: Set<string>
}

const NULL: Node = { kind: 'null' }
const scalar = (kind: 'boolean' | 'integer' | 'float' | 'text' | 'date' | 'timestamp' | 'json'): Node => ({
  kind,
})

/** The shape a registry kind promises for a top-level field: its values' scalar type. */
export const shapeOfValueKind = (kind: ValueKind | null): ValueShape => {
  switch (kind) {
    case 'number':
      return { kind: 'integer' }
    case 'float':
      return { kind: 'float' }
    case 'boolean':
      return { kind: 'boolean' }
    case 'date':
      return { kind: 'date' }
    case 'datetime':
      return { kind: 'timestamp' }
    case null:
      return { kind: 'null' }
    default:
      return { kind: 'text' }
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
// No zone offset: a typed file's timestamp has none, and an offset would change the instant it reads as.
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?$/

/** A calendar day that exists (not 2023-02-30), so a reader casting it to a date cannot fail. */
const isDay = (text: string, pattern: RegExp): boolean => {
  const match = pattern.exec(text)
  if (match === null) return false
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return year >= 1 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** The scalar shape of text: a date or timestamp only where the column's shape says it is one and it reads as one. */
const textShape = (current: Node['kind'], text: string): Node['kind'] => {
  if (current === 'date') return isDay(text, DATE) ? 'date' : isDay(text, TIMESTAMP) ? 'timestamp' : 'text'
  if (current === 'timestamp') return isDay(text, DATE) || isDay(text, TIMESTAMP) ? 'timestamp' : 'text'
  return 'text'
}

const SCALARS = new Set<Node['kind']>(['boolean', 'integer', 'float', 'text', 'date', 'timestamp'])

/** Two scalar kinds as one: numbers widen to float, dates to timestamps, anything else mixed is text. */
const joinScalars = (a: Node['kind'], b: Node['kind']): Node['kind'] => {
  if (a === b) return a
  if ((a === 'integer' || a === 'float') && (b === 'integer' || b === 'float')) return 'float'
  if ((a === 'date' || a === 'timestamp') && (b === 'date' || b === 'timestamp')) return 'timestamp'
  return 'text'
}

const isObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * A struct whose keys turn out to be data becomes a map of the join of its fields. So does one with a key a
 * typed file cannot name a field by: empty, or the same as another but for case (field names of a struct are
 * matched without case).
 */
const foldable = (node: StructNode, key: string): boolean => {
  if (key === '' || node.fields.size >= MAP_KEYS_THRESHOLD) return true
  const folded = key.toLowerCase()
  return node.folded.has(folded)
}

const asMap = (node: StructNode): Node => {
  let of: Node = NULL
  for (const field of node.fields.values()) of = join(of, field)
  return { kind: 'map', of }
}

/**
 * A struct (or the map it became) with the field `key` set to `update` of what it held (null if new): in place,
 * unless the key turns the struct into a map.
 */
const withField = (node: Node, key: string, update: (known: Node) => Node): Node => {
  if (node.kind === 'map') {
    node.of = update(node.of)
    return node
  }
  if (node.kind !== 'struct') return node
  const known = node.fields.get(key)
  if (known !== undefined) {
    const wider = update(known)
    if (wider !== known) node.fields.set(key, wider)
    return node
  }
  if (foldable(node, key)) {
    const map = asMap(node) as ItemsNode
    map.of = update(map.of)
    return map
  }
  node.fields.set(key, update(NULL))
  node.folded.add(key.toLowerCase())
  return node
}

/** Two shapes as one that holds the values of both. */
const join = (a: Node, b: Node): Node => {
  if (a.kind === 'null') return b
  if (b.kind === 'null') return a
  if (a.kind === 'json' || b.kind === 'json') return scalar('json')
  if (SCALARS.has(a.kind) && SCALARS.has(b.kind)) {
    const kind = joinScalars(a.kind, b.kind)
    return kind === a.kind ? a : scalar(kind as 'text')
  }
  if (a.kind === 'list' && b.kind === 'list') return { kind: 'list', of: join(a.of, b.of) }
  const left = a.kind === 'struct' && b.kind === 'map' ? asMap(a) : a
  const right = b.kind === 'struct' && a.kind === 'map' ? asMap(b) : b
  if (left.kind === 'map' && right.kind === 'map') return { kind: 'map', of: join(left.of, right.of) }
  if (left.kind === 'struct' && right.kind === 'struct') {
    let merged: Node = { kind: 'struct', fields: new Map(left.fields), folded: new Set(left.folded) }
    for (const [key, field] of right.fields) merged = withField(merged, key, (known) => join(known, field))
    return merged
  }
  return scalar('json')
}

/** `node` widened to hold `value` too (the same node, changed in place, when it can). */
const widen = (node: Node, value: unknown): Node => {
  if (value === null || value === undefined || node.kind === 'json') return node
  if ('hint' in node && typeof value === 'object') {
    // A hint is a scalar type: a list is a list of it; an object is shaped by its own values alone.
    if (!Array.isArray(value)) return widen(NULL, value)
    return widen({ kind: 'list', of: node }, value)
  }
  switch (typeof value) {
    case 'boolean':
      return widenScalar(node, 'boolean')
    case 'number':
      return widenScalar(node, Number.isSafeInteger(value) ? 'integer' : 'float')
    case 'string':
      return widenScalar(node, textShape(node.kind, value))
    case 'object':
      break
    default:
      return scalar('json')
  }
  if (Array.isArray(value)) {
    if (node.kind !== 'list' && node.kind !== 'null') return scalar('json')
    const list: ItemsNode = node.kind === 'list' ? node : { kind: 'list', of: NULL }
    for (const item of value) list.of = widen(list.of, item)
    return list
  }
  if (!isObject(value)) return scalar('json')
  if (node.kind === 'map') {
    for (const key in value) node.of = widen(node.of, value[key])
    return node
  }
  if (node.kind !== 'struct' && node.kind !== 'null') return scalar('json')
  let struct: Node = node.kind === 'struct' ? node : { kind: 'struct', fields: new Map(), folded: new Set() }
  for (const key in value) {
    const item = value[key]
    struct = withField(struct, key, (known) => widen(known, item))
  }
  return struct
}

const widenScalar = (node: Node, kind: Node['kind']): Node => {
  const hinted = 'hint' in node
  if (node.kind === kind && !hinted) return node
  if (node.kind === 'null') return scalar(kind as 'text')
  if (!SCALARS.has(node.kind)) return scalar('json')
  const joined = joinScalars(node.kind, kind)
  return joined === node.kind && !hinted ? node : scalar(joined as 'text')
}

const fromShape = (shape: ValueShape): Node => {
  if (shape.kind === 'list' || shape.kind === 'map') return { kind: shape.kind, of: fromShape(shape.of) }
  if (shape.kind === 'struct') {
    const fields = new Map([...shape.fields].map(([key, field]) => [key, fromShape(field)] as const))
    return { kind: 'struct', fields, folded: new Set([...fields.keys()].map((key) => key.toLowerCase())) }
  }
  return scalar(shape.kind as 'text')
}

const toShape = (node: Node): ValueShape => {
  if (node.kind === 'list' || node.kind === 'map') return { kind: node.kind, of: toShape(node.of) }
  if (node.kind === 'struct')
    return { kind: 'struct', fields: new Map([...node.fields].map(([key, field]) => [key, toShape(field)])) }
  return { kind: node.kind }
}

/**
 * The columns of an export's rows and their shapes, learnt batch by batch. Columns named up front (a `select`)
 * come first, in that order, with the shape the registry gives them; any other top-level field joins when a
 * row first has it. A value of a kind its column has not held widens the column (an integer column that meets
 * 2.5 becomes float, a text or number column that meets an object becomes JSON), so every value seen fits.
 */
export class RowShapes {
  readonly #columns = new Map<string, Node>()
  readonly #hints: ReadonlyMap<string, ValueShape>

  /**
   * `named`: the columns the file has whatever the rows hold, in order. `hints`: the shape a top-level field
   * starts from when it appears (the registry's scalar types).
   */
  constructor(named: readonly string[], hints: ReadonlyMap<string, ValueShape> = new Map()) {
    this.#hints = hints
    for (const name of named) this.#columns.set(name, this.#start(name))
  }

  #start(name: string): Node {
    const hint = this.#hints.get(name)
    if (hint === undefined) return NULL
    const node = fromShape(hint)
    return SCALARS.has(node.kind) ? { kind: node.kind as 'text', hint: true } : node
  }

  /** Widens the columns to hold every value of `rows`. */
  add(rows: readonly EntityRecord[]): void {
    const columns = this.#columns
    for (const row of rows)
      for (const name in row) {
        const node = columns.get(name) ?? this.#start(name)
        const wider = widen(node, row[name])
        if (wider !== node || !columns.has(name)) columns.set(name, wider)
      }
  }

  /** The columns so far, in order, with the shapes that hold every value added. */
  columns(): readonly ShapedColumn[] {
    return [...this.#columns].map(([name, node]) => ({ name, shape: toShape(node) }))
  }
}
