import type { Oqo } from '@oqlkit/oqo-schema'

/** The kinds of translation error the API description names. */
export type TranslationErrorType = 'parse_error' | 'bad_request' | 'invalid_entity' | 'invalid_body'

export interface TranslationError {
  readonly type: TranslationErrorType
  /** The stable diagnostic code behind the error (`OQL_UNKNOWN_FIELD`, `invalid_column`, …). */
  readonly code: string
  /** What went wrong, ending with how to fix it. */
  readonly message: string
  /** Character offset in the OQL text (parse errors only). */
  readonly position?: number
  /** The query text around the position (parse errors), or the offending input. */
  readonly context: string | null
  /** The JSON path in the OQO of a validation error, or null. */
  readonly location: string | null
}

export interface TranslationWarning {
  readonly type: string
  readonly message: string
  readonly location: string | null
}

export interface TranslationValidation {
  readonly valid: boolean
  readonly errors: readonly TranslationError[]
  readonly warnings: readonly TranslationWarning[]
}

/** Exactly the `/query` result object of the API: the query in all three forms, plus validation. */
export interface TranslationResult {
  readonly oxurl: string | null
  readonly oql: string | null
  readonly oql_oneline: string | null
  readonly oql_render_v2: unknown
  readonly oqo: Oqo | null
  readonly validation: TranslationValidation
}

/** A query in one of its three forms. */
export type TranslationInput =
  | { readonly oql: string }
  | { readonly oqo: unknown }
  | { readonly oxurl: string }
