// `GET /works/snowball?ids=…&direction=both|cited|citing&depth=1|2`: from seed works (ids of any kind a work's
// path takes), the works they cite and the works citing them, with every citation between the works found, in
// one answer: what openalexR's `oa_snowball` and review tools gather page by page. Priced like a list per
// thousand works answered, charged once the snowball is known and only when it is answered.
import {
  costUsdOf,
  isSnowballTooLargeError,
  MAX_SNOWBALL_NODES,
  type SnowballResult,
  type StorageAdapter,
  snowballWorks,
} from '@oqlkit/engine'
import type { H3Event } from 'h3'
import { dataVersionMeta } from '../envelope/data-version.ts'
import { recordJsonBytes } from '../envelope/record-json-bytes.ts'
import { ApiError } from '../errors/api-error.ts'
import { meteredRequestOf } from '../metering/metered-request.ts'
import { recordsCostUsd } from '../metering/records-price.ts'
import { readSnowballRequest, type SnowballRequestParameters } from '../request/snowball-request-reader.ts'
import { type HoldOpen, jsonOrLinesResponse } from '../server/generated-response.ts'
import { type LookupOutcome, lookUpIds } from './entity-id-lookup.ts'

const encoder = new TextEncoder()
const urlOf = (id: string): string => `https://openalex.org/${id}`

/** A seed that found no work: its input and why, as a lookup's miss says it. */
interface SeedMiss {
  readonly input: string
  readonly error: string
  readonly message: string
}

const tooLargeError = (request: SnowballRequestParameters, depth: number, reached: number): ApiError => {
  const narrower = [
    // depth=1 helps only when the limit was passed at the second step.
    ...(depth > 1 ? ['depth=1'] : []),
    ...(request.direction === 'both' ? ['one direction (cited or citing)'] : []),
    'fewer seeds',
  ]
  return ApiError.of(
    400,
    'snowball_too_large',
    `From ${request.ids.length.toLocaleString('en')} seed${request.ids.length === 1 ? '' : 's'}, the snowball reaches more than ${MAX_SNOWBALL_NODES.toLocaleString('en')} works by step ${depth} (at least ${reached.toLocaleString('en')}), the most one answer holds. Ask for ${narrower.join(', or ')}.`,
  )
}

/**
 * The answer's bytes, a work or a citation at a time: JSON with `meta`, or JSON Lines of seeds not found, then
 * works, then citations.
 */
function* bodyPieces(
  request: SnowballRequestParameters,
  misses: readonly SeedMiss[],
  result: SnowballResult,
  costUsd: number,
  versionMeta: ReturnType<typeof dataVersionMeta>,
): Generator<Uint8Array, void, undefined> {
  const select = request.select === null ? null : new Set(request.select)
  const node = (
    id: string,
    depth: number,
    record: SnowballResult['nodes'][number]['record'],
    jsonl: boolean,
  ): Uint8Array[] => {
    const url = JSON.stringify(urlOf(id))
    return [
      encoder.encode(`{${jsonl ? '"type":"work",' : ''}"id":${url},"depth":${depth},"record":`),
      // Without a record (ids were all that was selected) the record is its id.
      record === undefined ? encoder.encode(`{"id":${url}}`) : recordJsonBytes(record, select),
      encoder.encode(jsonl ? '}\n' : '}'),
    ]
  }
  const edgeJson = (citing: string, cited: string) =>
    `"citing":${JSON.stringify(urlOf(citing))},"cited":${JSON.stringify(urlOf(cited))}`
  if (request.format === 'jsonl') {
    for (const miss of misses)
      yield encoder.encode(`${JSON.stringify({ type: 'seed_not_found', ...miss })}\n`)
    for (const { id, depth, record } of result.nodes) yield* node(id, depth, record, true)
    for (const { citing, cited } of result.edges)
      yield encoder.encode(`{"type":"citation",${edgeJson(citing, cited)}}\n`)
    return
  }
  const meta = {
    count: result.nodes.length,
    citations_count: result.edges.length,
    seeds_found: result.nodes.filter((found) => found.depth === 0).length,
    direction: request.direction,
    depth: request.depth,
    cited_not_held: result.citedNotHeld,
    cost_usd: costUsd,
    ...versionMeta,
  }
  yield encoder.encode(
    `{"meta":${JSON.stringify(meta)},"seeds_not_found":${JSON.stringify(misses)},"works":[`,
  )
  const comma = encoder.encode(',')
  for (const [at, { id, depth, record }] of result.nodes.entries()) {
    if (at > 0) yield comma
    yield* node(id, depth, record, false)
  }
  yield encoder.encode('],"citations":[')
  for (const [at, { citing, cited }] of result.edges.entries())
    yield encoder.encode(`${at > 0 ? ',' : ''}{${edgeJson(citing, cited)}}`)
  yield encoder.encode(']}')
}

export const worksSnowballHandler =
  (adapter: StorageAdapter, holdOpen?: HoldOpen) =>
  async (event: H3Event): Promise<Response> => {
    const request = readSnowballRequest(event)
    const outcomes = await lookUpIds(adapter, 'works', request.ids)
    const seeds = outcomes.flatMap((outcome) => (outcome.kind === 'found' ? [outcome.record] : []))
    const misses = outcomes.flatMap((outcome: LookupOutcome, at): SeedMiss[] =>
      outcome.kind === 'miss'
        ? [{ input: request.ids[at]!, error: outcome.error, message: outcome.message }]
        : [],
    )
    let result: SnowballResult
    try {
      result = await snowballWorks(adapter, {
        seeds,
        direction: request.direction,
        depth: request.depth,
        // An answer of ids needs no record: a storage with its own citation lookup then reads none.
        records: request.select?.every((field) => field === 'id') !== true,
      })
    } catch (error) {
      if (isSnowballTooLargeError(error)) throw tooLargeError(request, error.depth, error.reached)
      throw error
    }
    // A list call was charged at the gate; the works answered past the first thousand are known only now (a
    // budget that cannot pay them is refused with 429, and the gate's charge is refunded with the request).
    const costUsd = Math.max(costUsdOf('list'), recordsCostUsd(result.nodes.length))
    const metered = meteredRequestOf(event)
    const more = costUsd - costUsdOf('list')
    if (metered !== undefined && more > 0) {
      const refused = await metered.chargeMore(more)
      if (refused !== undefined) return refused
    }
    return jsonOrLinesResponse(
      bodyPieces(request, misses, result, costUsd, dataVersionMeta(event)),
      request.format,
      holdOpen,
    )
  }
