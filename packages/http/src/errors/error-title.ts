/**
 * The `error` of an error body: the public server's wording for the kind of failure, which clients match
 * on. pyalex raises its `QueryError` (with our `message`) only for a 400 whose `error` contains "query
 * parameters" and a 401 whose `error` contains "API key"; anything else is a bare HTTP error to its users.
 * Our stable code goes beside it, in `code`.
 */
export const QUERY_PARAMETERS_ERROR = 'Invalid query parameters error.'
/** The public server's `APIPaginationError`: a page or per_page it cannot page with (past 10,000 results). */
export const PAGINATION_ERROR = 'Pagination error.'
/** The public proxy's 401. */
export const API_KEY_ERROR = 'Invalid or missing API key'
/** The public proxy's 429, for the rate and the budget alike. */
export const RATE_LIMIT_ERROR = 'Rate limit exceeded'

// The public server's pagination refusals (page below 1 or past 10,000 results, per_page outside 1 to 200)
// have codes of their own here. Ours also cover a page or per_page that is not a whole number, which the
// public server calls a query parameters error; the code cannot tell them apart.
const PAGINATION_CODES: ReadonlySet<string> = new Set(['invalid_page', 'invalid_per_page'])

// 400s that are not about the query parameters: bytes that are not HTTP, a URL that cannot be decoded, a
// request body (the collection endpoints' JSON fields, the execute endpoint's body). They get the status's
// own words, so a client does not report a broken body as a bad query.
const NOT_QUERY_CODES: ReadonlySet<string> = new Set([
  'malformed_request',
  'missing_host',
  'bad_request',
  'invalid_body',
  'entity_type_invalid',
  'display_name_invalid',
  'display_name_too_long',
  'display_name_duplicate',
  'description_invalid',
  'entity_id_invalid',
  'entity_id_wrong_type',
  'collection_full',
  'too_many_collections',
])

// The reason phrases of the statuses the API answers with, for the kinds the public server has no words for.
const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
}

/** Every `error` a body can have (for the OpenAPI document). */
export const ERROR_TITLES: readonly string[] = [
  QUERY_PARAMETERS_ERROR,
  PAGINATION_ERROR,
  API_KEY_ERROR,
  RATE_LIMIT_ERROR,
  ...Object.values(REASON_PHRASES),
  'Client Error',
  'Server Error',
]

/**
 * The `error` of a refusal with this status and these problems' codes (the first first). A 400 is a
 * pagination error when every problem is one, "Bad Request" when none is about the query, and a query
 * parameters error otherwise: so a request with a bad per_page and an unknown filter is still the
 * QueryError pyalex users expect.
 */
export const errorTitle = (status: number, codes: readonly string[]): string => {
  if (status === 400) {
    if (codes.length > 0 && codes.every((code) => PAGINATION_CODES.has(code))) return PAGINATION_ERROR
    return codes.length > 0 && codes.every((code) => NOT_QUERY_CODES.has(code))
      ? REASON_PHRASES[400]!
      : QUERY_PARAMETERS_ERROR
  }
  if (status === 401) return API_KEY_ERROR
  if (status === 429) return RATE_LIMIT_ERROR
  return REASON_PHRASES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error')
}
