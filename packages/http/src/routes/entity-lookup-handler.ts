// `POST /{entities}/lookup`: up to 10,000 ids of any kind a singleton path takes, answered one result per id
// in the order sent, each the record (merged ids followed to the record they were merged into) or null with
// the reason. Priced like a list per thousand ids, charged before the lookup runs and refunded if it fails.
import {
  costUsdOf,
  type EntityRecord,
  type LookupKey,
  type LookupResult,
  lookupEntities,
  pickJsonMembers,
  type StorageAdapter,
  selectFields,
} from '@oqlkit/engine'
import { type EntityType, entityPath } from '@oqlkit/oqo-schema'
import type { H3Event } from 'h3'
import { meteredRequestOf } from '../metering/metered-request.ts'
import { entityOfPath } from '../request/entity-paths.ts'
import { type LookupRequest, readLookupRequest } from '../request/lookup-request-reader.ts'
import { readSingletonId, SINGLETON_ID_FORMS } from '../request/singleton-id-reader.ts'
import { concatChunks } from '../server/byte-chunks.ts'
import { bytesResponse } from '../server/byte-responses.ts'
import { unknownEntityError } from './entity-list-handler.ts'

/** Ids a list call's price pays for. */
const IDS_PER_LIST_PRICE = 1000

/** What a lookup of `ids` ids costs: a list call per thousand, started (none for no ids). */
export const lookupCostUsd = (ids: number): number => Math.ceil(ids / IDS_PER_LIST_PRICE) * costUsdOf('list')

/** Why an id found no record (`error` of its result). */
export type LookupMiss = 'not_an_id' | 'other_entity' | 'not_found' | 'deleted'

/** One result as it is written: the record's JSON (bytes as stored, or an object), or a miss. */
type LookupOutcome =
  | { readonly kind: 'found'; readonly record: Uint8Array | EntityRecord; readonly mergedInto?: string }
  | { readonly kind: 'miss'; readonly error: LookupMiss; readonly message: string }

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/**
 * The longest id looked up: the longest DOIs are a few hundred characters, and the id readers' patterns take
 * time that grows faster than an id's length (a path's 8 KB line bounds them for singletons; a lookup's body
 * is 4 MB).
 */
export const MAX_LOOKUP_ID_LENGTH = 2048

/** Unpaired surrogates as U+FFFD, as a singleton's path decodes them (a storage may refuse them as JSON). */
const wellFormed = (text: string): string =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')

/** What each input names: a key to look up, or a miss known without looking. */
const keyOf = (entity: EntityType, input: string): LookupKey | LookupOutcome => {
  const list = entityPath(entity)
  if (input.length > MAX_LOOKUP_ID_LENGTH)
    return {
      kind: 'miss',
      error: 'not_an_id',
      message: `An id of ${input.length.toLocaleString('en')} characters is not an id of /${list}: ids are at most ${MAX_LOOKUP_ID_LENGTH.toLocaleString('en')} characters.`,
    }
  const id = readSingletonId(entity, wellFormed(input))
  switch (id.kind) {
    case 'random':
      return {
        kind: 'miss',
        error: 'not_an_id',
        message: `'${input}' draws a record at random on GET /${list}/random; a lookup takes ids only.`,
      }
    case 'openalex':
      return { kind: 'openalex', id: id.id }
    case 'external':
      return { kind: 'external', scheme: id.scheme, value: id.value }
    case 'other-entity':
      return {
        kind: 'miss',
        error: 'other_entity',
        message: `${id.id} is the id of one of the ${entityPath(id.entity)}, not of the ${list}; look it up with POST /${entityPath(id.entity)}/lookup.`,
      }
    default:
      return {
        kind: 'miss',
        error: 'not_an_id',
        message: `'${input}' is not an id of /${list}: send ${SINGLETON_ID_FORMS}.`,
      }
  }
}

const isKey = (value: LookupKey | LookupOutcome): value is LookupKey =>
  value.kind === 'openalex' || value.kind === 'external'

/** The outcomes of the inputs, in order: one batch for the ids, one more for the ids merged ones lead to. */
async function lookUp(
  adapter: StorageAdapter,
  entity: EntityType,
  ids: readonly string[],
): Promise<LookupOutcome[]> {
  const read = ids.map((input) => keyOf(entity, input))
  const keyed = read.flatMap((value, at) => (isKey(value) ? [{ at, key: value }] : []))
  const results = await lookupEntities(
    adapter,
    entity,
    keyed.map(({ key }) => key),
  )
  const resultOf = new Map<number, LookupResult>(keyed.map(({ at }, index) => [at, results[index]!]))
  // Merged ids lead to the records they were merged into: looked up together, once (a merge's target is a
  // record that survived it).
  const targets = [...new Set(results.flatMap((result) => (result.status === 'merged' ? [result.id] : [])))]
  const followed = await lookupEntities(
    adapter,
    entity,
    targets.map((id) => ({ kind: 'openalex', id })),
  )
  const targetOf = new Map(targets.map((id, index) => [id, followed[index]!]))
  const list = entityPath(entity)
  return read.map((value, at): LookupOutcome => {
    if (!isKey(value)) return value
    const result = resultOf.get(at)!
    const input = ids[at]!
    const found = (hit: LookupResult, mergedInto?: string): LookupOutcome | undefined =>
      hit.status !== 'found'
        ? undefined
        : {
            kind: 'found',
            record: hit.jsonBytes ?? hit.record,
            ...(mergedInto === undefined ? {} : { mergedInto }),
          }
    switch (result.status) {
      case 'found':
        return found(result)!
      case 'merged':
        return (
          found(targetOf.get(result.id)!, result.id) ?? {
            kind: 'miss',
            error: 'not_found',
            message: `${input} was merged into ${result.id}, which this catalog does not hold.`,
          }
        )
      case 'deleted':
        return { kind: 'miss', error: 'deleted', message: `${input} was deleted from the catalog.` }
      default:
        // `missing`
        return { kind: 'miss', error: 'not_found', message: `No record of /${list} has the id '${input}'.` }
    }
  })
}

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
  const stored = outcome.record
  // The stored bytes go out as they are unless fields are selected (as a singleton's do); selected members
  // are picked from the stored text without parsing the rest (10,000 works of 16 KB: about 1 s to parse).
  if (stored instanceof Uint8Array) {
    if (select === null) return [encoder.encode(head), stored, encoder.encode('}')]
    return [encoder.encode(`${head}${pickJsonMembers(decoder.decode(stored), select)}}`)]
  }
  const record = select === null ? stored : selectFields(stored, [...select])
  return [encoder.encode(`${head}${JSON.stringify(record)}}`)]
}

const joined = (parts: readonly Uint8Array[]): Uint8Array =>
  concatChunks(
    parts,
    parts.reduce((sum, part) => sum + part.byteLength, 0),
  )

const body = (request: LookupRequest, outcomes: readonly LookupOutcome[], costUsd: number): Uint8Array => {
  const parts: Uint8Array[] = []
  const select = request.select === null ? null : new Set(request.select)
  if (request.format === 'jsonl') {
    const newline = encoder.encode('\n')
    outcomes.forEach((outcome, at) => {
      parts.push(...resultBytes(request.ids[at]!, outcome, select), newline)
    })
    return joined(parts)
  }
  const found = outcomes.filter((outcome) => outcome.kind === 'found').length
  const meta = { count: outcomes.length, found, missing: outcomes.length - found, cost_usd: costUsd }
  parts.push(encoder.encode(`{"meta":${JSON.stringify(meta)},"results":[`))
  outcomes.forEach((outcome, at) => {
    if (at > 0) parts.push(encoder.encode(','))
    parts.push(...resultBytes(request.ids[at]!, outcome, select))
  })
  parts.push(encoder.encode(']}'))
  return joined(parts)
}

export const entityLookupHandler =
  (adapter: StorageAdapter) =>
  async (event: H3Event): Promise<Response> => {
    const segment = event.url.pathname.split('/')[1] ?? ''
    const entity = entityOfPath(segment)
    if (entity === undefined) throw unknownEntityError(segment)
    const request = await readLookupRequest(event, entity)
    const costUsd = lookupCostUsd(request.ids.length)
    // Priced by its ids, known once the body is read: a budget that cannot pay is refused before the lookup,
    // and a lookup that fails is refunded with the rest of the request.
    const metered = meteredRequestOf(event)
    if (metered !== undefined && costUsd > 0) {
      const refused = await metered.chargeMore(costUsd)
      if (refused !== undefined) return refused
    }
    const outcomes = await lookUp(adapter, entity, request.ids)
    return bytesResponse(body(request, outcomes, costUsd), {
      status: 200,
      headers: {
        'content-type':
          request.format === 'jsonl'
            ? 'application/x-ndjson; charset=utf-8'
            : 'application/json; charset=utf-8',
      },
    })
  }
