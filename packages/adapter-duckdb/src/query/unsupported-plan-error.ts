// A plan the DuckDB adapter cannot run: a kind of node the engine should have resolved first (a collection),
// a capability it does not have (semantic search), or a column it cannot read. Thrown, not returned: reaching
// the adapter with such a plan is a bug or a missing capability, not bad user input.

export type UnsupportedPlanReason =
  | 'collection'
  | 'semantic_search'
  | 'full_text_search'
  | 'entity'
  | 'column'
  | 'group_cursor'
  | 'invalid_cursor'
  | 'invalid_search'

export class UnsupportedPlanError extends Error {
  override readonly name = 'UnsupportedPlanError'
  constructor(
    readonly reason: UnsupportedPlanReason,
    message: string,
  ) {
    super(message)
  }
}

/** True for an `UnsupportedPlanError`, also from another copy of this package (checks the name, not the class). */
export const isUnsupportedPlanError = (error: unknown): error is UnsupportedPlanError =>
  error instanceof Error && error.name === 'UnsupportedPlanError'
