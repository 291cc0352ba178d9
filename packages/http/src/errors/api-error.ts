/**
 * The `error` codes the HTTP layer itself answers with. Query problems found by the URL reader, the
 * OQO validator and the planner keep their own stable codes (`URL_DIAGNOSTIC_CODES` of `@oqlkit/oql`,
 * `VALIDATION_CODES` of `@oqlkit/oqo-schema`, `PLAN_CODES` of `@oqlkit/engine`).
 */
export const API_ERROR_CODES = {
  unknown_parameter: 'A query parameter the endpoint does not take.',
  repeated_parameter: 'A parameter appears more than once (filter included: combine filters with commas).',
  invalid_parameter: 'A parameter value of the wrong form (per_page=abc, an empty q).',
  oql_not_allowed_here: 'oql= or oqo= on an entity path; OQL runs at the root (GET or POST /).',
  invalid_export:
    'An export request without a valid format= (csv, jsonl, json, parquet), or with paging or group_by, which an export has no use for.',
  too_many_groups: 'The query needs more group buckets in memory than the engine allows.',
  not_supported: 'The catalog or its adapter cannot answer this query (semantic search without vectors, …).',
  embeddings_unavailable:
    'The embeddings server that semantic search embeds queries with is down, too slow or answered badly (503).',
  not_found: 'No such route, entity type or entity.',
  page_unavailable:
    'A page for people (/playground, /docs) whose files are missing from this installation (503): the bundle of @oqlkit/playground is not built.',
  method_not_allowed: 'The path exists, but not for this HTTP method.',
  request_line_too_long: 'The GET request line is longer than 8,190 bytes; POST the query to / instead.',
  bad_request: 'The request could not be read (a malformed URL, such as a broken percent-encoding).',
  malformed_request:
    'Bytes that are not HTTP/1.1 (a request target with bytes it may not hold, a malformed header, broken chunked framing); answered by the server before any route, and the connection closed.',
  missing_host:
    'An HTTP/1.1 request without a Host header (RFC 9112 requires one); answered by the server before any route, and the connection closed.',
  request_head_too_large:
    'The request line and headers are larger than the server reads (431); POST long queries.',
  request_timeout: 'The request was not received in time (408).',
  invalid_body:
    'A POST body that is not a JSON object with exactly one query (oql, oqo or oxurl) and known siblings.',
  invalid_lookup:
    'A bulk lookup (POST /{entities}/lookup) whose ids are not a JSON list of at most 10,000 strings, or whose select or format is not one the route takes.',
  invalid_snowball:
    'A citation snowball (GET /works/snowball) without seed ids, with more than 500, or with a direction, depth or format it does not take.',
  snowball_too_large:
    'A citation snowball that reaches more than 10,000 works; the message says how to narrow it (depth=1, one direction, fewer seeds).',
  unknown_data_version:
    'A data_version= that names none of the versions of the data this server holds (GET / lists them): the data asked of is not served here any more, or the name is mistyped.',
  invalid_oql: 'An empty OQL text.',
  invalid_oqo: 'An OQO that is not a JSON object.',
  payload_too_large: 'A POST body over the size cap of the query endpoints.',
  invalid_entity: 'An entity type the properties registry does not have.',
  missing_parameter: 'A required parameter is absent (title= of the text-tagging endpoints).',
  text_too_short: 'Title plus abstract of a text-tagging request have fewer than 20 characters.',
  text_too_long: 'Title plus abstract of a text-tagging request have more than 2,000 characters.',
  tagger_unavailable: 'The catalog has no text-tagging model (ingested without one); re-ingest to build it.',
  internal_error: 'A fault of the server; the message hides its details.',
  query_timeout:
    'The query ran past the time budget of one request (10 s unless the server says otherwise) and was stopped (503, with Retry-After); the message says how to narrow it.',
  server_busy:
    'As many searches, group-bys and samples run and wait as the server takes (503 at once, with Retry-After); lists and single entities are still answered.',
  shutting_down: 'The server is shutting down (503, with Retry-After).',
  invalid_api_key:
    'The API key (api_key=, Bearer or the api_key header) is empty, malformed or unknown: 401, never silently anonymous.',
  invalid_authorization: "An Authorization header that is not 'Bearer <key>' (401).",
  conflicting_api_keys:
    'Two different API keys in one request (among api_key=, Authorization and the api_key header, or twice).',
  rate_limited:
    'More than 100 requests in one second from one key or address, or more than 1 per second to /text (429, with Retry-After).',
  budget_exhausted:
    'The daily budget (and prepaid balance) cannot pay for the call (429, until midnight UTC).',
  metering_off:
    'GET /rate-limit on a server that does not meter its API (404): no call is priced or limited, so there is no budget to report.',
} as const

export type ApiErrorCode = keyof typeof API_ERROR_CODES

/** One problem of a request, as the error body lists it. */
export interface ApiProblem {
  /**
   * A stable code: one of `API_ERROR_CODES` or of the URL, OQO and plan diagnostic codes. The body sends it
   * as `code`; the body's `error` is the public server's words for the kind of failure (`errorTitle`).
   */
  readonly error: string
  readonly message: string
  /** The query parameter at fault, when there is one. */
  readonly parameter?: string
}

/**
 * An error that becomes an HTTP response: its status, its stable code and a message that says what was
 * wrong and what is valid. Handlers throw it; the one `onError` mapper writes the JSON body
 * `{error, code, message, parameter?, errors?}` (`error` in the public server's words, such as "Invalid
 * query parameters error.", which clients match on; `errors` lists every problem, each `{code, message,
 * parameter?}`, when there are several), or `body` when the endpoint's contract adds to it (the query
 * endpoints' `validation`).
 */
export class ApiError extends Error {
  override readonly name = 'ApiError'
  readonly status: number
  readonly problems: readonly ApiProblem[]
  readonly headers: Readonly<Record<string, string>>
  /** The whole response body, when it is not the standard `{error, message, …}`. */
  readonly body: Readonly<Record<string, unknown>> | undefined

  constructor(
    status: number,
    problems: readonly ApiProblem[],
    headers: Readonly<Record<string, string>> = {},
    body?: Readonly<Record<string, unknown>>,
  ) {
    super(problems[0]?.message ?? 'Request failed')
    this.status = status
    this.problems = problems
    this.headers = headers
    this.body = body
  }

  /** The code of the first problem. */
  get code(): string {
    return this.problems[0]?.error ?? 'bad_request'
  }

  static of(status: number, error: string, message: string, parameter?: string): ApiError {
    return new ApiError(status, [
      parameter === undefined ? { error, message } : { error, message, parameter },
    ])
  }
}

/** True for an `ApiError`, also from another copy of this package (checks the name). */
export const isApiError = (error: unknown): error is ApiError =>
  error instanceof Error && error.name === 'ApiError' && Array.isArray((error as ApiError).problems)
