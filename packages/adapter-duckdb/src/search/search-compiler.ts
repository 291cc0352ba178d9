// `compileSearch`: a `SearchQuery` → one DuckDB SELECT returning `(id, score)` (or `(doc, score)`, see
// `output`), one row per matching record of the entity, with a BM25 score (k1 1.2, b 0.75). Use it as a
// subquery: `WHERE id IN (SELECT id FROM (…))` to filter, or `JOIN (…) s USING (id) ORDER BY s.score DESC`
// to sort by relevance. Given several queries of one entity, field and mode (the searches of an OR of filters,
// `search=a|b|…`), it returns their `or`: one aggregate over all their rows, as an `and` is.
//
// Everything that comes from the query (terms, patterns, boosts, the proximity window) and every file path is
// a bound parameter. The only text spliced into the SQL is this package's: CTE names it numbers itself,
// stored-field codes and weights from the allow-list in `search-fields.ts`, and integer constants.
//
// Scoring. Every term scores per stored field with BM25 (idf from that field's document frequency, length
// normalised by that field's average length), times the field's weight in the search field, summed over
// the fields: `title_and_abstract` is title × 1 + abstract × 0.1, the cross-field weighting of the API's works
// search. A phrase or proximity group scores as one term whose frequency is its number of matches and whose
// idf is the sum of its words' (Lucene's phrase scoring); a wildcard as one term whose documents are those
// of any expansion. `and` adds its operands' scores, `or` adds those of the operands that match, `not` gives 0.
// The API multiplies relevance by a citation boost (1 + sqrt(cited_by_count)); that needs the entity table,
// so the caller applies it.
import { join } from 'node:path'
import { type DuckDBValue, listValue } from '@duckdb/node-api'
import type { SearchProblem, SearchQuery } from '@oqlkit/catalog'
import {
  BM25_B,
  BM25_K1,
  MAX_WILDCARD_EXPANSIONS,
  type NodePlan,
  planAnySearch,
  postingsFilesOf,
  type SearchEntityIndex,
  type SearchFieldStats,
  type SearchMode,
  SearchRelationWriter,
  type SequencePlan,
  STORED_FIELDS,
  sqlInteger,
  type TokenPlan,
  type WeightedField,
} from '@oqlkit/catalog'

export interface CompileSearchOptions {
  /** The catalog folder; the index files are read from its `search/` folder. */
  readonly catalogDir: string
  /** The index of the query's entity (`catalog.json` `extensions.search.entities`): its files and statistics. */
  readonly index: SearchEntityIndex
  /** The number of the first `$n` parameter, when the SQL is embedded after the caller's own (default 1). */
  readonly firstParam?: number
  /**
   * What the rows name their records by: `id` (default), or `doc`, the number an index numbered by id gives a
   * record (the number in its id), which joins to a column of integers where the id's text would not.
   */
  readonly output?: 'id' | 'doc'
  /** The most index terms a wildcard may stand for (default `MAX_WILDCARD_EXPANSIONS`). */
  readonly maxWildcardExpansions?: number
}

export type CompiledSearch =
  | { readonly ok: true; readonly sql: string; readonly params: readonly DuckDBValue[] }
  | { readonly ok: false; readonly problems: readonly SearchProblem[] }

/**
 * The SQL of a search; of several (one entity, field and mode), the SQL of the documents matching any of them,
 * scored by the sum of those they match, each query checked alone (`planAnySearch`).
 */
export function compileSearch(
  query: SearchQuery | readonly SearchQuery[],
  options: CompileSearchOptions,
): CompiledSearch {
  const queries: readonly SearchQuery[] = isQueryList(query) ? query : [query]
  const planned = planAnySearch(queries)
  if (!planned.ok) return planned
  const emitter = new SqlEmitter((queries[0] as SearchQuery).mode, planned.plan.fields, options)
  const root = emitter.node(planned.plan.root)
  const prefix = options.index.idPrefix
  if (options.output === 'doc' && prefix === null)
    throw new Error('Search rows can be numbered by id only over an index numbered by id')
  // Documents numbered by their id need no lookup to become ids again.
  const select =
    options.output === 'doc'
      ? `SELECT r.doc, r.score FROM ${root} r`
      : prefix === null
        ? `SELECT d.id, r.score FROM ${root} r JOIN ${emitter.file('docs')} d USING (doc)`
        : `SELECT ${emitter.param(prefix)} || CAST(r.doc AS VARCHAR) AS id, r.score FROM ${root} r`
  return { ok: true, sql: `WITH ${emitter.ctes.join(',\n')}\n${select}`, params: emitter.params }
}

const isQueryList = (query: SearchQuery | readonly SearchQuery[]): query is readonly SearchQuery[] =>
  Array.isArray(query)

/** Starts the message of a statement failed by a wildcard past `MAX_WILDCARD_EXPANSIONS`. */
const EXPANSION_LIMIT_MARKER = 'oqlkit search limit: '

/**
 * The message for the user of an error a search statement failed with because a wildcard matched too many
 * terms, or undefined for any other error.
 */
export function expansionLimitOf(error: unknown): string | undefined {
  if (!(error instanceof Error)) return undefined
  const at = error.message.indexOf(EXPANSION_LIMIT_MARKER)
  return at === -1 ? undefined : error.message.slice(at + EXPANSION_LIMIT_MARKER.length)
}

// DOUBLE, not DECIMAL literals: DuckDB's DECIMAL arithmetic per posting is several times slower.
const K1 = `CAST(${BM25_K1} AS DOUBLE)`
const B = `CAST(${BM25_B} AS DOUBLE)`

type IndexFile = 'docs' | 'terms'

class SqlEmitter extends SearchRelationWriter {
  readonly ctes: string[] = []
  readonly params: DuckDBValue[] = []
  readonly #mode: SearchMode
  readonly #fields: readonly WeightedField[]
  readonly #catalogDir: string
  readonly #index: SearchEntityIndex
  readonly #firstParam: number
  readonly #maxExpansions: number
  readonly #shared = new Map<string, string>()

  constructor(mode: SearchMode, fields: readonly WeightedField[], options: CompileSearchOptions) {
    super()
    this.#mode = mode
    this.#fields = fields
    this.#catalogDir = options.catalogDir
    this.#index = options.index
    this.#firstParam = options.firstParam ?? 1
    this.#maxExpansions = options.maxWildcardExpansions ?? MAX_WILDCARD_EXPANSIONS
    if (!Number.isSafeInteger(this.#firstParam) || this.#firstParam < 1) {
      throw new Error(`firstParam must be a positive integer, got ${this.#firstParam}`)
    }
  }

  param(value: DuckDBValue): string {
    this.params.push(value)
    return `$${this.#firstParam + this.params.length - 1}`
  }

  /** One parameter per distinct value of a kind (a file, a statistic), however often the SQL uses it. */
  #sharedParam(key: string, value: () => DuckDBValue): string {
    let param = this.#shared.get(key)
    if (param === undefined) {
      param = this.param(value())
      this.#shared.set(key, param)
    }
    return param
  }

  #path(path: string): string {
    return join(this.#catalogDir, ...path.split('/'))
  }

  /** `read_parquet($n)` of an index file. */
  file(kind: IndexFile, mode: SearchMode = this.#mode): string {
    const files = this.#index.files
    const path = kind === 'docs' ? files.docs : files[mode].terms
    return `read_parquet(${this.#sharedParam(`file/${path}`, () => this.#path(path))})`
  }

  /**
   * The postings of `term` (or of every term in `[term, high)`): `read_parquet($n)` of the buckets that hold
   * it; after an update, those buckets' rows whose document is not masked and the mode's delta file's.
   */
  #postings(term: string, high?: string): string {
    const paths = postingsFilesOf(this.#index.files[this.#mode], term, high)
    const param = this.#sharedParam(`postings/${paths.join('|')}`, () =>
      listValue(paths.map((path) => this.#path(path))),
    )
    const delta = this.#index.delta
    if (delta === undefined) return `read_parquet(${param})`
    const columns = 'term, field, doc, tf, len, positions'
    const masked = this.#sharedParam(`file/${delta.masked}`, () => this.#path(delta.masked))
    const added = this.#sharedParam(`file/${delta[this.#mode]}`, () => this.#path(delta[this.#mode]))
    return `(SELECT ${columns} FROM read_parquet(${param}) WHERE doc NOT IN (SELECT doc FROM read_parquet(${masked})) UNION ALL SELECT ${columns} FROM read_parquet(${added}))`
  }

  /** A named CTE; `materialized` when it is read twice, so DuckDB does not run it twice. */
  override cte(body: string, materialized = false): string {
    const name = `s${this.ctes.length}`
    this.ctes.push(`${name} AS ${materialized ? 'MATERIALIZED ' : ''}(\n${body}\n)`)
    return name
  }

  get #fieldCodes(): string {
    return this.#fields.map(({ field }) => sqlInteger(STORED_FIELDS[field].code)).join(', ')
  }

  /** `CASE x.field WHEN 0 THEN … END`: a value per stored field of the search field. */
  #perField(value: (field: WeightedField) => string): string {
    const cases = this.#fields.map(
      (field) => `WHEN ${sqlInteger(STORED_FIELDS[field.field].code)} THEN ${value(field)}`,
    )
    return `CASE x.field ${cases.join(' ')} END`
  }

  /** The weight of each stored field in the search field. */
  get #weight(): string {
    return this.#perField(({ weight }) => numberLiteral(weight))
  }

  /** A collection statistic of each stored field (documents with the field, average length), bound. */
  #statistic(name: 'docs' | 'avgLength'): string {
    return this.#perField(({ field }) => {
      const stats: SearchFieldStats | undefined = this.#index.fields.find((stat) => stat.name === field)
      return this.#sharedParam(`${name}/${field}`, () => stats?.[name] ?? 0)
    })
  }

  protected override readonly zeroScore = 'CAST(0 AS DOUBLE)'

  protected override docsTable(): string {
    return this.file('docs')
  }

  protected override frequentTerms(): Readonly<Record<string, number>> {
    return this.#index.files[this.#mode].frequent
  }

  protected override operandTag(value: number, bits: boolean): string {
    return bits ? `CAST(${sqlInteger(value)} AS BIGINT) AS k` : `${sqlInteger(value)} AS k`
  }

  protected override everyOperand(count: number, bits: boolean): string {
    return bits ? `bit_or(k) = ${sqlInteger(2 ** count - 1)}` : `count(DISTINCT k) = ${sqlInteger(count)}`
  }

  /**
   * The postings of one token in the search field's stored fields: `(doc, field, tf, len, idf[, positions])`.
   * A term's document frequency comes from the term dictionary. A wildcard reads the dictionary for the
   * terms in its prefix range that match the pattern, then only that range of the postings; its expansions
   * count as one term, whose documents are those of any expansion.
   */
  #token(token: TokenPlan, withPositions: boolean): string {
    const postings =
      token.kind === 'term' ? this.#postings(token.term) : this.#postings(token.low, token.high)
    const fields = `field IN (${this.#fieldCodes})`
    const idf = `ln(1 + (${this.#statistic('docs')} - x.df + 0.5) / (x.df + 0.5))`
    if (token.kind === 'term') {
      const term = this.param(token.term)
      const positions = withPositions ? ', p.positions' : ''
      // The term's idf in each stored field, looked up in the dictionary by the term (its row groups' zone
      // maps find it) as one row beside every posting. Over 20 branches of the commonest word of 100k works,
      // 1 ms a branch more than reading stored scores; joining a CTE of every term's idf on (term, field)
      // cost 3-4 ms a branch, materialized or not.
      const codes = this.#fields.map(({ field }) => sqlInteger(STORED_FIELDS[field].code))
      const perField = codes
        .map((code) => `max(${idf}) FILTER (WHERE x.field = ${code}) AS i${code}`)
        .join(', ')
      const idfOfRow = `CASE p.field ${codes.map((code) => `WHEN ${code} THEN t.i${code}`).join(' ')} END`
      return this.cte(
        `SELECT p.doc, p.field, p.tf, p.len${positions}, ${idfOfRow} AS idf FROM ${postings} p, (SELECT ${perField} FROM ${this.file('terms')} x WHERE x.term = ${term} AND x.${fields}) t WHERE p.term = ${term} AND p.${fields}`,
      )
    }
    const range = `term >= ${this.param(token.low)} AND term < ${this.param(token.high)} AND ${fields}`
    // Past its limit a wildcard fails the statement with DuckDB's error(), whose message `expansionLimitOf`
    // reads back: how many terms match is known only once the dictionary is read.
    const matching = `SELECT DISTINCT term FROM ${this.file('terms')} WHERE ${range} AND term LIKE ${this.param(token.like)} ESCAPE '\\'`
    const max = this.#maxExpansions
    const tooMany = this.param(
      `${EXPANSION_LIMIT_MARKER}${JSON.stringify(token.text)} matches more than ${max} words of the index; a wildcard may stand for at most ${max}. Write more letters before the wildcard.`,
    )
    const limit = sqlInteger(max)
    const expansions = `SELECT term FROM (SELECT term, count(*) OVER () AS n FROM (${matching})) WHERE CASE WHEN n > ${limit} THEN CAST(error(${tooMany}) AS BOOLEAN) ELSE TRUE END`
    const merged = withPositions ? ', list_sort(flatten(list(positions))) AS positions' : ''
    const rows = this.cte(
      `SELECT doc, field, CAST(sum(tf) AS UINTEGER) AS tf, any_value(len) AS len${merged} FROM ${postings} WHERE ${range} AND term IN (${expansions}) GROUP BY doc, field`,
      true,
    )
    return this.cte(
      `SELECT x.*, ${idf} AS idf FROM (SELECT *, count(*) OVER (PARTITION BY field) AS df FROM ${rows}) x`,
    )
  }

  protected override word(token: TokenPlan, boost: number): string {
    return this.cte(`SELECT doc, sum(score) AS score FROM (${this.wordRows(token, boost)}) GROUP BY doc`)
  }

  /**
   * A word's weighted BM25 per posting, `(doc, score)`, scored here from the postings' `tf` and `len` and the
   * dictionary's `df` (the index stores no score, so an update that changes the collection's statistics
   * need not rewrite every posting); a wildcard's expansions count as one term.
   */
  protected override wordRows(token: TokenPlan, boost: number): string {
    const rows = this.#token(token, false)
    return this.#scoreRows(`SELECT t.doc, t.field, t.tf, t.len, t.idf FROM ${rows} t`, boost)
  }

  /** BM25 of each row `(doc, field, tf, len, idf)`, weighted per stored field: `(doc, score)` rows. */
  #scoreRows(rows: string, boost: number): string {
    const boosted = boost === 1 ? '' : ` * ${this.param(boost)}`
    const norm = `${K1} * (1 - ${B} + ${B} * x.len / ${this.#statistic('avgLength')})`
    return `SELECT x.doc, ${this.#weight} * x.idf * x.tf * (${K1} + 1) / (x.tf + ${norm})${boosted} AS score FROM (${rows}) x WHERE x.tf > 0`
  }

  /** BM25 of rows `(doc, field, tf, len, idf)`, weighted per stored field and summed per document. */
  #bm25(rows: string, boost: number): string {
    return this.cte(`SELECT doc, sum(score) AS score FROM (${this.#scoreRows(rows, boost)}) GROUP BY doc`)
  }

  /**
   * Matches of adjacent tokens: `(doc, field, len, idf, starts)`, `starts` the positions of the first token
   * where the others follow. Only documents with every token are looked at.
   */
  #sequenceStarts(tokens: SequencePlan): string {
    const names = tokens.map((token) => this.#token(token, true))
    const [first, ...rest] = names as [string, ...string[]]
    if (rest.length === 0) {
      return this.cte(`SELECT doc, field, len, idf, positions AS starts FROM ${first}`)
    }
    const joins = rest.map((name, i) => ` JOIN ${name} t${i + 1} USING (doc, field)`).join('')
    const follows = rest
      .map((_, i) => `list_contains(t${i + 1}.positions, p + ${sqlInteger(i + 1)})`)
      .join(' AND ')
    const idf = ['t0.idf', ...rest.map((_, i) => `t${i + 1}.idf`)].join(' + ')
    return this.cte(
      `SELECT doc, field, t0.len, ${idf} AS idf, list_filter(t0.positions, lambda p: ${follows}) AS starts FROM ${first} t0${joins}`,
    )
  }

  protected override phrase(plan: Extract<NodePlan, { kind: 'sequence' }>): string {
    const starts = this.#sequenceStarts(plan.tokens)
    return this.#bm25(`SELECT doc, field, len(starts) AS tf, len, idf FROM ${starts}`, plan.boost)
  }

  /**
   * Windows holding every operand without overlaps and with at most `within` uncovered positions. Operands
   * are joined per document on their unnested start positions, pruned pairwise by the widest possible
   * distance; a document's frequency is its number of distinct window starts.
   */
  protected override proximity(plan: Extract<NodePlan, { kind: 'proximity' }>): string {
    const within = this.param(plan.within)
    const widths = plan.operands.map((operand) => operand.length)
    const operands = plan.operands.map((operand) => this.#sequenceStarts(operand))
    const unnested = operands.map(
      (name, i) => `(SELECT doc, field, len, idf, unnest(starts) AS s FROM ${name}) o${i}`,
    )
    const covered = sqlInteger(widths.reduce((total, width) => total + width, 0))
    const conditions: string[] = []
    for (let i = 0; i < widths.length; i++) {
      for (let j = i + 1; j < widths.length; j++) {
        const [a, b] = [`o${i}.s`, `o${j}.s`]
        conditions.push(
          `(${a} + ${sqlInteger(widths[i] ?? 1)} <= ${b} OR ${b} + ${sqlInteger(widths[j] ?? 1)} <= ${a})`,
        )
        // Two operands of one window are at most all gaps and all operands apart: lets the join prune early.
        conditions.push(`${b} BETWEEN ${a} - ${covered} - ${within} AND ${a} + ${covered} + ${within}`)
      }
    }
    const ends = widths.map((width, i) => `o${i}.s + ${sqlInteger(width)}`).join(', ')
    const starts = widths.map((_, i) => `o${i}.s`).join(', ')
    conditions.push(`greatest(${ends}) - least(${starts}) - ${covered} <= ${within}`)
    const joins = unnested
      .slice(1)
      .map((relation) => ` JOIN ${relation} USING (doc, field)`)
      .join('')
    const idf = widths.map((_, i) => `o${i}.idf`).join(' + ')
    const windows = this.cte(
      `SELECT doc, field, any_value(o0.len) AS len, any_value(${idf}) AS idf, count(DISTINCT least(${starts})) AS tf FROM ${unnested[0]}${joins} WHERE ${conditions.join(' AND ')} GROUP BY doc, field`,
    )
    return this.#bm25(`SELECT doc, field, tf, len, idf FROM ${windows}`, plan.boost)
  }
}

function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite weight: ${value}`)
  return `CAST(${value} AS DOUBLE)`
}
