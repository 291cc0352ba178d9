import { DEFAULT_GROUP_ORDER, type GroupOrder, type SortTerm } from '../plan/query-plan.ts'
import type { PlanDiagnostic } from './plan-diagnostic.ts'

const GROUP_SORT_KEYS = ['count', 'key'] as const

/** The valid `sort` values of a grouped query, for messages. */
export const GROUP_SORT_VALUES = 'key:asc, key:desc, count:asc or count:desc'

/**
 * Reads the `sort` of a grouped query: buckets sort by their `count` or their `key`, in one direction
 * (`asc` when none is written). Row fields (`cited_by_count:desc`) do not apply to buckets.
 */
export const parseGroupOrder = (
  terms: readonly SortTerm[] = [],
): { readonly order: GroupOrder; readonly errors: readonly PlanDiagnostic[] } => {
  if (terms.length === 0) return { order: DEFAULT_GROUP_ORDER, errors: [] }
  const problem = (message: string, data: Partial<PlanDiagnostic> = {}) => ({
    order: DEFAULT_GROUP_ORDER,
    errors: [{ code: 'invalid_sort', parameter: 'sort', message, ...data } satisfies PlanDiagnostic],
  })
  if (terms.length > 1)
    return problem(
      `group_by buckets sort by one key; the sort names ${terms.length}. Write one of ${GROUP_SORT_VALUES}.`,
      {
        rule: 'bucket_sort_one_key',
        field: 'sort',
        expected: GROUP_SORT_VALUES,
        actual: terms.map((term) => term.text ?? term.field).join(','),
        values: { keys: terms.length },
      },
    )
  const [{ text, field: by, writtenDirection, direction }] = terms as [SortTerm]
  if (!(GROUP_SORT_KEYS as readonly string[]).includes(by))
    return problem(
      `With group_by, sort orders the buckets, by 'key' or by 'count'; '${by}' is neither. Write one of ${GROUP_SORT_VALUES}.`,
    )
  if (direction === null)
    return problem(
      `sort '${text ?? by}' has direction '${writtenDirection ?? ''}'; write ${by}:asc or ${by}:desc.`,
    )
  return { order: Object.freeze({ by: by as GroupOrder['by'], direction }), errors: [] }
}
