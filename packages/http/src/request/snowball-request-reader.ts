// Reads a citation snowball (`GET /works/snowball?ids=W1|W2&direction=both&depth=1`): its seeds, the direction
// and depth of its steps, the fields to keep of each work and the format. Every refusal is a 400 naming what to send.
import {
  MAX_SNOWBALL_DEPTH,
  MAX_SNOWBALL_SEEDS,
  SNOWBALL_DIRECTIONS,
  type SnowballDirection,
} from '@oqlkit/engine'
import type { H3Event } from 'h3'
import { ApiError, type ApiProblem } from '../errors/api-error.ts'
import { rawQueryOf, readQueryParameters } from './query-parameters.ts'
import { unknownSelectProblem } from './select-problem.ts'

/** The path segment of the route after the entity's (`/works/snowball`). */
export const SNOWBALL_SEGMENT = 'snowball'

export type SnowballFormat = 'json' | 'jsonl'

export interface SnowballRequestParameters {
  /** The seeds as sent, in order: ids of any kind `/works/{id}` takes. */
  readonly ids: readonly string[]
  readonly direction: SnowballDirection
  readonly depth: number
  /** Top-level fields to keep of each work, or null for whole records. */
  readonly select: readonly string[] | null
  readonly format: SnowballFormat
}

const PARAMETERS = ['ids', 'direction', 'depth', 'select', 'format', 'api_key', 'mailto']
const FORMATS: readonly SnowballFormat[] = ['json', 'jsonl']

const problem = (message: string, parameter: string): ApiProblem => ({
  error: 'invalid_snowball',
  message,
  parameter,
})

const EXAMPLE = 'ids=W2741809807|10.1038/nature12373'

export function readSnowballRequest(event: H3Event): SnowballRequestParameters {
  const problems: ApiProblem[] = []
  const values = new Map<string, string>()
  for (const { name, written, value } of readQueryParameters(rawQueryOf(event.req.url))) {
    if (!PARAMETERS.includes(name))
      problems.push({
        error: 'unknown_parameter',
        parameter: written,
        message: `'${written}' is not a parameter of GET /works/snowball. Valid parameters: ${PARAMETERS.join(', ')}.`,
      })
    else if (values.has(name))
      problems.push({
        error: 'repeated_parameter',
        parameter: written,
        message: `${written}= appears more than once; give it once (seeds go in one ids=, separated by |).`,
      })
    else values.set(name, value)
  }

  const ids = (values.get('ids') ?? '')
    .split('|')
    .map((id) => id.trim())
    .filter((id) => id !== '')
  if (ids.length === 0)
    problems.push(
      problem(`A snowball starts from seed works: give their ids separated by |, as ${EXAMPLE}.`, 'ids'),
    )
  else if (ids.length > MAX_SNOWBALL_SEEDS)
    problems.push(
      problem(
        `ids= has ${ids.length.toLocaleString('en')} seeds; a snowball starts from at most ${MAX_SNOWBALL_SEEDS}. Split them over several requests.`,
        'ids',
      ),
    )

  const directionText = values.get('direction') ?? 'both'
  const direction = SNOWBALL_DIRECTIONS.find((candidate) => candidate === directionText)
  if (direction === undefined)
    problems.push(
      problem(
        `direction=${directionText} is not a direction: use cited (the works the seeds cite), citing (the works citing the seeds) or both (the default).`,
        'direction',
      ),
    )

  const depthText = values.get('depth') ?? '1'
  const depth = /^[0-9]{1,2}$/.test(depthText) ? Number(depthText) : Number.NaN
  if (!(depth >= 1 && depth <= MAX_SNOWBALL_DEPTH))
    problems.push(
      problem(
        `depth=${depthText} is not a depth: use 1 (the default: one step out from the seeds) or 2 (two steps).`,
        'depth',
      ),
    )

  const fields = (values.get('select') ?? '')
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '')
  const select = fields.length === 0 ? null : fields
  const selectProblem = select === null ? undefined : unknownSelectProblem('works', select)
  if (selectProblem !== undefined) problems.push(selectProblem)

  const formatText = values.get('format')
  let format: SnowballFormat = /application\/(?:x-ndjson|jsonl)/i.test(event.req.headers.get('accept') ?? '')
    ? 'jsonl'
    : 'json'
  if (formatText !== undefined) {
    const named = FORMATS.find((candidate) => candidate === formatText)
    if (named === undefined)
      problems.push(
        problem(
          `format=${formatText} is not a format of a snowball: use json (the default) or jsonl (one work or citation a line).`,
          'format',
        ),
      )
    else format = named
  }

  if (problems.length > 0) throw new ApiError(400, problems)
  return { ids, direction: direction!, depth, select, format }
}
