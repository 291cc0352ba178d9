import { type CanonicalizeOptions, canonicalizeOqo } from './canonicalize-oqo.ts'
import type { OqoDiagnostic } from './diagnostic.ts'
import type { Oqo } from './oqo.generated.ts'
import { type ValidateOqoOptions, validateOqo } from './validate-oqo.ts'

/**
 * View parameters an older client embedded in the OQO. They are not part of OQO v1.4: they travel as
 * sibling request parameters, and a sibling always wins over an embedded value.
 */
export interface EmbeddedView {
  /** `column:direction` pairs, comma-separated, as the `sort` request parameter writes them. */
  readonly sort?: string
  readonly select?: readonly string[]
  readonly per_page?: number
  readonly page?: number
  readonly cursor?: string
}

export type ReadOqoResult =
  | {
      readonly ok: true
      readonly oqo: Oqo
      readonly view: EmbeddedView
      readonly warnings: readonly OqoDiagnostic[]
    }
  | {
      readonly ok: false
      readonly errors: readonly OqoDiagnostic[]
      readonly warnings: readonly OqoDiagnostic[]
    }

interface LegacyKeys {
  readonly sort_by?: ReadonlyArray<{ readonly column_id: string; readonly direction?: string }>
  readonly sort_by_column?: string
  readonly sort_by_order?: string
  readonly select?: string | readonly string[]
  readonly per_page?: number
  readonly page?: number
  readonly cursor?: string
}

const embeddedView = (input: LegacyKeys): EmbeddedView => {
  const sortPairs =
    input.sort_by?.map(({ column_id, direction }) => `${column_id}:${direction ?? 'asc'}`) ??
    (input.sort_by_column === undefined ? [] : [`${input.sort_by_column}:${input.sort_by_order ?? 'asc'}`])
  const select =
    input.select === undefined
      ? undefined
      : typeof input.select === 'string'
        ? input.select
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name !== '')
        : [...input.select]
  return {
    ...(sortPairs.length > 0 ? { sort: sortPairs.join(',') } : {}),
    ...(select === undefined ? {} : { select }),
    ...(input.per_page === undefined ? {} : { per_page: input.per_page }),
    ...(input.page === undefined ? {} : { page: input.page }),
    ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
  }
}

/**
 * Reads an OQO as it arrives from a client: validates it, separates the transitional embedded view
 * keys, and returns the canonical OQO in the user's operand order (pass `sortOperands` for the sorted
 * form). Never throws.
 */
export const readOqo = (
  input: unknown,
  options: ValidateOqoOptions & CanonicalizeOptions = {},
): ReadOqoResult => {
  const validation = validateOqo(input, options)
  if (!validation.valid) return { ok: false, errors: validation.errors, warnings: validation.warnings }
  const { sort_by, sort_by_column, sort_by_order, select, per_page, page, cursor, ...query } = input as Oqo &
    LegacyKeys
  const view = embeddedView({
    ...(sort_by === undefined ? {} : { sort_by }),
    ...(sort_by_column === undefined ? {} : { sort_by_column }),
    ...(sort_by_order === undefined ? {} : { sort_by_order }),
    ...(select === undefined ? {} : { select }),
    ...(per_page === undefined ? {} : { per_page }),
    ...(page === undefined ? {} : { page }),
    ...(cursor === undefined ? {} : { cursor }),
  })
  return { ok: true, oqo: canonicalizeOqo(query, options), view, warnings: validation.warnings }
}
