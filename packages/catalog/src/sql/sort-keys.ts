// A plan's sort as SQL, for every dialect: each sort key's expression and type, the ORDER BY of the keys
// (nulls last in both directions, as the API sorts), and the keyset condition of a cursor (the rows strictly
// after its values). What differs between databases (list functions, the link extremes a row sorts by, how a
// cursor value is cast back) the dialect says; the rest is the catalog's, said once.
import type { QueryPlan, SortKey } from '@oqlkit/engine'
import { UnsupportedPlanError } from '@oqlkit/engine'
import { type LinkSource, type ListSource, ownValuesOf } from '../columns/column-source-shapes.ts'
import type { ValueCodec, ValueCodecs } from '../columns/value-codecs.ts'
import type { CatalogEntity } from '../layout/catalog-entities.ts'
import type { SqlDialect } from './filter-compiler.ts'
import { joinSql, raw, type SqlFragment, sql } from './sql-fragment.ts'

export type SortKeyType = 'number' | 'date' | 'timestamp' | 'boolean' | 'text'

/** One term a key orders by: a column of the row, and the same term of a value of the key (a cursor's). */
export interface SortKeyTerm {
  readonly expr: string
  readonly of: (value: SqlFragment) => SqlFragment
}

export interface CompiledSortKey {
  /** The key's value, which a page's rows carry out and a cursor carries back. */
  readonly expr: string
  readonly direction: 'asc' | 'desc'
  readonly type: SortKeyType
  /**
   * The terms the key orders by when its value alone does not say the order: a letter id orders by its
   * number, then its text (`idOrderColumns`). Without them it orders by `expr`.
   */
  readonly terms?: readonly SortKeyTerm[]
  /**
   * What a narrow table orders by in its place (DuckDB's `rowid` for the id: narrow rows are in id order,
   * and an integer tiebreak costs a top 25 a few milliseconds where the id's text cost twenty).
   */
  readonly narrowOrder?: string
}

/** What a sort says differently in one database. */
export interface SortKeyDialect extends Pick<SqlDialect, 'columnSourceOf' | 'mapList' | 'falseSql'> {
  readonly codecs: ValueCodecs
  /** The id key of the statement's row of `entity`, in the catalog's id order. */
  idKey(entity: CatalogEntity, direction: SortKey['direction']): CompiledSortKey
  /** The relevance of a row when nothing searched. */
  readonly noScore: string
  /** The smallest or largest element of a list (`typed`: its elements typed), NULL for none. */
  listExtreme(list: ListSource, typed: string, extreme: 'min' | 'max'): string
  /** The smallest or largest key the row has in a link table, NULL for none; `index` is the key's place. */
  linkExtreme(link: LinkSource, extreme: 'min' | 'max', key: SortKey, index: number): string
  /** A date or timestamp as text, the form a cursor carries it in. */
  toText(expr: string): string
}

const LAMBDA = '__x'

export const sortKeyTypeOf = (codecs: ValueCodecs, codec: ValueCodec): SortKeyType =>
  codec === codecs.number
    ? 'number'
    : codec === codecs.date
      ? 'date'
      : codec === codecs.timestamp
        ? 'timestamp'
        : codec === codecs.boolean
          ? 'boolean'
          : 'text'

/** A sort key's expression over the statement's row (`score`: its relevance, or null without a search). */
export const compileSortKey = (
  dialect: SortKeyDialect,
  entity: CatalogEntity,
  key: SortKey,
  index: number,
  score: string | null,
): CompiledSortKey => {
  const { direction } = key
  if (key.column === 'id') return dialect.idKey(entity, direction)
  // Without a search there is no relevance: every row's is null.
  if (key.column === 'relevance_score') return { expr: score ?? dialect.noScore, direction, type: 'number' }
  const source = dialect.columnSourceOf(entity, key.column)
  const typeOf = (codec: ValueCodec) => sortKeyTypeOf(dialect.codecs, codec)
  switch (source.kind) {
    case 'scalar':
      return { expr: source.expr, direction, type: typeOf(source.codec) }
    case 'external-id':
    case 'choice':
    case 'prefix':
      return { expr: source.scalar.expr, direction, type: typeOf(source.scalar.codec) }
    case 'unsupported':
      throw new UnsupportedPlanError('column', source.message)
    default: {
      // A list sorts by its smallest element ascending and its largest descending, as the API's sort does;
      // a link table's keys of the row the same way. No elements: no key (sorted last).
      const own = ownValuesOf(source)
      const extreme = direction === 'asc' ? 'min' : 'max'
      if (own.kind === 'link')
        return { expr: dialect.linkExtreme(own, extreme, key, index), direction, type: typeOf(own.codec) }
      const element = own.element(LAMBDA)
      const typed = element === LAMBDA ? own.expr : dialect.mapList(own.expr, LAMBDA, element)
      return { expr: dialect.listExtreme(own, typed, extreme), direction, type: typeOf(own.codec) }
    }
  }
}

/** A key as a column of the page's rows: dates and timestamps leave as text (JSON-safe cursor values). */
export const sortKeyOutput = (dialect: Pick<SortKeyDialect, 'toText'>, key: CompiledSortKey): string =>
  key.type === 'date' || key.type === 'timestamp' ? dialect.toText(key.expr) : key.expr

/** `ORDER BY` of the keys, nulls last; on a narrow table a key orders by its `narrowOrder` where it has one. */
export const sortKeysOrder = (keys: readonly CompiledSortKey[], narrow = false): string =>
  keys
    .flatMap((key) => {
      const narrowed = narrow ? key.narrowOrder : undefined
      const exprs = narrowed !== undefined ? [narrowed] : (key.terms?.map((term) => term.expr) ?? [key.expr])
      return exprs.map((expr) => `${expr} ${key.direction.toUpperCase()} NULLS LAST`)
    })
    .join(', ')

/**
 * Rows strictly after `after` in the order of `keys` (nulls last in both directions); `keyValue` binds a
 * cursor value as the key's type.
 */
export const keysetAfter = (
  dialect: Pick<SqlDialect, 'falseSql'>,
  keys: readonly CompiledSortKey[],
  after: readonly unknown[],
  keyValue: (key: CompiledSortKey, value: unknown) => SqlFragment,
): SqlFragment => {
  if (after.length !== keys.length)
    throw new UnsupportedPlanError(
      'invalid_cursor',
      `The cursor holds ${after.length} sort values; this sort has ${keys.length}`,
    )
  // Each key as the terms it orders by, each with the cursor's value of that term (null: none).
  const terms = keys.flatMap((key, index) => {
    const value = after[index]
    const bound = value === null || value === undefined ? null : keyValue(key, value)
    return (key.terms ?? [{ expr: key.expr, of: (same: SqlFragment) => same }]).map((term) => ({
      expr: term.expr,
      direction: key.direction,
      value: bound === null ? null : term.of(bound),
    }))
  })
  const alternatives: SqlFragment[] = []
  terms.forEach((term, index) => {
    if (term.value === null) return // nothing sorts after a null (nulls are last)
    const equalBefore = terms
      .slice(0, index)
      .map((previous) =>
        previous.value === null
          ? raw(`${previous.expr} IS NULL`)
          : sql`coalesce(${raw(previous.expr)} = ${previous.value}, ${dialect.falseSql})`,
      )
    const beyond = sql`(${raw(term.expr)} ${raw(term.direction === 'asc' ? '>' : '<')} ${term.value} OR ${raw(term.expr)} IS NULL)`
    alternatives.push(joinSql([...equalBefore, beyond], ' AND '))
  })
  if (alternatives.length === 0) return dialect.falseSql
  return sql`(${joinSql(
    alternatives.map((alternative) => sql`(${alternative})`),
    ' OR ',
  )})`
}

/** How many rows an offset page passes over (none for a cursor page). */
export const pageOffset = (page: QueryPlan['page']): number =>
  page.kind === 'offset' ? (page.page - 1) * page.perPage : 0
