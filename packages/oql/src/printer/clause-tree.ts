import {
  type BranchFilter,
  COLLECTION_ID,
  type EntityType,
  type Filter,
  isBranch,
  isEntityType,
  type LeafFilter,
  propertiesRegistry,
} from '@oqlkit/oqo-schema'
import { fieldWordFor, type OqlFieldWord } from '../fields/field-words.ts'
import { type OqlToken, SPACE } from './oql-tokens.ts'
import { searchSurface } from './search-terms.ts'
import { annotationText, quoted, scalarText } from './value-text.ts'

// OQO filters → the clause tree the printer lays out (OQL v2.2 §4.1–4.2). Conditions are clauses
// (`field op ( value tree )`) or parenthesised groups of conditions; a value tree is values joined by
// and/or with `not` on the values. Same-field siblings merge into one clause, and a branch whose
// leaves all share one field factors into one clause.
//
// Negation stays on the values where a value group may hold it: `type is (not article)`,
// `title has (not cat)`, `language is (not unknown)`, `work is in collection (not col_x)`,
// `it cites (not W1)`, `date is (not 2020-05-17)`. Where the group holds one scalar and a `not` in it
// would read as a different value or not parse, the clause takes a prefix `not` (grammar: `operand ::=
// 'not' operand`) instead of the negation being dropped as the reference does (§10.1):
//   `not year >= (2020)`, `not open access is (true)`, `not date >= (2020-01-01)` (a `from_*` bound),
//   `not abstract is similar to ("…")`.
// A negated boolean is not folded into the opposite value either: `is (false)` does not match a work
// with no value, so it would not mean the same.

export type Join = BranchFilter['join']

export interface ValueLeaf {
  readonly kind: 'vleaf'
  readonly negated: boolean
  /** The value's tokens (the term, and its annotation), without the `not`. */
  readonly parts: readonly OqlToken[]
  readonly path: string
}

export interface ValueGroup {
  readonly kind: 'vgroup'
  readonly join: Join
  readonly items: readonly ValueNode[]
  readonly path: string
}

export type ValueNode = ValueLeaf | ValueGroup

export interface ClauseNode {
  readonly kind: 'clause'
  /** A prefix `not`: the whole clause is negated. */
  readonly negated: boolean
  /** The field and operator tokens (`title`, ` `, `has`) or a row-subject verb (`it cites`). */
  readonly head: readonly OqlToken[]
  readonly value: ValueNode
  readonly path: string
  readonly paths: readonly string[]
}

export interface GroupNode {
  readonly kind: 'group'
  readonly join: Join
  readonly negated: boolean
  readonly children: readonly ConditionNode[]
  readonly path: string
}

export type ConditionNode = ClauseNode | GroupNode

/** Looks up the display name of an entity id for its `[annotation]`. */
export type NameLookup = (entity: EntityType, id: string) => string | undefined

export interface TreeContext {
  readonly entity: EntityType
  readonly names: NameLookup | undefined
}

// A clause that has not been merged yet: what it prints, and the key that same-field siblings share.
interface ClausePart {
  readonly key: string | undefined
  readonly nullOnly: boolean
  readonly negated: boolean
  readonly head: readonly OqlToken[]
  readonly value: ValueNode
  readonly path: string
}

type Item = { readonly clause: ClausePart } | { readonly group: GroupNode }

const COMPARISONS: ReadonlySet<string> = new Set(['>', '>=', '<', '<='])

const operatorOf = (leaf: LeafFilter): NonNullable<LeafFilter['operator']> => leaf.operator ?? 'is'

const fieldToken = (field: OqlFieldWord, path: string, word = field.word): OqlToken => ({
  text: word,
  role: 'field',
  columnId: field.columnId,
  path,
})

const headTokens = (field: OqlFieldWord, operator: string, path: string, word?: string): OqlToken[] => [
  fieldToken(field, path, word),
  SPACE,
  { text: operator, role: 'operator', path },
]

/**
 * The key that lets siblings merge into one clause: the search base of a `has` leaf, or the column of
 * an `is` leaf whose value group can hold several values. Comparisons, booleans, dates, collections
 * and similarity never merge.
 */
const mergeKey = (leaf: LeafFilter, field: OqlFieldWord): string | undefined => {
  const operator = operatorOf(leaf)
  if (operator === 'has' && field.search !== undefined && field.search.mode !== 'semantic')
    return `has:${field.search.base}`
  if (operator !== 'is' || field.search !== undefined || field.dateBound !== undefined) return undefined
  if (field.kind === 'bool' || field.kind === 'date' || field.kind === 'collection') return undefined
  return `is:${field.columnId}`
}

const valueToken = (leaf: LeafFilter, field: OqlFieldWord, path: string, text: string): OqlToken => ({
  text,
  role: 'value',
  columnId: field.columnId,
  value: leaf.value,
  path,
})

const annotationTokens = (leaf: LeafFilter, field: OqlFieldWord, context: TreeContext, path: string) => {
  const { value } = leaf
  if (context.names === undefined || field.nameEntity === undefined) return []
  if (typeof value !== 'string' && typeof value !== 'number') return []
  if (typeof value === 'string' && COLLECTION_ID.test(value)) return []
  const name = context.names(field.nameEntity, String(value))
  return [SPACE, { text: annotationText(name), role: 'annotation', path } satisfies OqlToken]
}

const hasExactColumn = (context: TreeContext, base: string): boolean =>
  isEntityType(context.entity) &&
  propertiesRegistry.resolveColumn(context.entity, `${base}.search.exact`) !== undefined

const searchValue = (
  leaf: LeafFilter,
  field: OqlFieldWord,
  context: TreeContext,
  path: string,
): ValueNode => {
  const negated = leaf.is_negated === true
  const surface = searchSurface(typeof leaf.value === 'string' ? leaf.value : scalarText(leaf.value), {
    exact: field.search?.mode === 'exact',
    hasExactColumn: field.search !== undefined && hasExactColumn(context, field.search.base),
  })
  const withLeaf = (token: OqlToken): OqlToken =>
    token.role === 'value'
      ? { ...token, columnId: field.columnId, value: leaf.value, path }
      : { ...token, path }
  if (surface.kind === 'term') return { kind: 'vleaf', negated, parts: surface.tokens.map(withLeaf), path }
  // `not` over words ANDed is each word negated and ORed (De Morgan), as the parser reads `not "a b"`.
  return {
    kind: 'vgroup',
    join: negated ? 'or' : 'and',
    items: surface.words.map((text) => ({
      kind: 'vleaf',
      negated,
      parts: [valueToken(leaf, field, path, quoted(text))],
      path,
    })),
    path,
  }
}

const leafClause = (leaf: LeafFilter, context: TreeContext, path: string): ClausePart => {
  const field = fieldWordFor(context.entity, leaf.column_id)
  const operator = operatorOf(leaf)
  const negated = leaf.is_negated === true
  const key = mergeKey(leaf, field)
  const part = (head: OqlToken[], value: ValueNode, prefixNot: boolean): ClausePart => ({
    key,
    nullOnly: leaf.value === null,
    negated: prefixNot,
    head,
    value,
    path,
  })
  const single = (text: string, valueNegated: boolean, extra: readonly OqlToken[] = []): ValueLeaf => ({
    kind: 'vleaf',
    negated: valueNegated,
    parts: [valueToken(leaf, field, path, text), ...extra],
    path,
  })

  if (operator === 'has' && field.search !== undefined) {
    if (field.search.mode === 'semantic') {
      const text = typeof leaf.value === 'string' ? leaf.value : scalarText(leaf.value)
      return part(headTokens(field, 'is similar to', path), single(quoted(text), false), negated)
    }
    return part(headTokens(field, 'has', path), searchValue(leaf, field, context, path), false)
  }
  if (operator === 'in collection')
    return part(headTokens(field, 'is in collection', path), single(scalarText(leaf.value), negated), false)
  if (COMPARISONS.has(operator)) {
    const decimal = field.column?.kind === 'float'
    // `date >= (…)` is the `from_publication_date` column; the date column itself keeps its raw id.
    const routed = field.boundColumns !== undefined && (operator === '>=' || operator === '<=')
    const head = headTokens(field, operator, path, routed ? field.columnId : field.word)
    return part(head, single(scalarText(leaf.value, decimal), false), negated)
  }
  if (operator === 'is' && field.dateBound !== undefined && leaf.value !== null) {
    const { word, operator: bound } = field.dateBound
    return part(headTokens(field, bound, path, word), single(scalarText(leaf.value), false), negated)
  }
  const annotation = annotationTokens(leaf, field, context, path)
  // A boolean group holds one value and no `not` (the reference folds it into the value, which changes
  // what a missing value matches), so a negated flag is a negated clause: `not open access is (true)`.
  const prefixNot = negated && field.kind === 'bool' && typeof leaf.value === 'boolean'
  const value = single(scalarText(leaf.value), negated && !prefixNot, annotation)
  if (operator === 'is' && field.verb !== undefined)
    return part([{ text: field.verb, role: 'verb', columnId: field.columnId, path }], value, prefixNot)
  return part(headTokens(field, operator, path), value, prefixNot)
}

const leavesOf = (filter: Filter): LeafFilter[] =>
  isBranch(filter) ? filter.filters.flatMap(leavesOf) : [filter]

const valueTree = (filter: Filter, context: TreeContext, path: string): ValueNode => {
  if (!isBranch(filter)) return leafClause(filter, context, path).value
  return {
    kind: 'vgroup',
    join: filter.join,
    items: filter.filters.map((child, index) => valueTree(child, context, `${path}/filters/${index}`)),
    path,
  }
}

/** A branch whose leaves all merge under one key prints as one clause with the boolean in its group. */
const uniformClause = (branch: BranchFilter, context: TreeContext, path: string): ClausePart | undefined => {
  if (branch.filters.some((child) => isBranch(child) && child.is_negated === true)) return undefined
  const leaves = leavesOf(branch)
  const first = leaves[0]
  if (first === undefined) return undefined
  const key = mergeKey(first, fieldWordFor(context.entity, first.column_id))
  if (key === undefined) return undefined
  if (leaves.some((leaf) => mergeKey(leaf, fieldWordFor(context.entity, leaf.column_id)) !== key))
    return undefined
  const head = leafClause(first, context, path).head.map((token) => ({ ...token, path }))
  return {
    key,
    nullOnly: leaves.every((leaf) => leaf.value === null),
    negated: branch.is_negated === true,
    head,
    value: valueTree({ join: branch.join, filters: branch.filters }, context, path),
    path,
  }
}

const itemOf = (filter: Filter, context: TreeContext, path: string): Item => {
  if (!isBranch(filter)) return { clause: leafClause(filter, context, path) }
  const uniform = uniformClause(filter, context, path)
  if (uniform !== undefined) return { clause: uniform }
  return {
    group: {
      kind: 'group',
      join: filter.join,
      negated: filter.is_negated === true,
      children: conditionsOf(filter.filters, filter.join, context, `${path}/filters`),
      path,
    },
  }
}

// Merged values join with the siblings' connective; a member that is itself a group of the same join
// (only in non-canonical input) is spliced in rather than parenthesised.
const mergedValue = (members: readonly ClausePart[], join: Join, path: string): ValueNode => {
  if (members.length === 1) return members[0]!.value
  const items = members.flatMap(({ value }) =>
    value.kind === 'vgroup' && value.join === join ? value.items : [value],
  )
  return { kind: 'vgroup', join, items, path }
}

/** The conditions of one boolean level: siblings merged by field, in the order of their first member. */
export const conditionsOf = (
  filters: readonly Filter[],
  join: Join,
  context: TreeContext,
  path: string,
): ConditionNode[] => {
  const slots: Array<GroupNode | ClausePart[]> = []
  const byKey = new Map<string, ClausePart[]>()
  filters.forEach((filter, index) => {
    // An empty branch (invalid; canonicalisation drops it) holds no condition to print.
    if (leavesOf(filter).length === 0) return
    const item = itemOf(filter, context, `${path}/${index}`)
    if ('group' in item) {
      slots.push(item.group)
      return
    }
    const { clause } = item
    const mergeable = clause.key !== undefined && !clause.nullOnly && !clause.negated
    const bucket = mergeable ? byKey.get(clause.key!) : undefined
    if (bucket !== undefined) bucket.push(clause)
    else {
      const members = [clause]
      if (mergeable) byKey.set(clause.key!, members)
      slots.push(members)
    }
  })
  // The connective belongs to the branch (or the top level), not to its `filters` list.
  const joinPath = path.endsWith('/filters') ? path.slice(0, -'/filters'.length) : path
  return slots.map((slot): ConditionNode => {
    if (!Array.isArray(slot)) return slot
    const first = slot[0]!
    const paths = slot.map((member) => member.path)
    const head = first.head.map((token) =>
      token.role === 'field' || token.role === 'verb' ? { ...token, paths } : token,
    )
    return {
      kind: 'clause',
      negated: first.negated,
      head,
      value: mergedValue(slot, join, joinPath),
      path: first.path,
      paths,
    }
  })
}
