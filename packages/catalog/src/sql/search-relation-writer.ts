// The relations of a full-text search's plan (`planSearch`), for every SQL dialect: each node a named CTE
// `(doc, score)`, one row per matching document. How `or`, `and` and `not` combine their operands' rows is
// the same in every database and written once here; a dialect's writer says how a word, a phrase and a
// proximity read its index's tables, and the few functions that differ (a zero score, an operand's tag, the
// test that a document has every operand's).
import { estimatePostings, type NodePlan, type TokenPlan } from '../search/search-plan.ts'

// An `and` of at most this many operands tags each with a bit (a safe integer in JavaScript, a 64-bit integer
// in SQL) and keeps documents with every bit; a wider one tags each with its number and counts the distinct
// numbers, a little slower per row but still one pass over the postings (joining the operands instead made a
// 100-word search take 15 s on DuckDB, and grow faster than its words).
const MAX_TAGGED_OPERANDS = 52
// An `and` first cuts the other operands to the documents of its rarest when that is this many times rarer.
const RARER_BY = 4

export abstract class SearchRelationWriter {
  /** A named CTE of this search (`materialized` when it is read twice); returns its name. */
  abstract cte(body: string, materialized?: boolean): string
  /** The relation of every document of the index, `doc`. */
  protected abstract docsTable(): string
  /** How many postings the index's frequent terms have, for `estimatePostings`. */
  protected abstract frequentTerms(): Readonly<Record<string, number>>
  /** A score of 0 in the score's type. */
  protected abstract readonly zeroScore: string
  /** The column `k` that tags an operand's rows: its bit (`bits`) or its number, `value`. */
  protected abstract operandTag(value: number, bits: boolean): string
  /** The HAVING of the documents that have all `count` operands' tags. */
  protected abstract everyOperand(count: number, bits: boolean): string
  /** A word's relation (one row per document). */
  protected abstract word(token: TokenPlan, boost: number): string
  /** A word's `(doc, score)` rows, one per posting (a stored field of a document). */
  protected abstract wordRows(token: TokenPlan, boost: number): string
  protected abstract phrase(plan: Extract<NodePlan, { kind: 'sequence' }>): string
  protected abstract proximity(plan: Extract<NodePlan, { kind: 'proximity' }>): string

  /** A relation `(doc, score)` for a node, one row per matching document; returns its CTE name. */
  node(plan: NodePlan): string {
    switch (plan.kind) {
      case 'sequence':
        return plan.tokens.length === 1
          ? this.word(plan.tokens[0] as TokenPlan, plan.boost)
          : this.phrase(plan)
      case 'proximity':
        return this.proximity(plan)
      case 'and':
        return this.#and(plan.operands)
      case 'or': {
        if (plan.operands.length === 1) return this.node(plan.operands[0] as NodePlan)
        const parts = plan.operands.map((operand) => `SELECT doc, score FROM ${this.#rows(operand)}`)
        return this.cte(`SELECT doc, sum(score) AS score FROM (${parts.join(' UNION ALL ')}) GROUP BY doc`)
      }
      case 'not':
        return this.cte(
          `SELECT doc, ${this.zeroScore} AS score FROM ${this.docsTable()} WHERE doc NOT IN (SELECT doc FROM ${this.node(plan.operand)})`,
        )
    }
  }

  /**
   * A relation `(doc, score)` for a node whose scores add up to the node's per document, maybe in several
   * rows: for a word, one per posting, so that `and` and `or` aggregate all their operands' rows once instead
   * of each word's and then joining them.
   */
  #rows(plan: NodePlan): string {
    if (plan.kind === 'sequence' && plan.tokens.length === 1)
      return `(${this.wordRows(plan.tokens[0] as TokenPlan, plan.boost)})`
    return this.node(plan)
  }

  #and(operands: readonly NodePlan[]): string {
    const positive = operands.filter((operand) => operand.kind !== 'not')
    const negative = operands.flatMap((operand) =>
      operand.kind === 'not' ? [this.node(operand.operand)] : [],
    )
    const excluded = negative.map((name) => `doc NOT IN (SELECT doc FROM ${name})`)
    if (positive.length === 0)
      return this.cte(
        `SELECT doc, ${this.zeroScore} AS score FROM ${this.docsTable()} WHERE ${excluded.join(' AND ')}`,
      )
    const where = excluded.length > 0 ? ` WHERE ${excluded.join(' AND ')}` : ''
    if (positive.length === 1)
      return this.cte(`SELECT doc, score FROM ${this.node(positive[0] as NodePlan)}${where}`)
    // Every operand's rows, tagged with the operand's bit (or number); a document matches when it has every
    // operand's. When one operand is much rarer than another, the others' rows are first cut to its documents,
    // so that the postings of a frequent word are only read, not scored and aggregated.
    const bits = positive.length <= MAX_TAGGED_OPERANDS
    const frequent = this.frequentTerms()
    const estimates = positive.map((operand) => estimatePostings(operand, frequent))
    const rarest = estimates.indexOf(Math.min(...estimates))
    const driver =
      (estimates[rarest] ?? 0) * RARER_BY < Math.max(...estimates)
        ? this.cte(`SELECT doc, score FROM ${this.#rows(positive[rarest] as NodePlan)}`, true)
        : undefined
    const parts = positive.map((operand, i) => {
      const tag = this.operandTag(bits ? 2 ** i : i, bits)
      if (driver === undefined) return `SELECT doc, score, ${tag} FROM ${this.#rows(operand)}`
      return i === rarest
        ? `SELECT doc, score, ${tag} FROM ${driver}`
        : `SELECT doc, score, ${tag} FROM ${this.#rows(operand)} WHERE doc IN (SELECT doc FROM ${driver})`
    })
    return this.cte(
      `SELECT doc, sum(score) AS score FROM (${parts.join(' UNION ALL ')})${where} GROUP BY doc HAVING ${this.everyOperand(positive.length, bits)}`,
    )
  }
}
