import type {
  TranslationError,
  TranslationErrorType,
  TranslationResult,
  TranslationWarning,
} from '@oqlkit/oql'
import type { Oqo } from '@oqlkit/oqo-schema'
import { ApiError, type ApiProblem } from './api-error.ts'
import { errorTitle } from './error-title.ts'

/**
 * One problem of a query request in the `validation.errors` shape that `translate()` writes, so the
 * execute and translate endpoints report alike: `location` is the OQO path or the request parameter at fault.
 */
export const queryProblem = (
  type: TranslationErrorType,
  code: string,
  message: string,
  location: string | null = null,
): TranslationError => ({ type, code, message, context: null, location })

const problemsOf = (errors: readonly TranslationError[]): ApiProblem[] =>
  errors.map((error) =>
    error.location === null
      ? { error: error.code, message: error.message }
      : { error: error.code, message: error.message, parameter: error.location },
  )

export interface QueryErrorOptions {
  readonly status?: number
  readonly warnings?: readonly TranslationWarning[]
  /** The OQO, when the query was read but failed validation or planning. */
  readonly oqo?: Oqo | null
}

/**
 * A refusal of the execute endpoint (`GET /?oql=`, `POST /`): `{error, code, message, validation: {valid:
 * false, errors, warnings}, oqo?}`. `error` is the kind of failure in the public server's words, `code` and
 * `message` are the first error's, as in every other error of the API; `validation` is what the API
 * description specifies; `oqo` is there when the query was read, so a client sees what its text meant.
 */
export const queryError = (
  errors: readonly TranslationError[],
  options: QueryErrorOptions = {},
): ApiError => {
  const [first] = errors
  const status = options.status ?? 400
  const code = first?.code ?? 'bad_request'
  return new ApiError(
    status,
    problemsOf(errors),
    {},
    {
      error: errorTitle(
        status,
        errors.map((error) => error.code),
      ),
      code,
      message: first?.message ?? 'The query could not be run.',
      validation: { valid: false, errors, warnings: options.warnings ?? [] },
      ...(options.oqo === undefined || options.oqo === null ? {} : { oqo: options.oqo }),
    },
  )
}

/** A failed translation (`/query`), answered as `translate()` wrote it: the body is the result itself. */
export const translationError = (result: TranslationResult, status = 400): ApiError =>
  new ApiError(status, problemsOf(result.validation.errors), {}, result as unknown as Record<string, unknown>)
