// The SQL twin of record-extractor.ts for the native ingest path: DuckDB reads a part's records with the
// schema the extraction's paths imply (read_json's `columns`: a STRUCT for each object the paths walk, a
// LIST for each list, JSON at each value read) and computes every value a staged row holds besides the
// record (derived columns as text, record-path columns, external ids, link keys) from those typed columns.
// One parse per record, and list paths are vectorised list functions over typed lists.
//
// A record whose shape differs from the schema (a string where the paths walk into an object or a list)
// fails the typed read (DuckDB's error names no reliable line): such a part would be staged by the
// JavaScript extractor, which reads any shape. The differential test holds the two value for value.
//
// Not what ingest runs: `npm run bench:parse-cost` times it beside the parse workers' steps, and it costs
// more, not less (DuckDB's typed read + values 1.02× `JSON.parse` + extract + the staged row's JSON per work
// on one thread, 1.45× with the lines framed for it; load ~3, BENCHMARKS.md). Kept as the measured
// alternative and for its differential test; remove it if a later measurement agrees.
import {
  constantLiteral,
  derivedColumnsOf,
  type JsonPathStep,
  parseJsonPath,
  quoteJsonMember,
  type ValueSource,
} from '@oqlkit/catalog'
import { externalIdSql, letterIdSql, pathIdSql } from '../build/catalog-sql.ts'
import type { LinkKeySpec, RecordExtractionSpec } from './record-extraction-spec.ts'
import { linkColumnName, PRESENT } from './record-extractor.ts'

/** A staged column and the SQL that computes it from the typed columns `readColumnsSql` reads. */
export interface ExtractedColumnSql {
  readonly name: string
  readonly sql: string
}

/** What the paths need of a value: its members (an object), its elements (a list), or itself (JSON). */
class ShapeNode {
  readonly members = new Map<string, ShapeNode>()
  elements: ShapeNode | undefined
  /** Read as text somewhere: when also walked into (an id written as text or as an object), it stays JSON. */
  readAsText = false

  add(steps: readonly JsonPathStep[], asText: boolean): void {
    let node: ShapeNode = this
    for (const step of steps) {
      if (step.kind === 'key') {
        let member = node.members.get(step.key)
        if (member === undefined) {
          member = new ShapeNode()
          node.members.set(step.key, member)
        }
        node = member
      } else {
        node.elements ??= new ShapeNode()
        node = node.elements
      }
    }
    if (asText) node.readAsText = true
  }

  /** JSON when nothing walks into it, or when it is read as text too or walked as an object and a list. */
  get isJson(): boolean {
    const walked = this.members.size > 0 || this.elements !== undefined
    return !walked || this.readAsText || (this.members.size > 0 && this.elements !== undefined)
  }

  /** The DuckDB type the JSON reader gives this value. */
  type(): string {
    if (this.isJson) return 'JSON'
    if (this.elements !== undefined) return `${this.elements.type()}[]`
    return `STRUCT(${[...this.members].map(([key, member]) => `${quoteJsonMember(key)} ${member.type()}`).join(', ')})`
  }
}

/**
 * A JSON value's text as `jsonText` (JavaScript) writes it: strings unquoted, objects and lists as JSON, and
 * numbers as JavaScript prints them (DuckDB writes a whole double as `4.0`, JavaScript as `4`).
 */
function jsonTextSql(json: string): string {
  const number = `CAST(${json} AS DOUBLE)`
  return `CASE WHEN json_type(${json}) = 'DOUBLE' AND ${number} = trunc(${number}) AND abs(${number}) < 1e21 THEN CAST(CAST(${number} AS HUGEINT) AS VARCHAR) ELSE ${json}->>'$' END`
}

/** The JSON path of steps, as a literal (`'$.a[*]."2yr"'`). */
function jsonPathSql(steps: readonly JsonPathStep[]): string {
  const path = steps
    .map((step) => {
      if (step.kind === 'all') return '[*]'
      if (step.kind === 'index') return `[${step.index}]`
      quoteJsonMember(step.key)
      return /^[A-Za-z_][A-Za-z0-9_]*$/.test(step.key) ? `.${step.key}` : `."${step.key}"`
    })
    .join('')
  return constantLiteral(`$${path}`)
}

/**
 * Where a path ends up: the SQL of a typed value, or of a JSON value with the steps still to take inside
 * it (`rest`, empty when the path ends on it).
 */
interface Reached {
  readonly sql: string
  readonly node: ShapeNode
  readonly rest: readonly JsonPathStep[]
}

/** Where every path is read from: SQL over the typed columns, by path. */
class TypedReads {
  readonly #root = new ShapeNode()

  constructor(paths: readonly { readonly path: string; readonly asText: boolean }[]) {
    for (const { path, asText } of paths) this.#root.add(parseJsonPath(path), asText)
  }

  /** `read_json`'s columns: each top-level member the paths read, with its type. */
  columns(): readonly (readonly [string, string])[] {
    return [...this.#root.members].map(([key, member]) => [key, member.type()] as const)
  }

  /** Follows typed steps from `sql` at `node` until a wildcard, a JSON value or the path's end. */
  #follow(sql: string, node: ShapeNode, steps: readonly JsonPathStep[]): Reached & { wildcard: boolean } {
    let at = 0
    for (; at < steps.length; at++) {
      if (node !== this.#root && node.isJson) break
      const step = steps[at]!
      if (step.kind === 'all') return { sql, node, rest: steps.slice(at + 1), wildcard: true }
      if (step.kind === 'key') {
        sql = sql === '' ? quoteJsonMember(step.key) : `${sql}[${constantLiteral(step.key)}]`
        node = node.members.get(step.key)!
      } else {
        sql = `${sql}[${step.index + 1}]`
        node = node.elements!
      }
    }
    return { sql, node, rest: steps.slice(at), wildcard: false }
  }

  /** The JSON value at a path with no wildcard (a JSON `null` may come back as JSON, not as NULL). */
  #json(path: string): { readonly sql: string; readonly typed: boolean } {
    const reached = this.#follow('', this.#root, parseJsonPath(path))
    if (reached.wildcard) throw new Error(`a scalar path has no wildcard: ${path}`)
    if (reached.rest.length === 0) return { sql: reached.sql, typed: !reached.node.isJson }
    return { sql: `json_extract(${reached.sql}, ${jsonPathSql(reached.rest)})`, typed: false }
  }

  /** The text at a path with no wildcard, as `json_extract_string` and `jsonText` give it. */
  text(path: string): string {
    const { sql, typed } = this.#json(path)
    if (typed) throw new Error(`a path read as text is typed as an object or a list: ${path}`)
    return jsonTextSql(sql)
  }

  /** Whether a path with no wildcard holds a value (not none, not a JSON null). */
  present(path: string): string {
    const { sql, typed } = this.#json(path)
    return typed ? `(${sql} IS NOT NULL)` : `coalesce(json_type(${sql}) <> 'NULL', false)`
  }

  /** The length of the list at a path as text: none for no value or a JSON null, 0 for another value. */
  length(path: string): string {
    const { sql, typed } = this.#json(path)
    if (typed) return `CAST(len(${sql}) AS VARCHAR)`
    const type = `json_type(${sql})`
    return `CASE WHEN ${type} IS NULL OR ${type} = 'NULL' THEN NULL WHEN ${type} = 'ARRAY' THEN CAST(json_array_length(${sql}) AS VARCHAR) ELSE '0' END`
  }

  /** The typed list at a path ending in `[*]` (the elements of one list). */
  list(path: string): string {
    const reached = this.#follow('', this.#root, parseJsonPath(path))
    if (!reached.wildcard || reached.rest.length > 0 || reached.node.isJson)
      throw new Error(`not a path to the elements of one typed list: ${path}`)
    return reached.sql
  }

  /**
   * The texts of every value a path finds, JSON nulls left out, in document order: a wildcard flattens
   * the list it walks.
   */
  values(path: string): string {
    const walk = (sql: string, node: ShapeNode, steps: readonly JsonPathStep[], depth: number): string => {
      const reached = this.#follow(sql, node, steps)
      if (reached.wildcard) {
        const element = `__e${depth}`
        const inner = walk(element, reached.node.elements!, reached.rest, depth + 1)
        return `flatten(list_transform(coalesce(${reached.sql}, []), lambda ${element}: ${inner}))`
      }
      if (reached.rest.length === 0)
        return `list_filter([${jsonTextSql(reached.sql)}], lambda __v: __v IS NOT NULL)`
      // Inside a JSON value: json_extract walks the rest (a wildcard there gives a list).
      const found = `json_extract(${reached.sql}, ${jsonPathSql(reached.rest)})`
      const texts = reached.rest.some((step) => step.kind === 'all')
        ? `list_transform(coalesce(${found}, []), lambda __j: ${jsonTextSql('__j')})`
        : `[${jsonTextSql(found)}]`
      return `list_filter(${texts}, lambda __v: __v IS NOT NULL)`
    }
    return walk('', this.#root, parseJsonPath(path), 0)
  }
}

/** Each distinct element once, NULL when none (the rows made from them are distinct sets: order is free). */
const distinctOrNull = (list: string): string => `nullif(list_distinct(${list}), [])`

function sourceSql(source: ValueSource, reads: TypedReads): string {
  const { transform } = source
  if (transform === 'array-length') return reads.length(source.path)
  const text = reads.text(source.path)
  if (transform === 'value') return text
  if (transform === 'letter-id') return letterIdSql(text)
  if (transform === 'path-id') return pathIdSql(text)
  if (transform === 'upper') return `upper(${text})`
  return externalIdSql(transform, text)
}

/** Whether a source of a presence column yields a value, without writing the value out as text. */
function presentSql(source: ValueSource, reads: TypedReads): string {
  if (source.transform === 'value' || source.transform === 'array-length') return reads.present(source.path)
  return `(${sourceSql(source, reads)} IS NOT NULL)`
}

function linkKeySql(link: LinkKeySpec, expr: string): string {
  if (link.transform === 'letter-id') return letterIdSql(expr, link.letter)
  if (link.transform === 'country') return `upper(${pathIdSql(expr)})`
  return pathIdSql(expr)
}

/** Every path the spec reads of a record, and whether as text (rather than for its presence or length). */
function pathsOf(spec: RecordExtractionSpec): { readonly path: string; readonly asText: boolean }[] {
  const presence = derivedColumnsOf(spec.entity).map((column) => column.kind === 'presence')
  const text = (path: string) => ({ path, asText: true })
  return [
    ...spec.derived.flatMap((sources, index) =>
      sources.map((source) => ({
        path: source.path,
        asText:
          source.transform !== 'array-length' && !(presence[index] === true && source.transform === 'value'),
      })),
    ),
    ...spec.pathColumns.flatMap((column) =>
      column.form === 'text' || column.form === 'list'
        ? [text(column.path)]
        : column.form === 'count'
          ? [{ path: column.path, asText: false }]
          : [text(`${column.path}.is_oa`), text(`${column.path}.version`)],
    ),
    ...spec.externalIds.map((source) => text(source.path)),
    ...spec.links.flatMap((link) => link.paths.map(text)),
  ]
}

/**
 * The typed columns to read of each record (`readColumns`, for read_json's `columns`) and the staged
 * columns computed from them, in the order `stageColumnsOf` lists them after the record's place and dates:
 * `derived`, the record-path columns, `external_ids` and (works) the link keys. Values are those of
 * record-extractor.ts: NULL for a record-path list or count with nothing in it, for no external id and no
 * link key.
 */
export function typedExtractionSql(spec: RecordExtractionSpec): {
  readonly readColumns: readonly (readonly [string, string])[]
  readonly columns: readonly ExtractedColumnSql[]
} {
  const reads = new TypedReads(pathsOf(spec))
  const presence = derivedColumnsOf(spec.entity).map((column) => column.kind === 'presence')
  const derived = spec.derived.map((sources, index) => {
    if (presence[index] === true)
      return `CASE WHEN ${sources.map((source) => presentSql(source, reads)).join(' OR ')} THEN ${constantLiteral(PRESENT)} END`
    const terms = sources.map((source) => sourceSql(source, reads))
    return terms.length === 1 ? terms[0]! : `coalesce(${terms.join(', ')})`
  })
  const columns: ExtractedColumnSql[] = [{ name: 'derived', sql: `[${derived.join(', ')}]::VARCHAR[]` }]

  for (const column of spec.pathColumns) {
    let sql: string
    if (column.form === 'text') sql = reads.text(column.path)
    else if (column.form === 'list') sql = `nullif(${reads.values(column.path)}, [])`
    else {
      // `$.locations[*]`: the list itself, each element counted (JSON nulls too), or each element read.
      const list = reads.list(column.path)
      if (column.form === 'count') sql = `nullif(len(${list}), 0)`
      else {
        const isOa = jsonTextSql(`__l['is_oa']`)
        const version = jsonTextSql(`__l['version']`)
        sql = `nullif(list_transform(list_filter(coalesce(${list}, []), lambda __l: ${isOa} = 'true'), lambda __l: ${version}), [])`
      }
    }
    columns.push({ name: column.name, sql })
  }

  const pairs = spec.externalIds.map(
    ({ scheme, path }) =>
      `list_transform(list_filter(list_transform(${reads.values(path)}, lambda __raw: ${externalIdSql(scheme, '__raw')}), lambda __n: __n IS NOT NULL), lambda __n: [${constantLiteral(scheme)}, __n])`,
  )
  columns.push({
    name: 'external_ids',
    sql: pairs.length === 0 ? 'NULL::VARCHAR[][]' : distinctOrNull(`list_concat(${pairs.join(', ')})`),
  })

  for (const [index, link] of spec.links.entries()) {
    const keys = link.paths.map(
      (path) =>
        `list_filter(list_transform(${reads.values(path)}, lambda __x: ${linkKeySql(link, '__x')}), lambda __k: __k IS NOT NULL)`,
    )
    columns.push({
      name: linkColumnName(index),
      sql: distinctOrNull(keys.length === 1 ? keys[0]! : `list_concat(${keys.join(', ')})`),
    })
  }
  return { readColumns: reads.columns(), columns }
}
