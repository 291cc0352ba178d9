// `POST /{entities}/lookup`: up to 10,000 ids of any kind a singleton path takes, answered one result per id
// in the order sent, each the record (merged ids followed to the record they were merged into) or null with
// the reason. Priced like a list per thousand ids, charged before the lookup runs and refunded if it fails.
import type { StorageAdapter } from '@oqlkit/engine'
import type { H3Event } from 'h3'
import { dataVersionMeta } from '../envelope/data-version.ts'
import { recordJsonBytes } from '../envelope/record-json-bytes.ts'
import { meteredRequestOf } from '../metering/metered-request.ts'
import { recordsCostUsd } from '../metering/records-price.ts'
import { entityOfPath } from '../request/entity-paths.ts'
import { type LookupRequest, readLookupRequest } from '../request/lookup-request-reader.ts'
import { type HoldOpen, jsonOrLinesResponse } from '../server/generated-response.ts'
import { type LookupOutcome, lookUpIds } from './entity-id-lookup.ts'
import { unknownEntityError } from './entity-list-handler.ts'

const encoder = new TextEncoder()

/** One result as JSON bytes: `{"input", "merged_into"?, "record"}` or `{"input", "record": null, "error", "message"}`. */
const resultBytes = (
  input: string,
  outcome: LookupOutcome,
  select: ReadonlySet<string> | null,
): Uint8Array[] => {
  if (outcome.kind === 'miss')
    return [
      encoder.encode(JSON.stringify({ input, record: null, error: outcome.error, message: outcome.message })),
    ]
  const head = `{"input":${JSON.stringify(input)}${outcome.mergedInto === undefined ? '' : `,"merged_into":${JSON.stringify(`https://openalex.org/${outcome.mergedInto}`)}`},"record":`
  return [encoder.encode(head), recordJsonBytes(outcome.record, select), encoder.encode('}')]
}

/** The answer's bytes, a result at a time: JSON with `meta`, or JSON Lines of the results alone. */
function* bodyPieces(
  request: LookupRequest,
  outcomes: readonly LookupOutcome[],
  costUsd: number,
  versionMeta: ReturnType<typeof dataVersionMeta>,
): Generator<Uint8Array, void, undefined> {
  const select = request.select === null ? null : new Set(request.select)
  if (request.format === 'jsonl') {
    const newline = encoder.encode('\n')
    for (const [at, outcome] of outcomes.entries()) {
      yield* resultBytes(request.ids[at]!, outcome, select)
      yield newline
    }
    return
  }
  const found = outcomes.filter((outcome) => outcome.kind === 'found').length
  const meta = {
    count: outcomes.length,
    found,
    missing: outcomes.length - found,
    cost_usd: costUsd,
    ...versionMeta,
  }
  yield encoder.encode(`{"meta":${JSON.stringify(meta)},"results":[`)
  const comma = encoder.encode(',')
  for (const [at, outcome] of outcomes.entries()) {
    if (at > 0) yield comma
    yield* resultBytes(request.ids[at]!, outcome, select)
  }
  yield encoder.encode(']}')
}

export const entityLookupHandler =
  (adapter: StorageAdapter, holdOpen?: HoldOpen) =>
  async (event: H3Event): Promise<Response> => {
    const segment = event.url.pathname.split('/')[1] ?? ''
    const entity = entityOfPath(segment)
    if (entity === undefined) throw unknownEntityError(segment)
    const request = await readLookupRequest(event, entity)
    const costUsd = recordsCostUsd(request.ids.length)
    // Priced by its ids, known once the body is read: a budget that cannot pay is refused before the lookup,
    // and a lookup that fails is refunded with the rest of the request.
    const metered = meteredRequestOf(event)
    if (metered !== undefined && costUsd > 0) {
      const refused = await metered.chargeMore(costUsd)
      if (refused !== undefined) return refused
    }
    // What is selected is all that is read where the storage can: `select=id` reads no record.
    const outcomes = await lookUpIds(adapter, entity, request.ids, request.select)
    return jsonOrLinesResponse(
      bodyPieces(request, outcomes, costUsd, dataVersionMeta(event)),
      request.format,
      holdOpen,
    )
  }
