// A full-text search over the catalog's search index in ClickHouse (`clickhouse-search-tables.ts`): an index
// query, planned into index terms by the DuckDB adapter's planner (one tokenizer, stemmer and set of rules
// for both engines), written as ClickHouse SQL returning `(id, score)`, one row per matching record, scored
// as `@oqlkit/adapter-duckdb`'s `compileSearch` scores (the catalog's search README): BM25 per posting from its
// `tf` and `len` and the dictionary's `df`, weighted per stored field of the search field; a phrase or proximity group as one term whose
// idf is the sum of its words'; a wildcard's expansions as one term; `and` adds its operands' scores, `or`
// those that match, `not` gives 0. Several queries of one entity, field and mode (the searches of an OR of
// filters on one column, `search=a|b|…`) are compiled as their `or`: one aggregate over all their rows.
//
// Every value from the query (terms, patterns, boosts, windows) and every collection statistic is a query
// parameter; the SQL text written here is names of this package's CTEs and tables, stored-field codes and
// weights from the index's allow-list, and integer constants.
import {
  BM25_B,
  BM25_K1,
  type CatalogEntity,
  type CatalogSearchQuery,
  MAX_WILDCARD_EXPANSIONS,
  type NodePlan,
  planAnySearch,
  type SearchMode,
  SearchRelationWriter,
  type SequencePlan,
  STORED_FIELDS,
  type TokenPlan,
  type WeightedField,
} from '@oqlkit/catalog'
import { type FilterContext, tableOf } from './clickhouse-filter-compiler.ts'
import { type SearchTableKind, searchTableName } from './clickhouse-search-tables.ts'

export type CompiledClickHouseSearch =
  | {
      readonly ok: true
      /** CTEs (`name AS (…)`) the relation reads, for the statement's WITH clause, in order. */
      readonly ctes: readonly string[]
      /** `SELECT id, score …` over those CTEs. */
      readonly select: string
    }
  | {
      readonly ok: false
      readonly problems: readonly { readonly message: string; readonly path: readonly number[] }[]
    }

/** Starts the message of a statement failed by a wildcard past its limit (see `expansionLimitOfClickHouse`). */
const EXPANSION_LIMIT_MARKER = 'oqlkit search limit: '
// ClickHouse drops a message's last full stop when it adds where the error happened; the end is found without.
const EXPANSION_LIMIT_END = ' Write more letters before the wildcard'

/** The message for the user of a statement failed by a wildcard that matched too many terms, or undefined. */
export const expansionLimitOfClickHouse = (error: unknown): string | undefined => {
  if (!(error instanceof Error)) return undefined
  const at = error.message.indexOf(EXPANSION_LIMIT_MARKER)
  if (at === -1) return undefined
  const end = error.message.indexOf(EXPANSION_LIMIT_END, at)
  if (end === -1) return error.message.slice(at + EXPANSION_LIMIT_MARKER.length)
  return `${error.message.slice(at + EXPANSION_LIMIT_MARKER.length, end + EXPANSION_LIMIT_END.length)}.`
}

export interface ClickHouseSearchOptions {
  /** The served version, and the statement's parameters the search adds its own to. */
  readonly context: FilterContext
  /** The query's entity's index, from the catalog's manifest. */
  readonly index: CatalogSearchQuery['index']
  /** Names of this search's CTEs start with it, so several searches share one WITH clause. */
  readonly prefix: string
  /** The most index terms a wildcard may stand for (default `MAX_WILDCARD_EXPANSIONS`). */
  readonly maxWildcardExpansions?: number
}

type IndexQuery = CatalogSearchQuery['query']

/**
 * The `(id, score)` relation of an index query, or of the records matching any of several (one entity, field
 * and mode; scored by the sum of those they match, each checked alone), or the problems that keep it from
 * running (a problem's path starts with its query's number when there are several).
 */
export const compileClickHouseSearch = (
  query: IndexQuery | readonly IndexQuery[],
  options: ClickHouseSearchOptions,
): CompiledClickHouseSearch => {
  const queries: readonly IndexQuery[] = isQueryList(query) ? query : [query]
  const planned = planAnySearch(queries)
  if (!planned.ok) return planned
  const { entity, mode } = queries[0]!
  const emitter = new SearchEmitter(entity, mode, planned.plan.fields, options)
  const root = emitter.node(planned.plan.root)
  const letter = options.index.idPrefix
  // Documents numbered by their id need no lookup to become ids again.
  const select =
    letter === null
      ? `SELECT d.id AS id, r.score AS score FROM ${root} AS r INNER JOIN ${emitter.table('docs')} AS d ON d.doc = r.doc`
      : `SELECT concat(${emitter.param(letter, 'String')}, toString(r.doc)) AS id, r.score AS score FROM ${root} AS r`
  return { ok: true, ctes: emitter.ctes, select }
}

const isQueryList = (query: IndexQuery | readonly IndexQuery[]): query is readonly IndexQuery[] =>
  Array.isArray(query)

const integer = (value: number): string => {
  if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`)
  return String(value)
}

const weightLiteral = (value: number): string => {
  if (!Number.isFinite(value)) throw new Error(`not a finite weight: ${value}`)
  return `toFloat64(${value})`
}

class SearchEmitter extends SearchRelationWriter {
  readonly ctes: string[] = []
  readonly #entity: CatalogEntity
  readonly #mode: SearchMode
  readonly #fields: readonly WeightedField[]
  readonly #options: ClickHouseSearchOptions
  readonly #shared = new Map<string, string>()

  constructor(
    entity: CatalogEntity,
    mode: SearchMode,
    fields: readonly WeightedField[],
    options: ClickHouseSearchOptions,
  ) {
    super()
    this.#entity = entity
    this.#mode = mode
    this.#fields = fields
    this.#options = options
  }

  param(value: string | number, type: 'String' | 'Float64' | 'Int64'): string {
    return this.#options.context.params.add(value, type)
  }

  /** One parameter per statistic, however often the SQL uses it. */
  #sharedParam(key: string, value: number): string {
    let param = this.#shared.get(key)
    if (param === undefined) {
      param = this.param(value, 'Float64')
      this.#shared.set(key, param)
    }
    return param
  }

  table(kind: 'docs' | 'postings' | 'terms'): string {
    const name: SearchTableKind = kind === 'docs' ? 'docs' : `${this.#mode}_${kind}`
    return tableOf(this.#options.context, searchTableName(this.#entity, name))
  }

  /** A named CTE of this search; returns its name. */
  override cte(body: string): string {
    const name = `${this.#options.prefix}_${this.ctes.length}`
    this.ctes.push(`${name} AS (${body})`)
    return name
  }

  get #fieldCodes(): string {
    return this.#fields.map(({ field }) => integer(STORED_FIELDS[field].code)).join(', ')
  }

  /** A value per stored field of the search field, by the row's `x.field`. */
  #perField(value: (field: WeightedField) => string): string {
    const cases = this.#fields.flatMap((field) => [
      `x.field = ${integer(STORED_FIELDS[field.field].code)}`,
      value(field),
    ])
    return `multiIf(${cases.join(', ')}, toFloat64(0))`
  }

  get #weight(): string {
    return this.#perField(({ weight }) => weightLiteral(weight))
  }

  /** A collection statistic of each stored field (documents with the field, average length), bound. */
  #statistic(name: 'docs' | 'avgLength'): string {
    return this.#perField(({ field }) => {
      const stats = this.#options.index.fields.find((stat) => stat.name === field)
      return this.#sharedParam(`${name}/${field}`, stats?.[name] ?? 0)
    })
  }

  protected override readonly zeroScore = 'toFloat64(0)'

  protected override docsTable(): string {
    return this.table('docs')
  }

  protected override frequentTerms(): Readonly<Record<string, number>> {
    return this.#options.index.files[this.#mode].frequent
  }

  protected override operandTag(value: number): string {
    return `toUInt64(${integer(value)}) AS k`
  }

  protected override everyOperand(count: number, bits: boolean): string {
    return bits ? `groupBitOr(k) = ${integer(2 ** count - 1)}` : `uniqExact(k) = ${integer(count)}`
  }

  /**
   * The postings of one token in the search field's stored fields, `(doc, field, tf, len, positions, idf)`,
   * the idf from the term dictionary's document frequency; a wildcard's expansions merged as one term.
   */
  #token(token: TokenPlan): string {
    const fields = `field IN (${this.#fieldCodes})`
    const idf = `log(1 + (${this.#statistic('docs')} - x.df + 0.5) / (x.df + 0.5))`
    if (token.kind === 'term') {
      const term = this.param(token.term, 'String')
      const df = this.cte(
        `SELECT x.field AS field, ${idf} AS idf FROM ${this.table('terms')} AS x WHERE x.term = ${term} AND x.${fields}`,
      )
      return this.cte(
        `SELECT p.doc AS doc, p.field AS field, p.tf AS tf, p.len AS len, p.positions AS positions, t.idf AS idf FROM ${this.table('postings')} AS p INNER JOIN ${df} AS t ON t.field = p.field WHERE p.term = ${term} AND p.${fields}`,
      )
    }
    const range = `term >= ${this.param(token.low, 'String')} AND term < ${this.param(token.high, 'String')} AND ${fields}`
    const matching = `SELECT DISTINCT term FROM ${this.table('terms')} WHERE ${range} AND term LIKE ${this.param(token.like, 'String')}`
    const max = this.#options.maxWildcardExpansions ?? MAX_WILDCARD_EXPANSIONS
    // Past its limit a wildcard fails the statement (`throwIf`), with a message `expansionLimitOfClickHouse`
    // reads back: how many terms match is known only once the dictionary is read.
    const tooMany = this.param(
      `${EXPANSION_LIMIT_MARKER}${JSON.stringify(token.text)} matches more than ${max} words of the index; a wildcard may stand for at most ${max}.${EXPANSION_LIMIT_END}.`,
      'String',
    )
    const expansions = `SELECT term FROM (${matching}) WHERE throwIf((SELECT count() FROM (${matching})) > ${integer(max)}, ${tooMany}) = 0`
    const rows = this.cte(
      `SELECT doc, field, toUInt32(sum(tf)) AS tf, any(len) AS len, arraySort(arrayFlatten(groupArray(positions))) AS positions FROM ${this.table('postings')} WHERE ${range} AND term IN (${expansions}) GROUP BY doc, field`,
    )
    return this.cte(
      `SELECT x.doc AS doc, x.field AS field, x.tf AS tf, x.len AS len, x.positions AS positions, ${idf} AS idf FROM (SELECT doc, field, tf, len, positions, count() OVER (PARTITION BY field) AS df FROM ${rows}) AS x`,
    )
  }

  protected override word(token: TokenPlan, boost: number): string {
    return this.cte(`SELECT doc, sum(score) AS score FROM (${this.wordRows(token, boost)}) GROUP BY doc`)
  }

  /**
   * A word's weighted BM25 per posting, `(doc, score)`, scored from `tf`, `len` and the dictionary's `df` (the
   * index stores no score); a wildcard's expansions as one term.
   */
  protected override wordRows(token: TokenPlan, boost: number): string {
    const rows = this.#token(token)
    return this.#scoreRows(`SELECT doc, field, tf, len, idf FROM ${rows}`, boost)
  }

  /** BM25 of each row `(doc, field, tf, len, idf)`, weighted per stored field: `(doc, score)` rows. */
  #scoreRows(rows: string, boost: number): string {
    const boosted = boost === 1 ? '' : ` * ${this.param(boost, 'Float64')}`
    const k1 = weightLiteral(BM25_K1)
    const b = weightLiteral(BM25_B)
    const norm = `${k1} * (1 - ${b} + ${b} * x.len / ${this.#statistic('avgLength')})`
    return `SELECT x.doc AS doc, ${this.#weight} * x.idf * x.tf * (${k1} + 1) / (x.tf + ${norm})${boosted} AS score FROM (${rows}) AS x WHERE x.tf > 0`
  }

  #bm25(rows: string, boost: number): string {
    return this.cte(`SELECT doc, sum(score) AS score FROM (${this.#scoreRows(rows, boost)}) GROUP BY doc`)
  }

  /** Matches of adjacent tokens: `(doc, field, len, idf, starts)`, the first token's positions the rest follow. */
  #sequenceStarts(tokens: SequencePlan): string {
    const names = tokens.map((token) => this.#token(token))
    const [first, ...rest] = names as [string, ...string[]]
    if (rest.length === 0) return this.cte(`SELECT doc, field, len, idf, positions AS starts FROM ${first}`)
    const joins = rest
      .map(
        (name, i) =>
          ` INNER JOIN ${name} AS t${i + 1} ON t${i + 1}.doc = t0.doc AND t${i + 1}.field = t0.field`,
      )
      .join('')
    const follows = rest.map((_, i) => `has(t${i + 1}.positions, p + ${integer(i + 1)})`).join(' AND ')
    const idf = ['t0.idf', ...rest.map((_, i) => `t${i + 1}.idf`)].join(' + ')
    return this.cte(
      `SELECT t0.doc AS doc, t0.field AS field, t0.len AS len, ${idf} AS idf, arrayFilter(p -> ${follows}, t0.positions) AS starts FROM ${first} AS t0${joins}`,
    )
  }

  protected override phrase(plan: Extract<NodePlan, { kind: 'sequence' }>): string {
    const starts = this.#sequenceStarts(plan.tokens)
    return this.#bm25(`SELECT doc, field, length(starts) AS tf, len, idf FROM ${starts}`, plan.boost)
  }

  /**
   * Windows holding every operand without overlaps and with at most `within` uncovered positions; a
   * document's frequency is its number of distinct window starts.
   */
  protected override proximity(plan: Extract<NodePlan, { kind: 'proximity' }>): string {
    const within = this.param(plan.within, 'Int64')
    const widths = plan.operands.map((operand) => operand.length)
    const operands = plan.operands.map((operand) => this.#sequenceStarts(operand))
    const unnested = operands.map(
      (name, i) => `(SELECT doc, field, len, idf, toInt64(arrayJoin(starts)) AS s FROM ${name}) AS o${i}`,
    )
    const covered = integer(widths.reduce((total, width) => total + width, 0))
    const conditions: string[] = []
    for (let i = 0; i < widths.length; i++) {
      for (let j = i + 1; j < widths.length; j++) {
        const [a, b] = [`o${i}.s`, `o${j}.s`]
        conditions.push(`(${a} + ${integer(widths[i]!)} <= ${b} OR ${b} + ${integer(widths[j]!)} <= ${a})`)
        conditions.push(`${b} BETWEEN ${a} - ${covered} - ${within} AND ${a} + ${covered} + ${within}`)
      }
    }
    const ends = widths.map((width, i) => `o${i}.s + ${integer(width)}`)
    const starts = widths.map((_, i) => `o${i}.s`)
    const extreme = (name: 'greatest' | 'least', values: readonly string[]) =>
      values.length === 1 ? values[0]! : `${name}(${values.join(', ')})`
    conditions.push(`${extreme('greatest', ends)} - ${extreme('least', starts)} - ${covered} <= ${within}`)
    const joins = unnested
      .slice(1)
      .map(
        (relation, i) => ` INNER JOIN ${relation} ON o${i + 1}.doc = o0.doc AND o${i + 1}.field = o0.field`,
      )
      .join('')
    const idf = widths.map((_, i) => `o${i}.idf`).join(' + ')
    const windows = this.cte(
      `SELECT o0.doc AS doc, o0.field AS field, any(o0.len) AS len, any(${idf}) AS idf, uniqExact(${extreme('least', starts)}) AS tf FROM ${unnested[0]}${joins} WHERE ${conditions.join(' AND ')} GROUP BY o0.doc, o0.field`,
    )
    return this.#bm25(`SELECT doc, field, tf, len, idf FROM ${windows}`, plan.boost)
  }
}
