import {
  type BranchFilter,
  type Column,
  canonicalizeOqo,
  type EntityType,
  entityPath,
  type Filter,
  isBranch,
  type LeafFilter,
  type Oqo,
  propertiesRegistry,
} from '@oqlkit/oqo-schema'
import { splitOutsideQuotes, wordsOutsideQuotes } from './quoted-text.ts'
import { MAX_OR_VALUES } from './search-value-parser.ts'
import { isCanonicalFixpoint } from './sorted-canonical.ts'
import { encodeUrlComponent } from './url-encoding.ts'
import { classicUrlPath } from './url-location.ts'
import { readUrl } from './url-to-oqo.ts'
import type { UrlView } from './url-view.ts'

/** Why an OQO has no classic URL (OQL v2.2 §6.3), as a stable machine-readable word. */
export type UrlNotRepresentableReason =
  | 'or_across_columns'
  | 'nested_branch'
  | 'k_ary_proximity'
  | 'semantic_negated'
  | 'semantic_in_branch'
  | 'semantic_multiple'
  | 'semantic_column'
  | 'negated_comparison'
  | 'date_bound'
  | 'negated_or'
  | 'exact_bare_words'
  | 'too_many_values'
  | 'unknown_column'
  | 'read_back_mismatch'

export interface UrlNotRepresentable {
  readonly code: 'url_not_representable'
  readonly reason: UrlNotRepresentableReason
  /** Names the part of the OQO that has no URL form and what to do instead. */
  readonly message: string
  /** The JSON path of that part in the sorted canonical OQO, when it is one node. */
  readonly path?: string
}

export type OqoToUrlResult =
  | { readonly url: string }
  | { readonly url: null; readonly warning: UrlNotRepresentable }

export interface OqoToUrlOptions {
  /** What comes before `/<entity>`: `https://openalex.org` (the default), `https://api.openalex.org`, or `''` for a path. */
  readonly base?: string
  /** View parameters (sort, select, paging, caller) to write beside the OQO's own. */
  readonly view?: UrlView
}

class Unrepresentable {
  readonly reason: UrlNotRepresentableReason
  readonly detail: string
  readonly path: string | undefined

  constructor(reason: UrlNotRepresentableReason, detail: string, path?: string) {
    this.reason = reason
    this.detail = detail
    this.path = path
  }
}

const COMPARISONS: ReadonlySet<string> = new Set(['>', '>=', '<', '<='])

const DIGITS = /^\d+$/
const QUOTED_PART = /^"[^"]*"$/
const WHITESPACE = /\s/
// Values a URL must quote: they hold a separator, start with a negation or quote, or read as empty.
const SEPARATOR_CHARACTERS = /[,|]/
const LEADING_MARK = /^[!"]/
const EMPTY_WORD = /^(?:null|none|undefined)$/i

const isRangeColumn = (column: Column): boolean => column.operatorBuckets.includes('range')

const splitsOnSpace = (column: Column): boolean =>
  column.kind === 'entity_id' || column.kind === 'enum' || column.kind === 'string'

// `semantic.search` is the kNN filter of the classic API; the `*.search.semantic` columns are OQO's
// search-by-meaning modes, of which only the abstract one has a URL form (`search.semantic=`).
const SEMANTIC_FILTER_COLUMN = 'semantic.search'
const SEMANTIC_PARAMETER_COLUMN = 'abstract.search.semantic'

const isSemantic = (columnId: string): boolean =>
  columnId.endsWith('.search.semantic') || columnId === SEMANTIC_FILTER_COLUMN

/** `"a"~3~"b"~"c"`: a proximity window over three or more terms. */
const isKaryProximity = (value: string): boolean => {
  const parts = splitOutsideQuotes(value, '~')
  const quoted = parts.filter((part) => QUOTED_PART.test(part))
  return (
    parts.length >= 3 &&
    quoted.length >= 3 &&
    parts.every((part) => quoted.includes(part) || DIGITS.test(part))
  )
}

const describeValue = (value: LeafFilter['value']): string =>
  typeof value === 'string' ? `'${value}'` : String(value)

const rangeBound = (bound: LeafFilter['value'], decimal: boolean): string =>
  decimal && typeof bound === 'number' && Number.isInteger(bound) ? bound.toFixed(1) : String(bound)

class UrlWriter {
  readonly #entity: EntityType

  constructor(entity: EntityType) {
    this.#entity = entity
  }

  column(leaf: LeafFilter, path: string): Column {
    const column = propertiesRegistry.resolveColumn(this.#entity, leaf.column_id)
    if (column === undefined)
      throw new Unrepresentable(
        'unknown_column',
        `${path} uses '${leaf.column_id}', which is not a column of ${entityPath(this.#entity)}. Validate the OQO first.`,
        path,
      )
    return column
  }

  /** The top-level rows as `key:value` parts; a `>= a` and a `<= b` on one number column become `a-b`. */
  rows(rows: readonly Filter[]): string[] {
    const parts: string[] = []
    const paired = new Set<number>()
    rows.forEach((row, index) => {
      if (paired.has(index)) return
      const path = `filter_rows[${index}]`
      if (isBranch(row)) {
        parts.push(this.#orBranch(row, path))
        return
      }
      const column = this.column(row, path)
      if (row.operator === '>=' && row.is_negated !== true && isRangeColumn(column)) {
        const upper = rows.findIndex(
          (other, otherIndex) =>
            otherIndex > index &&
            !paired.has(otherIndex) &&
            !isBranch(other) &&
            other.column_id === row.column_id &&
            other.operator === '<=' &&
            other.is_negated !== true,
        )
        const high = rows[upper]
        if (high !== undefined && !isBranch(high)) {
          paired.add(upper)
          parts.push(`${column.id}:${this.#range(column, row.value, high.value)}`)
          return
        }
      }
      parts.push(`${column.id}:${this.#leafText(column, row, 'single', path)}`)
    })
    return parts
  }

  // In `1.5-3.0` both bounds read as decimals; a whole bound beside a fractional one keeps its `.0`.
  #range(column: Column, low: LeafFilter['value'], high: LeafFilter['value']): string {
    const decimal =
      column.kind === 'float' &&
      [low, high].some((bound) => typeof bound === 'number' && !Number.isInteger(bound))
    return `${rangeBound(low, decimal)}-${rangeBound(high, decimal)}`
  }

  #orBranch(branch: BranchFilter, path: string): string {
    if (branch.join !== 'or')
      throw new Unrepresentable(
        'nested_branch',
        `${path} is an AND nested below the top level, which the classic URL (it has no parentheses) cannot express. Keep the OQL/OQO form.`,
        path,
      )
    const members: LeafFilter[] = []
    for (const [index, child] of branch.filters.entries()) {
      if (isBranch(child))
        throw new Unrepresentable(
          'nested_branch',
          `${path}.filters[${index}] nests an ${child.join.toUpperCase()} inside an OR, which the classic URL (it has no parentheses) cannot express. Keep the OQL/OQO form, or distribute the condition over the OR.`,
          path,
        )
      members.push(child)
    }
    const columns = [...new Set(members.map((member) => member.column_id))]
    if (columns.length > 1)
      throw new Unrepresentable(
        'or_across_columns',
        `${path} ORs across ${columns.map((id) => `'${id}'`).join(', ')}; a classic URL ORs only the values of one filter (a|b). Keep the OQL/OQO form, or run one query per column.`,
        path,
      )
    if (members.length > MAX_OR_VALUES)
      throw new Unrepresentable(
        'too_many_values',
        `${path} ORs ${members.length} values; a classic URL takes at most ${MAX_OR_VALUES}. Split the query.`,
        path,
      )
    const column = this.column(members[0]!, path)
    const positive = members.find((member) => member.is_negated !== true)
    if (positive === undefined) return `${column.id}:${this.#negatedWords(column, members, path)}`
    // A leading `!` would negate the whole list, so a positive value goes first.
    const ordered = [positive, ...members.filter((member) => member !== positive)]
    return `${column.id}:${ordered.map((member) => this.#leafText(column, member, 'member', path)).join('|')}`
  }

  /** not a or not b = not (a and b): on an exact search column `!a b` says exactly that. */
  #negatedWords(column: Column, members: readonly LeafFilter[], path: string): string {
    const words = members.map((member) => member.value)
    const allWords = words.every(
      (word) => typeof word === 'string' && wordsOutsideQuotes(word).length === 1 && !isKaryProximity(word),
    )
    if (!column.id.endsWith('.search.exact') || !allWords)
      throw new Unrepresentable(
        'negated_or',
        `${path} is an OR of negated values (not a or not b), which the classic filter grammar cannot write. Keep the OQL/OQO form.`,
        path,
      )
    return `!${words.join(' ')}`
  }

  #leafText(column: Column, leaf: LeafFilter, position: 'single' | 'member', path: string): string {
    const negation = leaf.is_negated === true ? '!' : ''
    if (column.kind === 'search') return negation + this.#searchText(column, leaf, path)
    if (negation !== '' && COMPARISONS.has(leaf.operator ?? 'is'))
      throw new Unrepresentable(
        'negated_comparison',
        `${path} negates the comparison '${column.id} ${leaf.operator} ${describeValue(leaf.value)}', which the classic grammar cannot write. Use the opposite comparison instead.`,
        path,
      )
    return negation + this.#valueText(column, leaf, position, path)
  }

  #searchText(column: Column, leaf: LeafFilter, path: string): string {
    const text = String(leaf.value)
    if (isKaryProximity(text))
      throw new Unrepresentable(
        'k_ary_proximity',
        `${path} is a proximity search over three or more terms (${text}), which has no URL form. Keep the OQL form, or search pairs of terms.`,
        path,
      )
    if (column.id.endsWith('.search.exact') && wordsOutsideQuotes(text).length > 1)
      throw new Unrepresentable(
        'exact_bare_words',
        `${path} gives the exact search '${column.id}' the words '${text}', which a URL reads as one exact search per word. Quote the phrase ("…") or give each word its own leaf.`,
        path,
      )
    return text
  }

  #valueText(column: Column, leaf: LeafFilter, position: 'single' | 'member', path: string): string {
    const { value } = leaf
    const operator = leaf.operator ?? 'is'
    if (value === null) return 'null'
    if (operator === 'in collection') return String(value)
    if (COMPARISONS.has(operator)) {
      const text = String(value)
      if (operator === '>' || operator === '<') return `${operator}${text}`
      if (!isRangeColumn(column))
        throw new Unrepresentable(
          'date_bound',
          `${path} compares '${column.id}' with ${operator}, which the classic date grammar lacks (it has > and <). Use a from_…/to_… filter where there is one, or > / <.`,
          path,
        )
      return operator === '>=' ? `${text}-` : `-${text}`
    }
    if (typeof value !== 'string') return String(value)
    const needsQuotes =
      value === '' ||
      SEPARATOR_CHARACTERS.test(value) ||
      LEADING_MARK.test(value) ||
      EMPTY_WORD.test(value) ||
      (value.startsWith('col_') && column.operators.includes('in collection')) ||
      (position === 'single' && splitsOnSpace(column) && WHITESPACE.test(value))
    return needsQuotes ? `"${value}"` : value
  }
}

interface SemanticLeaf {
  readonly index: number
  readonly leaf: LeafFilter
}

/** Checks the semantic leaves under `filter` (at `topIndex` of the rows when it is one), collecting the top-level ones. */
const visitSemantic = (
  filter: Filter,
  path: string,
  topIndex: number | undefined,
  found: SemanticLeaf[],
): void => {
  if (isBranch(filter)) {
    filter.filters.forEach((child, index) => {
      visitSemantic(child, `${path}.filters[${index}]`, undefined, found)
    })
    return
  }
  if (!isSemantic(filter.column_id)) return
  if (filter.column_id !== SEMANTIC_PARAMETER_COLUMN && filter.column_id !== SEMANTIC_FILTER_COLUMN)
    throw new Unrepresentable(
      'semantic_column',
      `${path} searches '${filter.column_id}' by meaning; only ${SEMANTIC_PARAMETER_COLUMN} has a URL form (search.semantic=). Search the abstract by meaning instead.`,
      path,
    )
  if (topIndex === undefined)
    throw new Unrepresentable(
      'semantic_in_branch',
      `${path} puts a semantic search inside a branch; a semantic search stands alone. Move it to the top level.`,
      path,
    )
  if (filter.is_negated === true)
    throw new Unrepresentable(
      'semantic_negated',
      `${path} negates a semantic search, which a URL cannot write. Drop the negation.`,
      path,
    )
  if (filter.column_id === SEMANTIC_PARAMETER_COLUMN) found.push({ index: topIndex, leaf: filter })
}

/** The top-level semantic leaf that becomes `search.semantic=`, after checking every semantic leaf. */
const takeSemantic = (rows: readonly Filter[]): SemanticLeaf | undefined => {
  const found: SemanticLeaf[] = []
  rows.forEach((row, index) => {
    visitSemantic(row, `filter_rows[${index}]`, index, found)
  })
  if (found.length > 1)
    throw new Unrepresentable(
      'semantic_multiple',
      `The OQO has ${found.length} semantic searches; a URL takes one search.semantic=. Keep one of them.`,
    )
  return found[0]
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

/**
 * Whether two JSON values serialise alike, compared member by member instead of as JSON text: key order
 * does not matter and a member holding `undefined` counts as absent.
 */
const sameJson = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (!isObject(a) || !isObject(b))
    return !isObject(a) && !isObject(b) && JSON.stringify(a) === JSON.stringify(b)
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index])) return false
    return true
  }
  let count = 0
  for (const key in a) {
    if (!Object.hasOwn(a, key) || a[key] === undefined) continue
    count += 1
    if (!Object.hasOwn(b, key) || !sameJson(a[key], b[key])) return false
  }
  for (const key in b) if (Object.hasOwn(b, key) && b[key] !== undefined) count -= 1
  return count === 0
}

/** Appends `name=value` to a query string; an absent or empty value is left out. */
const withParameter = (query: string, name: string, value: string | number | undefined): string =>
  value === undefined || value === ''
    ? query
    : `${query}${query === '' ? '' : '&'}${name}=${encodeUrlComponent(String(value))}`

const DEFAULT_BASE = 'https://openalex.org'

const writeUrl = (canonical: Oqo, options: OqoToUrlOptions): string => {
  const entity = canonical.get_rows as EntityType
  const rows = canonical.filter_rows ?? []
  const semantic = takeSemantic(rows)
  const filterText = new UrlWriter(entity).rows(
    semantic === undefined ? rows : rows.filter((_, index) => index !== semantic.index),
  )
  const view = options.view ?? {}
  let query = ''
  query = withParameter(
    query,
    'search.semantic',
    semantic === undefined ? undefined : String(semantic.leaf.value),
  )
  query = withParameter(query, 'filter', filterText.length === 0 ? undefined : filterText.join(','))
  query = withParameter(query, 'sort', view.sort)
  query = withParameter(query, 'group_by', canonical.group_by?.map((group) => group.column_id).join(','))
  query = withParameter(query, 'sample', canonical.sample ?? undefined)
  query = withParameter(query, 'select', view.select)
  query = withParameter(query, 'seed', canonical.seed ?? undefined)
  query = withParameter(query, 'corpus', canonical.corpus)
  query = withParameter(query, 'per_page', view.per_page)
  query = withParameter(query, 'page', view.page)
  query = withParameter(query, 'cursor', view.cursor)
  query = withParameter(query, 'api_key', view.api_key)
  query = withParameter(query, 'mailto', view.mailto)
  const base = options.base === undefined ? DEFAULT_BASE : options.base.replace(/\/+$/, '')
  return `${base}/${classicUrlPath(entity)}${query === '' ? '' : `?${query}`}`
}

/**
 * Writes an OQO as a classic OpenAlex URL in the corpus's format (`https://openalex.org/works?filter=…`).
 * The OQO is canonicalised inside (operands sorted), so any valid OQO may be passed and equal queries
 * give equal URLs. When the OQO has no URL form (an OR across columns, an AND nested in an OR, a k-ary
 * proximity, a negated semantic search, …) the result is `url: null` with a warning saying why. A URL is
 * returned only when reading it back gives the same OQO.
 */
export const oqoToUrl = (oqo: Oqo, options: OqoToUrlOptions = {}): OqoToUrlResult =>
  sortedOqoToUrl(canonicalizeOqo(oqo, { sortOperands: true }), options)

/**
 * Whether `url` reads back as `canonical` (as `urlToOqo(url, { validate: false })` would read it). The
 * URL as read usually is the canonical OQO already (the writer follows its order): then, `canonical`
 * being its own canonical form, canonicalising what was read would give it back, and is skipped.
 */
const readsBackAs = (url: string, canonical: Oqo): boolean => {
  const reading = readUrl(url, { validate: false })
  if (reading.draft === undefined || reading.errors.length > 0) return false
  if (isCanonicalFixpoint(canonical) && sameJson(reading.draft, canonical)) return true
  return sameJson(canonicalizeOqo(reading.draft, { sortOperands: true }), canonical)
}

/** A URL and the OQO `urlToOqo` read from it (with no errors). */
export interface ReadUrl {
  readonly url: string
  readonly oqo: Oqo
}

/**
 * `oqoToUrl` of an OQO already in sorted canonical form (what `canonicalizeOqo(…, { sortOperands: true })`
 * returns), without canonicalising it again: for `translate`, which has that form at hand. The
 * read-back check is the same: the URL is returned only when it reads back as this OQO.
 *
 * `source` is the URL this very OQO object was read from, when it was: writing that same URL back
 * needs no second reading, since reading it again would give an equal OQO (`urlToOqo` reads the same
 * text the same way, and leaving out validation changes only the diagnostics).
 */
export const sortedOqoToUrl = (
  canonical: Oqo,
  options: OqoToUrlOptions = {},
  source?: ReadUrl,
): OqoToUrlResult => {
  let url: string
  try {
    url = writeUrl(canonical, options)
  } catch (error) {
    if (!(error instanceof Unrepresentable)) throw error
    const warning: UrlNotRepresentable = {
      code: 'url_not_representable',
      reason: error.reason,
      message: `No classic URL: ${error.detail}`,
      ...(error.path === undefined ? {} : { path: error.path }),
    }
    return { url: null, warning }
  }
  if (source !== undefined && source.oqo === canonical && source.url === url) return { url }
  if (!readsBackAs(url, canonical))
    return {
      url: null,
      warning: {
        code: 'url_not_representable',
        reason: 'read_back_mismatch',
        message:
          'No classic URL: written as a URL this OQO would read back as a different query (a value holds characters the URL grammar gives a meaning, such as quotes, commas, | or AND/OR/NOT). Keep the OQL/OQO form.',
      },
    }
  return { url }
}
