// Reads the input of the text-tagging endpoints: `title` (required) and `abstract` (optional), from the
// query string of a GET, or from a POST's JSON body (a POST without a body may use the query string too).
// Every problem is a 400 that names the parameter and what would be valid; nothing is tagged or charged.
import { type TaggingInput, TEXT_TAGGING_LIMITS, taggingInputLength } from '@oqlkit/engine'
import { parseBoundedJson } from '@oqlkit/oqo-schema'
import { ApiError } from '../errors/api-error.ts'
import { readCappedBody } from './capped-body-reader.ts'
import { collectKnownParameters } from './known-parameters.ts'
import { rawQueryOf } from './query-parameters.ts'

const TEXT_FIELDS = ['title', 'abstract'] as const
const CREDENTIAL_PARAMETERS = ['api_key', 'mailto']
/** Far above 2,000 characters of text in JSON (escapes included); larger bodies are refused unread. */
export const MAX_TEXT_BODY_BYTES = 64 * 1024

const { minCharacters, maxCharacters } = TEXT_TAGGING_LIMITS

/** The tagging input of a request, checked against the API's limits. */
export const readTaggingInput = async (request: Request, path: string): Promise<TaggingInput> => {
  const query = rawQueryOf(request.url)
  const bytes =
    request.method === 'POST' ? await readCappedBody(request, MAX_TEXT_BODY_BYTES) : new Uint8Array()
  if (bytes === undefined)
    throw ApiError.of(
      413,
      'payload_too_large',
      `The body is larger than ${MAX_TEXT_BODY_BYTES} bytes; ${path} reads at most ${maxCharacters} characters of title and abstract.`,
    )
  const fromBody = bytes.length > 0
  const { parameters, problems } = collectKnownParameters(
    query,
    fromBody ? CREDENTIAL_PARAMETERS : [...TEXT_FIELDS, ...CREDENTIAL_PARAMETERS],
    fromBody ? `${path} when the text is in the body` : path,
  )
  if (problems.length > 0) throw new ApiError(400, problems)
  const fields = fromBody
    ? readBodyFields(bytes, path)
    : { title: parameters.get('title')?.value, abstract: parameters.get('abstract')?.value }
  if (fields.title === undefined || fields.title.trim() === '')
    throw ApiError.of(
      400,
      'missing_parameter',
      `${path} needs title= (the text to tag, with an optional abstract=): ${fields.title === undefined ? 'it is absent' : 'it is empty'}.`,
      'title',
    )
  const input: TaggingInput =
    fields.abstract === undefined
      ? { title: fields.title }
      : { title: fields.title, abstract: fields.abstract }
  const length = taggingInputLength(input)
  if (length < minCharacters)
    throw ApiError.of(
      400,
      'text_too_short',
      `Title plus abstract have ${length} characters; the minimum is ${minCharacters}. Send a longer title or add an abstract.`,
    )
  if (length > maxCharacters)
    throw ApiError.of(
      400,
      'text_too_long',
      `Title plus abstract have ${length} characters; the maximum is ${maxCharacters}. Shorten the abstract (its first paragraphs carry most of its topics).`,
    )
  return input
}

function readBodyFields(bytes: Uint8Array, path: string): { title?: string; abstract?: string } {
  let body: unknown
  try {
    body = parseBoundedJson(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    throw ApiError.of(
      400,
      'invalid_body',
      `The body of POST ${path} is not JSON; send a JSON object with a "title" and an "abstract", both text.`,
    )
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw ApiError.of(
      400,
      'invalid_body',
      `The body of POST ${path} must be a JSON object with a "title" and an "abstract", both text, not ${Array.isArray(body) ? 'an array' : body === null ? 'null' : `a ${typeof body}`}.`,
    )
  const record = body as Record<string, unknown>
  const unknown = Object.keys(record).filter((key) => !(TEXT_FIELDS as readonly string[]).includes(key))
  if (unknown.length > 0)
    throw new ApiError(
      400,
      unknown.map((key) => ({
        error: 'unknown_parameter',
        parameter: key,
        message: `'${key}' is not a field of the ${path} body. Valid fields: title, abstract.`,
      })),
    )
  const fields: { title?: string; abstract?: string } = {}
  for (const name of TEXT_FIELDS) {
    const value = record[name]
    if (value === undefined || (value === null && name === 'abstract')) continue
    if (typeof value !== 'string')
      throw ApiError.of(
        400,
        'invalid_parameter',
        `${name} must be a string, not ${value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`}.`,
        name,
      )
    fields[name] = value
  }
  return fields
}
