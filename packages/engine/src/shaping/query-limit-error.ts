import { namedErrorGuard } from '../errors/named-error-guard.ts'
/**
 * A query the engine can answer only by reading more than it allows into memory (ordering buckets by
 * key when the adapter cannot, nested buckets, filtering buckets by name). Bad input, not a fault: the
 * HTTP layer answers 400 with the message, which says how to narrow the query.
 */
export class QueryLimitError extends Error {
  override readonly name = 'QueryLimitError'
  constructor(
    readonly limit: number,
    message: string,
  ) {
    super(message)
  }
}

/** True for a `QueryLimitError`, also from another copy of this package (checks the name). */
export const isQueryLimitError = namedErrorGuard<QueryLimitError>('QueryLimitError')
