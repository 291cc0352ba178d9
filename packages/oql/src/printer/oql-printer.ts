import { type EntityType, type Filter, type Oqo, resolveEntityType } from '@oqlkit/oqo-schema'
import { fieldWordFor } from '../fields/field-words.ts'
import { type ConditionNode, conditionsOf, type Join, type NameLookup } from './clause-tree.ts'
import {
  conditionTokens,
  connective,
  type LayoutContext,
  type Line,
  layoutCondition,
  lineWidth,
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

/**
 * The printed OQL as lines of typed tokens, for editors (the translate response's `oql_render_v2`);
 * see `oql-tokens.ts` for the shape. `renderTreeText` of it is `printOql` of the same arguments.
 */
export const renderOqlTree = (oqo: Oqo, options: PrintOqlOptions = {}): OqlRenderTree => {
  const context: LayoutContext = { width: options.width ?? DEFAULT_WIDTH }
  const entityName = String(oqo.get_rows)
  const entity = (resolveEntityType(entityName) ?? entityName) as EntityType
  const header = headerTokens(oqo, resolveEntityType(entityName) ?? entityName.toLowerCase())
  const filters: readonly Filter[] = oqo.filter_rows ?? []
  const body = topLevel(conditionsOf(filters, 'and', { entity, names: options.names }, '/filter_rows'))
  const where: OqlToken[] = body.nodes.length === 0 ? [] : [SPACE, keyword('where'), SPACE]
  const bodyTokens = body.nodes.flatMap((node, index) => [
    ...(index === 0 ? [] : [SPACE, ...connective(body.join, '0', body.path)]),
    ...conditionTokens(node, String(index + 1)),
  ])
  const directives = directiveLines(oqo, entity)

  const query = [...header, ...where, ...bodyTokens]
  const flat = [...query, ...directives.flatMap((tokens) => [SPACE, ...tokens])]
  if (lineWidth(0, flat) <= context.width) return { lines: [{ indent: 0, tokens: flat }] }

  const lines: Line[] = []
  if (body.nodes.length === 0 || lineWidth(0, query) <= context.width)
    lines.push({ indent: 0, tokens: query })
  else
    body.nodes.forEach((node, index) => {
      const start =
        index === 0
          ? { indent: 0, prefix: [...header, ...where] }
          : { indent: 2, prefix: connective(body.join, '0', body.path) }
      // Every top-level condition belongs at indent 2, the first one too (it only starts on the entity's line).
      lines.push(...layoutCondition(context, node, String(index + 1), start, 2))
    })
  for (const tokens of directives) lines.push({ indent: 0, tokens })
  return { lines }
}

/** Canonical OQL for a canonical OQO, laid out to `width` (80) columns. */
export const printOql = (oqo: Oqo, options: PrintOqlOptions = {}): string =>
  renderTreeText(renderOqlTree(oqo, options))

/** The same canonical OQL on one line (the translate response's `oql_oneline`). */
export const printOqlOneline = (oqo: Oqo, options: PrintOqlOptions = {}): string =>
  printOql(oqo, { ...options, width: Number.POSITIVE_INFINITY })
