import { isViewParameterName, readSelectText, readViewParameter, type TranslationError } from '@oqlkit/oql'
import { queryProblem } from '../errors/query-error.ts'
import { readJsonObjectBody } from './query-body-reader.ts'
import { readQueryParameters } from './query-parameters.ts'
import type { ViewSiblings } from './view-precedence.ts'
import { viewProblemMessage } from './view-problem-message.ts'

/** The query of an execute request: OQL text, or an OQO (an object from a body, JSON text from a URL). */
export interface QueryInput {
  readonly form: 'oql' | 'oqo'
  readonly value: unknown
}

/** An execute request (`GET /?oql=`, `GET /?oqo=`, `POST /`) read, before its query is. */
export interface ExecuteRequest {
  readonly input: QueryInput
  /** The view siblings by precedence, highest first: the body's (POST), then the query string's. */
  readonly siblings: readonly ViewSiblings[]
  readonly apiKey?: string
}

export type ExecuteReading =
  | { readonly ok: true; readonly request: ExecuteRequest }
  | { readonly ok: false; readonly status: number; readonly errors: readonly TranslationError[] }

/** The query-string parameters of the execute endpoint besides `oql` and `oqo`. */
export const EXECUTE_VIEW_PARAMETERS = ['sort', 'select', 'per_page', 'page', 'cursor', 'api_key', 'mailto']
const QUERY_PARAMETERS = ['oql', 'oqo']

/** The keys a `POST /` body may have. */
export const EXECUTE_BODY_KEYS = ['oql', 'oqo', 'sort', 'select', 'page', 'per_page', 'cursor']

// In words, not JSON: clients that format error messages read braces as placeholders to fill in.
const BODY_EXAMPLE =
  'a JSON object with "oql" (OQL text, such as "works where year is 2020") or "oqo" (an OQO object), and optional siblings such as "sort": "cited_by_count:desc"'

/** Whether a query string asks the root to execute a query (`oql=` or `oqo=`) rather than for the health check. */
export const asksToExecute = (search: string): boolean =>
  readQueryParameters(search).some((parameter) => QUERY_PARAMETERS.includes(parameter.name))

interface QueryStringReading {
  readonly input?: QueryInput
  readonly siblings: ViewSiblings
  readonly apiKey?: string
  readonly errors: TranslationError[]
}

// The view siblings, key and query of a query string, with the problems of each parameter.
const readQueryString = (search: string, takesQuery: boolean): QueryStringReading => {
  const errors: TranslationError[] = []
  const siblings: { -readonly [K in keyof ViewSiblings]: ViewSiblings[K] } = {}
  const seen = new Set<string>()
  let input: QueryInput | undefined
  let apiKey: string | undefined
  for (const { name, written, value } of readQueryParameters(search)) {
    if (QUERY_PARAMETERS.includes(name) && !takesQuery) {
      errors.push(
        queryProblem(
          'invalid_body',
          'invalid_body',
          `${written}= in the URL of a POST: send the query in the JSON body, as its "${name}" field.`,
          written,
        ),
      )
      continue
    }
    if (!QUERY_PARAMETERS.includes(name) && !EXECUTE_VIEW_PARAMETERS.includes(name)) {
      errors.push(
        queryProblem(
          'bad_request',
          'unknown_parameter',
          `'${written}' is not a parameter of the OQL endpoint. It takes oql or oqo, and ${EXECUTE_VIEW_PARAMETERS.join(', ')}; filters, search, sample and group_by are written in the query itself.`,
          written,
        ),
      )
      continue
    }
    if (seen.has(name) || (QUERY_PARAMETERS.includes(name) && input !== undefined)) {
      errors.push(
        queryProblem(
          'bad_request',
          QUERY_PARAMETERS.includes(name) ? 'invalid_parameter' : 'repeated_parameter',
          QUERY_PARAMETERS.includes(name)
            ? 'Give exactly one query: oql= or oqo=, once.'
            : `${written}= appears more than once; give it once.`,
          written,
        ),
      )
      continue
    }
    seen.add(name)
    if (name === 'oql' || name === 'oqo') input = { form: name, value }
    else if (isViewParameterName(name)) {
      const read = readViewParameter(name, value)
      if (!read.ok)
        errors.push(
          queryProblem(
            'bad_request',
            read.problem.code,
            viewProblemMessage(read.problem, written),
            read.problem.name,
          ),
        )
      else {
        Object.assign(siblings, read.view)
        if (read.view.sort !== undefined) siblings.sortText = value.trim()
      }
    } else if (name === 'api_key') apiKey = value
  }
  return {
    siblings,
    errors,
    ...(input === undefined ? {} : { input }),
    ...(apiKey === undefined ? {} : { apiKey }),
  }
}

/** Reads `GET /?oql=…` or `GET /?oqo=…` with its view parameters. */
export const readExecuteGet = (search: string): ExecuteReading => {
  const read = readQueryString(search, true)
  if (read.input === undefined && read.errors.length === 0)
    read.errors.push(
      queryProblem(
        'bad_request',
        'invalid_parameter',
        'Give the query as oql=… or oqo=… (URL-encoded JSON).',
      ),
    )
  if (read.errors.length > 0 || read.input === undefined)
    return { ok: false, status: 400, errors: read.errors }
  return {
    ok: true,
    request: {
      input: read.input,
      siblings: [read.siblings],
      ...(read.apiKey === undefined ? {} : { apiKey: read.apiKey }),
    },
  }
}

const bodyKeyError = (key: string): TranslationError =>
  key === 'sample' || key === 'seed'
    ? queryProblem(
        'invalid_body',
        'invalid_body',
        `${key} is part of the query, not a sibling of it: put it inside the OQO, beside its "get_rows" ("sample": 100, "seed": "7"), or write it in OQL (works sample 100 seed 7).`,
        key,
      )
    : queryProblem(
        'invalid_body',
        'invalid_body',
        `'${key}' is not a key of the body. The body holds exactly one of oql (string) or oqo (object), and optionally ${EXECUTE_BODY_KEYS.slice(2).join(', ')}.`,
        key,
      )

const isWholeNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0

// The siblings of a body, each of its documented type.
const readBodySiblings = (
  body: Readonly<Record<string, unknown>>,
  errors: TranslationError[],
): ViewSiblings => {
  const siblings: { -readonly [K in keyof ViewSiblings]: ViewSiblings[K] } = {}
  const wrongType = (key: string, expected: string) =>
    errors.push(
      queryProblem(
        'invalid_body',
        'invalid_body',
        `${key} must be ${expected} (was ${JSON.stringify(body[key])}).`,
        key,
      ),
    )
  const { sort, select, page, per_page, cursor } = body
  if (sort !== undefined && sort !== null) {
    if (typeof sort !== 'string') wrongType('sort', 'a string such as "cited_by_count:desc,id:asc"')
    else {
      const read = readViewParameter('sort', sort)
      if (read.ok && read.view.sort !== undefined) {
        siblings.sort = read.view.sort
        siblings.sortText = sort.trim()
      }
    }
  }
  if (select !== undefined && select !== null) {
    if (typeof select === 'string') {
      const fields = readSelectText(select)
      if (fields.length > 0) siblings.select = fields
    } else if (Array.isArray(select) && select.every((field) => typeof field === 'string')) {
      const fields = select.map((field: string) => field.trim()).filter((field) => field !== '')
      if (fields.length > 0) siblings.select = fields
    } else wrongType('select', 'a comma-separated string or an array of field names')
  }
  if (page !== undefined && page !== null) {
    if (!isWholeNumber(page)) wrongType('page', 'a whole number from 1')
    else siblings.page = page
  }
  if (per_page !== undefined && per_page !== null) {
    if (!isWholeNumber(per_page)) wrongType('per_page', 'a whole number, such as 25')
    else siblings.perPage = per_page
  }
  if (cursor !== undefined && cursor !== null) {
    if (typeof cursor !== 'string' || cursor.trim() === '')
      wrongType('cursor', '"*" for the first page, then meta.next_cursor')
    else siblings.cursor = cursor.trim()
  }
  return siblings
}

/**
 * Reads `POST /`: a JSON object body with exactly one of `oql` (string) or `oqo` (object) and the view
 * siblings `sort`, `select`, `page`, `per_page`, `cursor`; anything else (a top-level `sample` or `seed`
 * included) is a 400 `invalid_body`. View parameters in the query string are read too, below the body's.
 */
export const readExecutePost = async (request: Request, search: string): Promise<ExecuteReading> => {
  const reading = await readJsonObjectBody(request, BODY_EXAMPLE)
  if (!reading.ok) return { ok: false, status: reading.status, errors: [reading.error] }
  const { body } = reading
  const errors: TranslationError[] = []
  for (const key of Object.keys(body)) if (!EXECUTE_BODY_KEYS.includes(key)) errors.push(bodyKeyError(key))
  const given = (['oql', 'oqo'] as const).filter((key) => key in body)
  let input: QueryInput | undefined
  if (given.length !== 1)
    errors.push(
      queryProblem(
        'invalid_body',
        'invalid_body',
        given.length === 0
          ? `The body has no query. Send exactly one of oql or oqo: ${BODY_EXAMPLE}.`
          : 'The body has both oql and oqo. Send exactly one of them.',
      ),
    )
  else if (given[0] === 'oql' && typeof body.oql !== 'string')
    errors.push(
      queryProblem(
        'invalid_body',
        'invalid_body',
        `oql must be a string of OQL text (was ${JSON.stringify(body.oql)}).`,
        'oql',
      ),
    )
  else if (
    given[0] === 'oqo' &&
    (typeof body.oqo !== 'object' || body.oqo === null || Array.isArray(body.oqo))
  )
    errors.push(
      queryProblem(
        'invalid_body',
        'invalid_body',
        `oqo must be a JSON object: an OQO, whose "get_rows" names the entity, such as "get_rows": "works" (was ${JSON.stringify(body.oqo)}).`,
        'oqo',
      ),
    )
  else input = { form: given[0]!, value: body[given[0]!] }
  const bodySiblings = readBodySiblings(body, errors)
  const fromUrl = readQueryString(search, false)
  errors.push(...fromUrl.errors)
  if (errors.length > 0 || input === undefined) return { ok: false, status: 400, errors }
  return {
    ok: true,
    request: {
      input,
      siblings: [bodySiblings, fromUrl.siblings],
      ...(fromUrl.apiKey === undefined ? {} : { apiKey: fromUrl.apiKey }),
    },
  }
}
