// A plan's group-by as SQL, for every dialect: what each dimension groups by (a value of the row, the keys a
// link table gives it, or the distinct elements of a list) with how its key is returned, and the engine's
// bucket order (group-bucket-order.ts). How the buckets are counted (joins, unnesting) each dialect writes.
import type { QueryPlan } from '@oqlkit/engine'
import { UnsupportedPlanError } from '@oqlkit/engine'
import {
  type ColumnSource,
  formatGroupKey,
  isSingleValued,
  type LinkSource,
  type ListSource,
  rowScalarOf,
} from '../columns/column-source-shapes.ts'
import type { CatalogEntity } from '../layout/catalog-entities.ts'
import type { GroupKeyFormat } from './compiled-query.ts'

type GroupDimension = QueryPlan['groupBy'][number]

/** What a dimension groups by. */
export type GroupedValues =
  /** One value per row: `expr`, the source's group expression. */
  | { readonly kind: 'value'; readonly expr: string; readonly format: GroupKeyFormat }
  /** The row's keys in a link table (none: the unknown bucket). */
  | { readonly kind: 'link'; readonly source: LinkSource; readonly format: GroupKeyFormat }
  /** The distinct elements of a list (none: the unknown bucket). */
  | { readonly kind: 'list'; readonly source: ListSource; readonly format: GroupKeyFormat }

/** What `dimension` groups the rows of `entity` by; a column of other values cannot be grouped by. */
export const groupedValuesOf = (
  columnSourceOf: (entity: CatalogEntity, column: GroupDimension['column']) => ColumnSource,
  entity: CatalogEntity,
  dimension: GroupDimension,
): GroupedValues => {
  const source = columnSourceOf(entity, dimension.column)
  if (source.kind === 'unsupported') throw new UnsupportedPlanError('column', source.message)
  if (isSingleValued(source)) {
    const scalar = rowScalarOf(source)
    return { kind: 'value', expr: scalar.groupExpr, format: formatGroupKey(scalar.groupKey) }
  }
  switch (source.kind) {
    case 'link':
      return { kind: 'link', source, format: formatGroupKey(source.groupKey) }
    case 'list':
      return { kind: 'list', source, format: formatGroupKey(source.groupKey) }
    default:
      throw new UnsupportedPlanError('column', `${dimension.column.id} cannot be grouped by`)
  }
}

/**
 * The engine's bucket order (group-bucket-order.ts) over buckets `names` and count `__n`: by count, ties by
 * the keys ascending; or by the keys, unknown last in both directions, ties by count descending.
 */
export const bucketOrder = (plan: QueryPlan, names: readonly string[]): string => {
  const direction = plan.groupOrder.direction === 'asc' ? 'ASC' : 'DESC'
  const keysAscending = names.map((name) => `${name} ASC NULLS LAST`).join(', ')
  return plan.groupOrder.by === 'count'
    ? `__n ${direction}, ${keysAscending}`
    : `${names.map((name) => `${name} ${direction} NULLS LAST`).join(', ')}, __n DESC`
}
