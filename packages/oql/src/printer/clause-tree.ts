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
import { type OqlToken, SPACE, tokenWithPath, tokenWithPaths } from './oql-tokens.ts'
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

// A field's merge keys, written once: every leaf of a long value list asks for its key.
const HAS_KEYS = new WeakMap<OqlFieldWord, string>()
const IS_KEYS = new WeakMap<OqlFieldWord, string>()

const hasKey = (field: OqlFieldWord, base: string): string => {
  let key = HAS_KEYS.get(field)
  if (key === undefined) {
    key = `has:${base}`
    HAS_KEYS.set(field, key)
  }
  return key
}

const isKey = (field: OqlFieldWord): string => {
  let key = IS_KEYS.get(field)
  if (key === undefined) {
    key = `is:${field.columnId}`
    IS_KEYS.set(field, key)
  }
  return key
}

/**
 * The key that lets siblings merge into one clause: the search base of a `has` leaf, or the column of
 * an `is` leaf whose value group can hold several values. Comparisons, booleans, dates, collections
 * and similarity never merge.
 */
const mergeKey = (leaf: LeafFilter, field: OqlFieldWord): string | undefined => {
  const operator = operatorOf(leaf)
  if (operator === 'has' && field.search !== undefined && field.search.mode !== 'semantic')
    return hasKey(field, field.search.base)
  if (operator !== 'is' || field.search !== undefined || field.dateBound !== undefined) return undefined
  if (field.kind === 'bool' || field.kind === 'date' || field.kind === 'collection') return undefined
  return isKey(field)
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

// Whether an entity has the exact column of a search base, by entity and base: asked for every search value.
const exactColumns = new Map<string, Map<string, boolean>>()

const hasExactColumn = (context: TreeContext, base: string): boolean => {
  let byBase = exactColumns.get(context.entity)
  if (byBase === undefined) {
    byBase = new Map()
    exactColumns.set(context.entity, byBase)
  }
  let found = byBase.get(base)
  if (found === undefined) {
    found =
      isEntityType(context.entity) &&
      propertiesRegistry.resolveColumn(context.entity, `${base}.search.exact`) !== undefined
    byBase.set(base, found)
  }
  return found
}

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
  if (surface.kind === 'term') {
    // The surface's tokens are bare (text and role): each gets its place in the OQO, values their leaf.
    const parts: OqlToken[] = []
    for (const { text, role } of surface.tokens)
      parts.push(
        role === 'value'
          ? { text, role, columnId: field.columnId, value: leaf.value, path }
          : { text, role, path },
      )
    return { kind: 'vleaf', negated, parts, path }
  }
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

// Module-level helpers rather than closures inside `leafClause`: it runs for every leaf printed.
const clausePart = (
  leaf: LeafFilter,
  key: string | undefined,
  head: readonly OqlToken[],
  value: ValueNode,
  prefixNot: boolean,
  path: string,
): ClausePart => ({ key, nullOnly: leaf.value === null, negated: prefixNot, head, value, path })

const NO_TOKENS: readonly OqlToken[] = []

const headIf = (
  withHead: boolean,
  field: OqlFieldWord,
  operator: string,
  path: string,
  word?: string,
): readonly OqlToken[] => (withHead ? headTokens(field, operator, path, word) : NO_TOKENS)

const singleValue = (
  leaf: LeafFilter,
  field: OqlFieldWord,
  path: string,
  text: string,
  valueNegated: boolean,
  extra: readonly OqlToken[] = NO_TOKENS,
): ValueLeaf => ({
  kind: 'vleaf',
  negated: valueNegated,
  parts: [valueToken(leaf, field, path, text), ...extra],
  path,
})

/**
 * The clause one leaf prints as. Without `withHead` its field and operator are left out (no tokens):
 * the values of a branch printed as one clause need only the first leaf's.
 */
const leafClause = (leaf: LeafFilter, context: TreeContext, path: string, withHead = true): ClausePart => {
  const field = fieldWordFor(context.entity, leaf.column_id)
  const operator = operatorOf(leaf)
  const negated = leaf.is_negated === true
  const key = mergeKey(leaf, field)

  if (operator === 'has' && field.search !== undefined) {
    if (field.search.mode === 'semantic') {
      const text = typeof leaf.value === 'string' ? leaf.value : scalarText(leaf.value)
      const value = singleValue(leaf, field, path, quoted(text), false)
      return clausePart(leaf, key, headIf(withHead, field, 'is similar to', path), value, negated, path)
    }
    const value = searchValue(leaf, field, context, path)
    return clausePart(leaf, key, headIf(withHead, field, 'has', path), value, false, path)
  }
  if (operator === 'in collection') {
    const value = singleValue(leaf, field, path, scalarText(leaf.value), negated)
    return clausePart(leaf, key, headIf(withHead, field, 'is in collection', path), value, false, path)
  }
  if (COMPARISONS.has(operator)) {
    const decimal = field.column?.kind === 'float'
    // `date >= (…)` is the `from_publication_date` column; the date column itself keeps its raw id.
    const routed = field.boundColumns !== undefined && (operator === '>=' || operator === '<=')
    const head = headIf(withHead, field, operator, path, routed ? field.columnId : field.word)
    const value = singleValue(leaf, field, path, scalarText(leaf.value, decimal), false)
    return clausePart(leaf, key, head, value, negated, path)
  }
  if (operator === 'is' && field.dateBound !== undefined && leaf.value !== null) {
    const { word, operator: bound } = field.dateBound
    const value = singleValue(leaf, field, path, scalarText(leaf.value), false)
    return clausePart(leaf, key, headIf(withHead, field, bound, path, word), value, negated, path)
  }
  const annotation = annotationTokens(leaf, field, context, path)
  // A boolean group holds one value and no `not` (the reference folds it into the value, which changes
  // what a missing value matches), so a negated flag is a negated clause: `not open access is (true)`.
  const prefixNot = negated && field.kind === 'bool' && typeof leaf.value === 'boolean'
  const value = singleValue(leaf, field, path, scalarText(leaf.value), negated && !prefixNot, annotation)
  if (operator === 'is' && field.verb !== undefined) {
    const verb: OqlToken = { text: field.verb, role: 'verb', columnId: field.columnId, path }
    return clausePart(leaf, key, withHead ? [verb] : NO_TOKENS, value, prefixNot, path)
  }
  return clausePart(leaf, key, headIf(withHead, field, operator, path), value, prefixNot, path)
}

const collectLeaves = (filter: Filter, leaves: LeafFilter[]): LeafFilter[] => {
  if (!isBranch(filter)) leaves.push(filter)
  else for (const child of filter.filters) collectLeaves(child, leaves)
  return leaves
}

const leavesOf = (filter: Filter): LeafFilter[] => collectLeaves(filter, [])

const hasLeaf = (filter: Filter): boolean => !isBranch(filter) || filter.filters.some(hasLeaf)

/**
 * The values of a branch as one value tree. `clauses` collects each leaf's clause in order; only the
 * first one is written with its field and operator, the head of the whole clause.
 */
const valueTree = (filter: Filter, context: TreeContext, path: string, clauses: ClausePart[]): ValueNode => {
  if (!isBranch(filter)) {
    const clause = leafClause(filter, context, path, clauses.length === 0)
    clauses.push(clause)
    return clause.value
  }
  return {
    kind: 'vgroup',
    join: filter.join,
    items: filter.filters.map((child, index) =>
      valueTree(child, context, `${path}/filters/${index}`, clauses),
    ),
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
  const clauses: ClausePart[] = []
  const value = valueTree({ join: branch.join, filters: branch.filters }, context, path, clauses)
  // The first leaf's field and operator head the clause, pointing at the branch.
  const head = clauses[0]!.head.map((token) => tokenWithPath(token, path))
  return {
    key,
    nullOnly: leaves.every((leaf) => leaf.value === null),
    negated: branch.is_negated === true,
    head,
    value,
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
    if (!hasLeaf(filter)) return
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
      token.role === 'field' || token.role === 'verb' ? tokenWithPaths(token, paths) : token,
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
