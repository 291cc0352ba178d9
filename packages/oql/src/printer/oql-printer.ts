import { type EntityType, type Filter, type Oqo, resolveEntityType } from '@oqlkit/oqo-schema'
import { fieldWordFor } from '../fields/field-words.ts'
import { type ConditionNode, conditionsOf, type Join, type NameLookup } from './clause-tree.ts'
import {
  type LayoutContext,
  type Line,
  layoutCondition,
  pushCondition,
  pushConnective,
  TokenRun,
  tokensText,
} from './oql-layout.ts'
import { type OqlRenderTree, type OqlToken, renderTreeText, SPACE } from './oql-tokens.ts'
import { valueWord } from './value-text.ts'

// OQO → canonical OQL text (OQL v2.2 §4). Give it a canonical OQO (`canonicalizeOqo`); the corpus
// prints the sorted canonical form. Printing never fails: whatever a valid OQO holds has a text.

export interface PrintOqlOptions {
  /** The line width the layout fills (80 by default); `Infinity` prints one line. */
  readonly width?: number
  /**
   * Display names for the `[annotation]` after ids of named entities (institutions, countries, …).
   * Without it nothing is annotated; when it returns undefined the id reads `[no entity found]`.
   */
  readonly names?: NameLookup
}

export const DEFAULT_WIDTH = 80

const CORPUS_PHRASES: Readonly<Record<string, string>> = {
  all: '(all corpora)',
  expansion: '(expansion corpus)',
}

const keyword = (text: string): OqlToken => ({ text, role: 'keyword' })

/** A lone OR at the top prints without parentheses: `works where a or b`. */
const topLevel = (nodes: ConditionNode[]): { nodes: readonly ConditionNode[]; join: Join; path: string } => {
  const only = nodes[0]
  if (nodes.length === 1 && only?.kind === 'group' && !only.negated)
    return { nodes: only.children, join: only.join, path: only.path }
  return { nodes, join: 'and', path: '/filter_rows' }
}

const headerTokens = (oqo: Oqo, entity: string): OqlToken[] => {
  const corpus = oqo.corpus === undefined ? undefined : CORPUS_PHRASES[oqo.corpus]
  const tokens: OqlToken[] = [{ text: entity, role: 'entity', path: '/get_rows' }]
  if (corpus !== undefined) tokens.push(SPACE, { text: corpus, role: 'corpus', path: '/corpus' })
  return tokens
}

const directiveLines = (oqo: Oqo, entity: EntityType): OqlToken[][] => {
  const lines: OqlToken[][] = []
  const groupBy = oqo.group_by ?? []
  if (groupBy.length > 0) {
    const tokens: OqlToken[] = [keyword('group by'), SPACE]
    groupBy.forEach(({ column_id }, index) => {
      if (index > 0) tokens.push({ text: ',', role: 'punctuation' }, SPACE)
      const field = fieldWordFor(entity, column_id)
      tokens.push({ text: field.word, role: 'field', columnId: field.columnId, path: `/group_by/${index}` })
    })
    lines.push(tokens)
  }
  // The grammar has no seed without a sample: a lone seed (which changes nothing) is not printed.
  if (oqo.sample !== undefined && oqo.sample !== null) {
    const tokens: OqlToken[] = [
      keyword('sample'),
      SPACE,
      { text: String(oqo.sample), role: 'value', path: '/sample' },
    ]
    if (oqo.seed !== undefined && oqo.seed !== null)
      tokens.push(SPACE, keyword('seed'), SPACE, {
        text: valueWord(String(oqo.seed)),
        role: 'value',
        path: '/seed',
      })
    lines.push(tokens)
  }
  return lines
}

/** A query written once as a flat run of tokens, ready to be laid out at any width. */
interface WrittenQuery {
  readonly run: TokenRun
  readonly body: { readonly nodes: readonly ConditionNode[]; readonly join: Join; readonly path: string }
  /** Where the body starts (after `works where `) and ends (before the directives). */
  readonly bodyStart: number
  readonly queryEnd: number
  readonly directives: readonly OqlToken[][]
}

const writeQuery = (oqo: Oqo, names: NameLookup | undefined): WrittenQuery => {
  const entityName = String(oqo.get_rows)
  const entity = (resolveEntityType(entityName) ?? entityName) as EntityType
  const filters: readonly Filter[] = oqo.filter_rows ?? []
  const body = topLevel(conditionsOf(filters, 'and', { entity, names }, '/filter_rows'))
  const run = new TokenRun()
  for (const token of headerTokens(oqo, resolveEntityType(entityName) ?? entityName.toLowerCase()))
    run.push(token)
  if (body.nodes.length > 0) {
    run.push(SPACE)
    run.push(keyword('where'))
    run.push(SPACE)
  }
  const bodyStart = run.length
  body.nodes.forEach((node, index) => {
    if (index > 0) {
      run.push(SPACE)
      pushConnective(run, body.join, '0', body.path)
    }
    pushCondition(run, node, String(index + 1))
  })
  const queryEnd = run.length
  const directives = directiveLines(oqo, entity)
  for (const tokens of directives) {
    run.push(SPACE)
    for (const token of tokens) run.push(token)
  }
  return { run, body, bodyStart, queryEnd, directives }
}

const layoutQuery = (query: WrittenQuery, context: LayoutContext): OqlRenderTree => {
  const { run, body } = query
  if (run.width(0, run.length) <= context.width) return { lines: [{ indent: 0, tokens: run.tokens }] }

  const lines: Line[] = []
  if (body.nodes.length === 0 || run.width(0, query.queryEnd) <= context.width)
    lines.push({ indent: 0, tokens: run.slice(0, query.queryEnd) })
  else
    body.nodes.forEach((node, index) => {
      const addr = String(index + 1)
      const nodeStart = run.span(addr).start
      // After the first, each top-level condition is led by its connective (the two tokens before it).
      const start =
        index === 0
          ? { indent: 0, prefix: run.slice(0, query.bodyStart) }
          : { indent: 2, prefix: run.slice(nodeStart - 2, nodeStart) }
      // Every top-level condition belongs at indent 2, the first one too (it only starts on the entity's line).
      lines.push(...layoutCondition(context, run, node, addr, start, 2))
    })
  for (const tokens of query.directives) lines.push({ indent: 0, tokens })
  return { lines }
}

const widthOf = (options: PrintOqlOptions): number => options.width ?? DEFAULT_WIDTH

/**
 * The printed OQL as lines of typed tokens, for editors (the translate response's `oql_render_v2`);
 * see `oql-tokens.ts` for the shape. `renderTreeText` of it is `printOql` of the same arguments.
 */
export const renderOqlTree = (oqo: Oqo, options: PrintOqlOptions = {}): OqlRenderTree =>
  layoutQuery(writeQuery(oqo, options.names), { width: widthOf(options) })

/** Canonical OQL for a canonical OQO, laid out to `width` (80) columns. */
export const printOql = (oqo: Oqo, options: PrintOqlOptions = {}): string =>
  renderTreeText(renderOqlTree(oqo, options))

/** The same canonical OQL on one line (the translate response's `oql_oneline`). */
export const printOqlOneline = (oqo: Oqo, options: PrintOqlOptions = {}): string =>
  tokensText(writeQuery(oqo, options.names).run.tokens)

/** Every printed form of one query, from one clause tree: what `translate` returns. */
export interface PrintedOql {
  /** `printOql`: laid out to the width. */
  readonly text: string
  /** `printOqlOneline`. */
  readonly oneline: string
  /** `renderOqlTree`. */
  readonly tree: OqlRenderTree
}

/**
 * `printOql`, `printOqlOneline` and `renderOqlTree` of the same arguments at once: the clause tree is
 * built and its tokens written once, and the wrapped form only lays them out.
 */
export const printOqlForms = (oqo: Oqo, options: PrintOqlOptions = {}): PrintedOql => {
  const query = writeQuery(oqo, options.names)
  const oneline = tokensText(query.run.tokens)
  const tree = layoutQuery(query, { width: widthOf(options) })
  // A query that fits on one line is its one-line text.
  const text =
    tree.lines.length === 1 && tree.lines[0]!.tokens === query.run.tokens ? oneline : renderTreeText(tree)
  return { text, oneline, tree }
}
