// A plan a storage adapter cannot run: a kind of node the engine should have resolved first (a collection),
// a capability it does not have (semantic search, totals), or a column it cannot read. Thrown, not returned:
// reaching the adapter with such a plan is a bug or a missing capability, not bad user input, but for the two
// reasons that are the request's fault (a cursor or a search the adapter cannot read). It lives beside
// `StorageAdapter` so that every adapter throws the same class and the HTTP layer recognises it by its class.
import { namedErrorGuard } from '../errors/named-error-guard.ts'

export type UnsupportedPlanReason =
  | 'collection'
  | 'semantic_search'
  | 'full_text_search'
  | 'entity'
  | 'column'
  | 'group_cursor'
  | 'invalid_cursor'
  | 'invalid_search'
  | 'capability'

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
export const isUnsupportedPlanError = namedErrorGuard<UnsupportedPlanError>('UnsupportedPlanError')
