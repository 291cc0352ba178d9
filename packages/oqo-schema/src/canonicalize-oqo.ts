import type { EntityType } from './entity-types.ts'
import { resolveEntityType } from './entity-types.ts'
import type { BranchFilter, Filter, LeafFilter, Oqo } from './oqo.generated.ts'
import type { Column } from './registry/column.ts'
import { type PropertiesRegistry, propertiesRegistry } from './registry/properties-registry.ts'
import { compareSortOperands, type SortOperand } from './sort-key.ts'
import { COLLECTION_ID, DECIMAL_TEXT, INTEGER_TEXT, isBooleanText, stripIdPrefix } from './value-checks.ts'

export interface CanonicalizeOptions {
  /**
   * Sort operands (children of every branch and the top-level rows) into one fixed order: for hashing,
   * caching and comparing queries. Off by default, which keeps the user's order for user-facing output.
   */
  readonly sortOperands?: boolean
  readonly registry?: PropertiesRegistry
}

export const isBranch = (filter: Filter): filter is BranchFilter => 'join' in filter

type Value = LeafFilter['value']

const applyCasing = (column: Column, text: string): string =>
  column.casing === 'upper' ? text.toUpperCase() : column.casing === 'lower' ? text.toLowerCase() : text

/** Gives a value the type its column holds: "2020" on a number column is 2020, 3 on an SDG column is "3". */
const typeValue = (column: Column | undefined, operator: LeafFilter['operator'], value: Value): Value => {
  if (value === null || column === undefined) return value
  if (operator === 'in collection' || (typeof value === 'string' && COLLECTION_ID.test(value))) return value
  switch (column.kind) {
    case 'boolean':
      return typeof value === 'string' && isBooleanText(value.trim())
        ? value.trim().toLowerCase() === 'true'
        : value
    case 'number':
      return typeof value === 'string' && INTEGER_TEXT.test(value.trim()) ? Number(value.trim()) : value
    case 'float':
      return typeof value === 'string' && DECIMAL_TEXT.test(value.trim()) ? Number(value.trim()) : value
    case 'enum':
      return applyCasing(column, String(value))
    case 'entity_id': {
      // Letter ids are bare (`https://openalex.org/I1` is `I1`) but keep the case they were written in,
      // as the reference does: matching is case-insensitive, and the printed query echoes the user.
      return stripIdPrefix(String(value))
    }
    case 'search':
    case 'string':
    case 'date':
    case 'datetime':
      return typeof value === 'boolean' ? value : String(value)
    default:
      return value
  }
}

const normalizeLeaf = (
  entity: EntityType,
  registry: PropertiesRegistry,
  leaf: LeafFilter,
  negate: boolean,
): LeafFilter => {
  const column = registry.resolveColumn(entity, leaf.column_id)
  const operator = leaf.operator ?? 'is'
  const isNegated = (leaf.is_negated ?? false) !== negate
  const result: LeafFilter = {
    column_id: column?.id ?? leaf.column_id,
    value: typeValue(column, operator, leaf.value),
  }
  if (operator !== 'is') result.operator = operator
  if (isNegated) result.is_negated = true
  return result
}

// A search value that is really several terms becomes one leaf per term, ANDed (OQL v2.2 §4.1, #633):
// a bare multi-word value on an exact column is the no-stem AND of its words, and a stemmed value that
// mixes a quoted phrase with bare words is the phrase AND the words. Proximity (`~`) stays whole.
const PHRASE_OR_WORD_RUN = /"[^"]*"|[^\s"]+(?:\s+[^\s"]+)*/g
const WHITESPACE_RUN = /\s+/

const searchTerms = (leaf: LeafFilter): string[] | undefined => {
  if (leaf.operator !== 'has' || typeof leaf.value !== 'string' || leaf.value.includes('~')) return undefined
  if (leaf.column_id.endsWith('.search.exact')) {
    if (leaf.value.includes('"')) return undefined
    const words = leaf.value.split(WHITESPACE_RUN).filter((word) => word !== '')
    return words.length > 1 ? words : undefined
  }
  if (leaf.column_id.endsWith('.search') && leaf.value.includes('"')) {
    const parts = leaf.value.match(PHRASE_OR_WORD_RUN) ?? []
    return parts.length > 1 ? parts : undefined
  }
  return undefined
}

const splitSearchLeaf = (leaf: LeafFilter): Filter => {
  const terms = searchTerms(leaf)
  if (terms === undefined) return leaf
  const filters = terms.map(
    (term): LeafFilter => ({ column_id: leaf.column_id, value: term, operator: 'has' }),
  )
  return leaf.is_negated === true ? { join: 'and', filters, is_negated: true } : { join: 'and', filters }
}

/** Pushes negation to the leaves (De Morgan), flattens same-join nesting, unwraps single children. */
const normalizeFilter = (
  entity: EntityType,
  registry: PropertiesRegistry,
  filter: Filter,
  negate: boolean,
): Filter | undefined => {
  if (!isBranch(filter)) {
    const leaf = normalizeLeaf(entity, registry, filter, false)
    const split = splitSearchLeaf(leaf)
    if (split === leaf) return negate ? normalizeLeaf(entity, registry, filter, negate) : leaf
    return normalizeFilter(entity, registry, split, negate)
  }
  const negated = (filter.is_negated ?? false) !== negate
  const join = negated ? (filter.join === 'and' ? 'or' : 'and') : filter.join
  const children: Filter[] = []
  for (const child of filter.filters) {
    const normalized = normalizeFilter(entity, registry, child, negated)
    if (normalized === undefined) continue
    if (isBranch(normalized) && normalized.join === join) children.push(...normalized.filters)
    else children.push(normalized)
  }
  if (children.length === 0) return undefined
  if (children.length === 1) return children[0]
  return { join, filters: children }
}

// Children are sorted before their branch, so a branch is compared by its sorted children.
const sortOperands = (filters: readonly Filter[]): SortOperand[] => {
  const operands: SortOperand[] = []
  for (const filter of filters) {
    if (!isBranch(filter)) {
      operands.push({ filter, children: undefined, key: undefined })
      continue
    }
    const children = sortOperands(filter.filters)
    const sorted: Filter[] = children.map((child) => child.filter)
    operands.push({ filter: { join: filter.join, filters: sorted }, children, key: undefined })
  }
  return operands.sort(compareSortOperands)
}

const sortFilters = (filters: readonly Filter[]): Filter[] =>
  sortOperands(filters).map(({ filter }) => filter)

/**
 * The canonical form of a structurally valid OQO (validate it first): entity aliases and column
 * aliases collapsed to canonical names, negation on the leaves only (De Morgan; double negation
 * cancels), same-join branches flattened and top-level AND branches hoisted into `filter_rows`,
 * values typed per column kind, a top-level works `is_xpac` leaf turned into `corpus`, `corpus: core`
 * and empty lists omitted, the seed a string. Keys come in the reference's order. Idempotent.
 */
export const canonicalizeOqo = (oqo: Oqo, options: CanonicalizeOptions = {}): Oqo => {
  const registry = options.registry ?? propertiesRegistry
  const entity = resolveEntityType(oqo.get_rows) ?? (oqo.get_rows as EntityType)
  let rows: Filter[] = []
  for (const filter of oqo.filter_rows ?? []) {
    const normalized = normalizeFilter(entity, registry, filter, false)
    if (normalized === undefined) continue
    if (isBranch(normalized) && normalized.join === 'and') rows.push(...normalized.filters)
    else rows.push(normalized)
  }

  let corpus = entity === 'works' ? (oqo.corpus ?? 'core') : 'core'
  if (entity === 'works' && corpus === 'core') {
    // The retired `is_xpac` filter selected the expansion corpus; it is a corpus choice, not a filter.
    // Two such leaves contradict or repeat each other; they stay filters, so the form is a fixed point.
    const xpacLeaves = rows.filter(
      (row): row is LeafFilter =>
        !isBranch(row) && row.column_id === 'is_xpac' && typeof row.value === 'boolean',
    )
    const xpac = xpacLeaves.length === 1 ? xpacLeaves[0] : undefined
    if (xpac !== undefined) {
      corpus = (xpac.value === true) !== (xpac.is_negated ?? false) ? 'expansion' : 'core'
      rows = rows.filter((row) => row !== xpac)
    }
  }
  if (options.sortOperands === true) rows = sortFilters(rows)

  const groupBy = (oqo.group_by ?? []).map(({ column_id }) => ({
    column_id: registry.resolveColumn(entity, column_id)?.id ?? column_id,
  }))

  const canonical: Oqo = { get_rows: entity }
  if (corpus !== 'core') canonical.corpus = corpus
  if (rows.length > 0) canonical.filter_rows = rows
  if (oqo.sample !== undefined && oqo.sample !== null) canonical.sample = oqo.sample
  if (groupBy.length > 0) canonical.group_by = groupBy
  if (oqo.seed !== undefined && oqo.seed !== null) canonical.seed = String(oqo.seed)
  return canonical
}

/**
 * `canonicalizeOqo(canonical, { sortOperands: true })` of an OQO that `canonicalizeOqo` returned (in either
 * mode), without normalising it again: canonicalisation is idempotent, so only the operands' order is left
 * to change. For code that holds the canonical form in the user's order and needs the sorted one too
 * (`translate` prints the one and writes the URL from the other).
 */
export const sortCanonicalOqo = (canonical: Oqo): Oqo =>
  canonical.filter_rows === undefined
    ? canonical
    : { ...canonical, filter_rows: sortFilters(canonical.filter_rows) }
