// The ids of a request (a bulk lookup's, a snowball's seeds) read as the path of a single entity reads them and
// looked up together: one outcome per id, in order, each the record (a merged id followed to the record it was
// merged into) or a miss with its reason.
import {
  type EntityRecord,
  type LookupKey,
  type LookupResult,
  lookupEntities,
  type StorageAdapter,
} from '@oqlkit/engine'
import { type EntityType, entityPath } from '@oqlkit/oqo-schema'
import { readSingletonId, SINGLETON_ID_FORMS } from '../request/singleton-id-reader.ts'

/** Why an id found no record (`error` of its result). */
export type LookupMiss = 'not_an_id' | 'other_entity' | 'not_found' | 'deleted'

/** One result as it is written: the record's JSON (bytes as stored, or an object), or a miss. */
export type LookupOutcome =
  | { readonly kind: 'found'; readonly record: Uint8Array | EntityRecord; readonly mergedInto?: string }
  | { readonly kind: 'miss'; readonly error: LookupMiss; readonly message: string }

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
export async function lookUpIds(
  adapter: StorageAdapter,
  entity: EntityType,
  ids: readonly string[],
  /** The top-level fields wanted (`select`), null for all: a storage may read less of each record. */
  fields: readonly string[] | null = null,
): Promise<LookupOutcome[]> {
  const read = ids.map((input) => keyOf(entity, input))
  const keyed = read.flatMap((value, at) => (isKey(value) ? [{ at, key: value }] : []))
  const results = await lookupEntities(
    adapter,
    entity,
    keyed.map(({ key }) => key),
    fields === null ? {} : { fields },
  )
  const resultOf = new Map<number, LookupResult>(keyed.map(({ at }, index) => [at, results[index]!]))
  // Merged ids lead to the records they were merged into: looked up together, once (a merge's target is a
  // record that survived it).
  const targets = [...new Set(results.flatMap((result) => (result.status === 'merged' ? [result.id] : [])))]
  const followed = await lookupEntities(
    adapter,
    entity,
    targets.map((id) => ({ kind: 'openalex', id })),
    fields === null ? {} : { fields },
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
