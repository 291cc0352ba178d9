// Reads a bulk lookup (`POST /{entities}/lookup`): a JSON object `{"ids": [...], "select": ...}` and the
// query parameters the route takes. Every refusal is a 400 (413 past the body cap) naming what to send.
import { MAX_LOOKUP_IDS } from '@oqlkit/engine'
import { type EntityType, entityPath } from '@oqlkit/oqo-schema'
import type { H3Event } from 'h3'
import { ApiError, type ApiProblem } from '../errors/api-error.ts'
import { readJsonObjectBody } from './query-body-reader.ts'
import { rawQueryOf, readQueryParameters } from './query-parameters.ts'
import { unknownSelectProblem } from './select-problem.ts'

/** The path segment of the route after the entity's (`/works/lookup`). */
export const LOOKUP_SEGMENT = 'lookup'

export type LookupFormat = 'json' | 'jsonl'

export interface LookupRequest {
  /** The ids as sent, in order (duplicates kept: each gets its own result). */
  readonly ids: readonly string[]
  /** Top-level fields to keep of each record, or null for whole records. */
  readonly select: readonly string[] | null
  readonly format: LookupFormat
}

const QUERY_PARAMETERS = ['select', 'format', 'api_key', 'mailto']
const BODY_KEYS = ['ids', 'select']
const FORMATS: readonly LookupFormat[] = ['json', 'jsonl']
/** How many bad entries of `ids` a refusal names before it stops counting them one by one. */
const NAMED_BAD_IDS = 5

const example = (entity: EntityType) =>
  `{"ids": ["${entity === 'works' ? '10.1038/nature12373' : 'an id'}", …]} (at most ${MAX_LOOKUP_IDS.toLocaleString('en')})`

const problem = (message: string, parameter?: string): ApiProblem => ({
  error: 'invalid_lookup',
  message,
  ...(parameter === undefined ? {} : { parameter }),
})

/** `select` as a comma list (query or body) or a list of names (body); null when absent or empty. */
const selectOf = (value: unknown, problems: ApiProblem[]): string[] | null => {
  const names =
    typeof value === 'string'
      ? value.split(',')
      : Array.isArray(value) && value.every((name) => typeof name === 'string')
        ? (value as string[])
        : undefined
  if (names === undefined) {
    problems.push(
      problem('select must be a comma-separated list of field names, or a JSON list of them.', 'select'),
    )
    return null
  }
  const fields = names.map((name) => name.trim()).filter((name) => name !== '')
  return fields.length === 0 ? null : fields
}

export async function readLookupRequest(event: H3Event, entity: EntityType): Promise<LookupRequest> {
  const problems: ApiProblem[] = []
  const list = entityPath(entity)
  let select: string[] | null = null
  let format: LookupFormat = 'json'
  const seen = new Set<string>()
  for (const { name, written, value } of readQueryParameters(rawQueryOf(event.req.url))) {
    if (!QUERY_PARAMETERS.includes(name))
      problems.push({
        error: 'unknown_parameter',
        parameter: written,
        message: `'${written}' is not a parameter of POST /${list}/lookup. Valid parameters: ${QUERY_PARAMETERS.join(', ')}; the ids go in the body.`,
      })
    else if (seen.has(name))
      problems.push({
        error: 'repeated_parameter',
        parameter: written,
        message: `${written}= appears more than once; give it once.`,
      })
    else if (name === 'select') select = selectOf(value, problems)
    else if (name === 'format') {
      if ((FORMATS as readonly string[]).includes(value)) format = value as LookupFormat
      else
        problems.push(
          problem(
            `format=${value} is not a format of a lookup: use json (the default) or jsonl (one result a line).`,
            'format',
          ),
        )
    }
    seen.add(name)
  }
  const accept = event.req.headers.get('accept') ?? ''
  if (!seen.has('format') && /application\/(?:x-ndjson|jsonl)/i.test(accept)) format = 'jsonl'

  const reading = await readJsonObjectBody(event.req, example(entity))
  if (!reading.ok)
    throw ApiError.of(
      reading.status,
      reading.status === 413 ? 'payload_too_large' : 'invalid_body',
      reading.error.message,
    )
  const { body } = reading
  for (const key of Object.keys(body))
    if (!BODY_KEYS.includes(key))
      problems.push(
        problem(
          `The body has '${key}', which a lookup does not take: send ${example(entity)}, and select if you want some fields only.`,
        ),
      )
  if ('select' in body) {
    if (seen.has('select'))
      problems.push(problem('select is given both in the query and in the body; give it once.', 'select'))
    else select = selectOf(body.select, problems)
  }
  const ids = body.ids
  if (!Array.isArray(ids)) problems.push(problem(`The body has no list of ids: send ${example(entity)}.`))
  else if (ids.length > MAX_LOOKUP_IDS)
    problems.push(
      problem(
        `The body has ${ids.length.toLocaleString('en')} ids; a lookup takes at most ${MAX_LOOKUP_IDS.toLocaleString('en')}. Send them in several requests.`,
      ),
    )
  else {
    const bad = ids.flatMap((id, at) => (typeof id === 'string' ? [] : [at]))
    if (bad.length > 0)
      problems.push(
        problem(
          `Every id must be a string; ${bad.length === 1 ? 'the one' : `the ${bad.length.toLocaleString('en')}`} at ${bad
            .slice(0, NAMED_BAD_IDS)
            .map((at) => `ids[${at}]`)
            .join(', ')}${bad.length > NAMED_BAD_IDS ? ', …' : ''} ${bad.length === 1 ? 'is' : 'are'} not.`,
        ),
      )
  }
  const selectProblem = select === null ? undefined : unknownSelectProblem(entity, select)
  if (selectProblem !== undefined) problems.push(selectProblem)
  if (problems.length > 0) throw new ApiError(400, problems)
  return { ids: ids as string[], select, format }
}
