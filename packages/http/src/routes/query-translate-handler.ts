import type { StorageAdapter } from '@oqlkit/engine'
import { type TranslationError, type TranslationResult, translate } from '@oqlkit/oql'
import { decodePercentEscapes } from '@oqlkit/oqo-schema'
import type { H3Event } from 'h3'
import { queryProblem, translationError } from '../errors/query-error.ts'
import { readJsonObjectBody } from '../request/query-body-reader.ts'
import { rawPathOf, rawQueryOf } from '../request/query-parameters.ts'
import { catalogNameLookup } from './catalog-name-lookup.ts'

const TRANSLATE_KEYS = ['oql', 'oqo', 'oxurl']
// In words, not JSON: clients that format error messages read braces as placeholders to fill in.
const BODY_EXAMPLE =
  'a JSON object with one of "oql" (OQL text, such as "works where year is 2020"), "oqo" (an OQO object) or "oxurl" (a classic URL, such as "/works?filter=publication_year:2020")'

/** A translation that failed before `translate()` was asked, in its result shape. */
const failedTranslation = (error: TranslationError): TranslationResult => ({
  oxurl: null,
  oql: null,
  oql_oneline: null,
  oql_render_v2: null,
  oqo: null,
  validation: { valid: false, errors: [error], warnings: [] },
})

// Percent escapes only: a `+` in a path is a plus. A `%` that starts no escape stays as written.
const decodePath = decodePercentEscapes

/**
 * Translates and answers: the result as `translate()` writes it, with `[annotations]` after ids taken
 * from the catalog's names (a second printing, only when the query names ids). Nothing is executed and
 * nothing is charged. An invalid query is a 400 whose body is the same result object.
 */
const answer = async (
  adapter: StorageAdapter,
  input: Record<string, unknown>,
): Promise<TranslationResult> => {
  const plain = translate(input)
  if (!plain.validation.valid || plain.oqo === null) throw translationError(plain)
  const names = await catalogNameLookup(adapter, plain.oqo)
  return names === undefined ? plain : translate(input, { names })
}

/** `GET /query`: what the translate endpoints are and where they are described. */
export const queryDescriptorHandler = (): unknown => ({
  msg: 'Translate a query between its three forms (OQL, OQO, classic URL): GET /query/oql/ followed by the OQL, /query/oqo/ followed by the OQO, /query/oxurl/ followed by the classic URL, or POST /query with a JSON body holding one of "oql", "oqo" or "oxurl". Run a query with GET /?oql=… or POST /.',
  documentation_url: '/openapi.json',
})

/**
 * `GET /query/oql/{oql}`, `/query/oqo/{oqo}`, `/query/oxurl/{url}`: the query is the rest of the path,
 * URL-encoded or plain. For OQL and OQO the query string is not part of it; a classic URL keeps its own
 * (`/query/oxurl/works?filter=…`).
 */
export const queryTranslatePathHandler =
  (adapter: StorageAdapter, form: 'oql' | 'oqo' | 'oxurl') =>
  (event: H3Event): Promise<TranslationResult> => {
    const prefix = `/query/${form}`
    const path = rawPathOf(event.req.url)
    const text = decodePath(path.length > prefix.length ? path.slice(prefix.length + 1) : '')
    const search = rawQueryOf(event.req.url)
    const query = form === 'oxurl' && search !== '' ? `${text}?${search}` : text
    return answer(adapter, { [form]: query })
  }

/** `POST /query` with a JSON body holding exactly one of `oql`, `oqo` or `oxurl` (no length limit but the cap). */
export const queryTranslatePostHandler =
  (adapter: StorageAdapter) =>
  async (event: H3Event): Promise<TranslationResult> => {
    const reading = await readJsonObjectBody(event.req, BODY_EXAMPLE)
    if (!reading.ok) throw translationError(failedTranslation(reading.error), reading.status)
    const unknown = Object.keys(reading.body).filter((key) => !TRANSLATE_KEYS.includes(key))
    if (unknown.length > 0)
      throw translationError(
        failedTranslation(
          queryProblem(
            'invalid_body',
            'invalid_body',
            `${unknown.map((key) => `'${key}'`).join(', ')} ${unknown.length === 1 ? 'is not a key' : 'are not keys'} of the body. Send exactly one of oql, oqo or oxurl: ${BODY_EXAMPLE}.`,
            unknown[0],
          ),
        ),
      )
    return answer(adapter, reading.body)
  }
