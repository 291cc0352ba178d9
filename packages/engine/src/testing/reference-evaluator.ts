// A small reference evaluator of query plans over plain records, the oracle of the adapter conformance suite.
// It is written from the API's value semantics (reference/openalex-api-server.md §2.1), not from any adapter:
// a registry column id is a dotted path into the record, lists are walked through, ids and codes compare by
// their last path segment without case, strings without case, `!x` keeps rows without a value. It covers the
// columns the suite uses and refuses the rest, so a case can never silently test nothing.
import { compareEntityIds } from '@oqlkit/oqo-schema/registry'
import type { EntityRecord } from '../adapter/storage-adapter.ts'
import type { ColumnRef, FilterNode, FilterValue } from '../plan/filter-node.ts'
import type { QueryPlan, SortKey } from '../plan/query-plan.ts'

export class ReferenceEvaluatorError extends Error {
  override readonly name = 'ReferenceEvaluatorError'
}

/** Every value at a dotted path, walking through lists; null and missing values are left out. */
export const valuesAt = (record: unknown, path: string): unknown[] => {
  let current: unknown[] = [record]
  for (const segment of path.split('.')) {
    const next: unknown[] = []
    for (const value of current) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue
      const inner = (value as Record<string, unknown>)[segment]
      if (Array.isArray(inner)) next.push(...inner)
      else next.push(inner)
    }
    current = next
  }
  return current.flat(Number.POSITIVE_INFINITY).filter((value) => value !== null && value !== undefined)
}

/** The last path segment of an id or code, decoded (`https://openalex.org/W1` → `W1`, `countries/us` → `us`). */
export const lastSegment = (value: string): string => {
  const trimmed = value.trim().replace(/\/+$/, '')
  const tail = trimmed.slice(trimmed.lastIndexOf('/') + 1)
  try {
    return decodeURIComponent(tail)
  } catch {
    return tail
  }
}

/** Ids and codes are equal when their last segments are, ignoring case. */
export const idKey = (value: unknown): string => lastSegment(String(value)).toLowerCase()

/** The short id of a record (`W123`, `US`). */
export const shortIdOf = (record: EntityRecord): string => lastSegment(String(record.id))

const doiKey = (value: unknown): string =>
  String(value)
    .trim()
    .toLowerCase()
    .replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:)/, '')

const DATE_BOUND = /^(from|to)_(.+_date)$/
const ID_LIKE = /(^|\.)(id|[a-z_]+_ids)$/

// Columns whose meaning is not their record path (computed from several fields, or from other records than
// the row's own): refused, so a case on them fails loudly instead of testing a made-up meaning.
const NOT_A_PATH =
  /^(has_(doi|abstract|orcid|pmid|pmcid|references|raw_affiliation_strings|pdf_url|oa_[a-z_]+|ror|issn|wikidata)|best_open_version|doi_starts_with|related_to|repository)$|(^|\.)(continent|is_global_south)$/

export interface ReferenceContext {
  /** Every record of the entity, by short id (for `cited_by`). */
  readonly byId: ReadonlyMap<string, EntityRecord>
}

// Numbers and ISO dates/texts order the same way under JavaScript's operators, so one comparison serves both.
const compareOrdered = <T extends number | string>(left: T, operator: string, right: T): boolean =>
  operator === '='
    ? left === right
    : operator === '<'
      ? left < right
      : operator === '<='
        ? left <= right
        : operator === '>'
          ? left > right
          : left >= right

const compareNumbers = compareOrdered<number>
const compareText = compareOrdered<string>

/** The values a column has in a record, for the columns this evaluator knows. */
const columnValues = (column: ColumnRef, record: EntityRecord, context: ReferenceContext): unknown[] => {
  if (column.id === 'ids.openalex' || column.id === 'id') return [record.id]
  if (column.id === 'cited_by')
    // `cited_by:W1` are the works W1 cites: this record is one when some W1 lists it.
    return [...context.byId.values()]
      .filter((other) => valuesAt(other, 'referenced_works').some((id) => idKey(id) === idKey(record.id)))
      .map((other) => other.id)
  if (column.id === 'referenced_works') return valuesAt(record, 'referenced_works')
  if (NOT_A_PATH.test(column.id))
    throw new ReferenceEvaluatorError(`The reference evaluator does not model ${column.id}`)
  return valuesAt(record, column.id)
}

const valueMatches = (column: ColumnRef, stored: unknown, operator: string, wanted: FilterValue): boolean => {
  if (column.id === 'doi') return doiKey(stored) === doiKey(wanted)
  switch (column.kind) {
    case 'number':
    case 'float':
      // A few number columns hold ids (`fields.id` of domains: `https://openalex.org/fields/17`): their number.
      if (typeof stored === 'string')
        return compareNumbers(Number(lastSegment(stored)), operator, Number(wanted))
      return typeof stored === 'number' && compareNumbers(stored, operator, Number(wanted))
    case 'date':
    case 'datetime':
      return (
        typeof stored === 'string' &&
        compareText(stored.slice(0, column.kind === 'date' ? 10 : 26), operator, String(wanted))
      )
    case 'boolean':
      return stored === wanted
    case 'entity_id':
    case 'enum':
      return idKey(stored) === idKey(wanted)
    default:
      // Id-like text (`topic_share.id`, `affiliations.institution_ids`) compares as ids, the rest as text.
      if (ID_LIKE.test(column.id)) return operator === '=' && idKey(stored) === idKey(wanted)
      return compareText(String(stored).toLowerCase(), operator, String(wanted).toLowerCase())
  }
}

const boundOf = (column: ColumnRef, operator: string): { column: ColumnRef; operator: string } => {
  const bound = DATE_BOUND.exec(column.id)
  if (bound === null) return { column, operator }
  const base = { id: bound[2]!, kind: column.kind }
  return { column: base, operator: operator !== '=' ? operator : bound[1] === 'from' ? '>=' : '<=' }
}

/** Whether a record matches a plan filter (null matches everything). */
export const matchesFilter = (
  node: FilterNode | null,
  record: EntityRecord,
  context: ReferenceContext,
): boolean => {
  if (node === null) return true
  switch (node.kind) {
    case 'comparison': {
      const { column, operator } = boundOf(node.column, node.operator)
      if (column.id === 'cited_by') {
        const citing = context.byId.get(lastSegment(String(node.value)).toUpperCase())
        return (
          citing !== undefined &&
          valuesAt(citing, 'referenced_works').some((id) => idKey(id) === idKey(record.id))
        )
      }
      return columnValues(column, record, context).some((value) =>
        valueMatches(column, value, operator, node.value),
      )
    }
    case 'in-list':
      return node.values.some((value) =>
        matchesFilter({ kind: 'comparison', column: node.column, operator: '=', value }, record, context),
      )
    case 'missing':
      return columnValues(boundOf(node.column, '=').column, record, context).length === 0
    case 'and':
      return node.children.every((child) => matchesFilter(child, record, context))
    case 'or':
      return node.children.some((child) => matchesFilter(child, record, context))
    case 'not':
      return !matchesFilter(node.child, record, context)
    case 'search':
    case 'collection':
      throw new ReferenceEvaluatorError(`The reference evaluator does not model ${node.kind} nodes`)
  }
}

/** The records of a plan (filter and corpus), unordered. */
export const referenceRows = (
  plan: QueryPlan,
  records: readonly EntityRecord[],
  context: ReferenceContext,
): EntityRecord[] =>
  records.filter((record) => {
    if (plan.entity === 'works' && plan.corpus !== 'all') {
      const expansion = record.is_xpac === true
      if (expansion !== (plan.corpus === 'expansion')) return false
    }
    return matchesFilter(plan.filter, record, context)
  })

const sortValue = (key: SortKey, record: EntityRecord): unknown => {
  if (key.column === 'id') return shortIdOf(record)
  if (key.column === 'relevance_score') throw new ReferenceEvaluatorError('relevance is not modelled')
  const values = valuesAt(record, key.column.id)
  if (values.length > 1) throw new ReferenceEvaluatorError(`${key.column.id} is a list; sort by a scalar`)
  return values[0] ?? null
}

/** Records in plan order: each key in its direction with missing values last, then the id. */
export const referenceOrder = (plan: QueryPlan, records: readonly EntityRecord[]): EntityRecord[] =>
  [...records].sort((left, right) => {
    for (const key of plan.sort) {
      const a = sortValue(key, left)
      const b = sortValue(key, right)
      if (a === b) continue
      if (a === null) return 1
      if (b === null) return -1
      // Ids in id order (letter ids by number); other values as JavaScript compares them.
      const order =
        key.column === 'id'
          ? compareEntityIds(plan.entity, String(a), String(b))
          : (a as number | string) < (b as number | string)
            ? -1
            : 1
      return key.direction === 'asc' ? order : -order
    }
    return 0
  })

/** A group key as adapters return it: letter ids as full OpenAlex ids, other values as stored. */
export const referenceGroupKey = (column: ColumnRef, value: unknown): string | number | boolean | null => {
  if (value === null || value === undefined) return null
  if (column.kind === 'entity_id') {
    const tail = lastSegment(String(value))
    return /^[A-Za-z][0-9]+$/.test(tail) ? `https://openalex.org/${tail.toUpperCase()}` : String(value)
  }
  if ((column.kind === 'number' || column.kind === 'float') && typeof value === 'string')
    return Number(lastSegment(value))
  // Text columns group by text, whatever JSON type a record used (`ids.crossref` is sometimes a number).
  if (column.kind === 'string' || column.kind === 'enum') return String(value)
  return value as string | number | boolean
}

/** Buckets of a plan: key tuple (JSON) → number of distinct records. */
export const referenceGroups = (
  plan: QueryPlan,
  records: readonly EntityRecord[],
  context: ReferenceContext,
): Map<string, number> => {
  const buckets = new Map<string, number>()
  for (const record of referenceRows(plan, records, context)) {
    let tuples: (string | number | boolean | null)[][] = [[]]
    for (const dimension of plan.groupBy) {
      const keys = [
        ...new Set(
          valuesAt(record, dimension.column.id).map((value) => referenceGroupKey(dimension.column, value)),
        ),
      ]
      const choices = keys.length === 0 ? (dimension.includeUnknown ? [null] : []) : keys
      tuples = tuples.flatMap((tuple) => choices.map((key) => [...tuple, key]))
    }
    for (const tuple of tuples) {
      const id = JSON.stringify(tuple)
      buckets.set(id, (buckets.get(id) ?? 0) + 1)
    }
  }
  return buckets
}
