import {
  closestMatches,
  ENTITY_TYPES,
  type EntityType,
  NATIVE_ID_PREFIXES,
  resolveEntityType,
} from '@oqlkit/oqo-schema'
import { listAlternatives, type UrlDiagnostic, urlError } from './url-diagnostic.ts'
import { decodePathSegment } from './url-encoding.ts'

/**
 * The path a classic URL names an entity list by: the OQO entity name, which is also the namespace of
 * the entity's ids (`https://openalex.org/types/article`). Work types are `/types`, as the reference
 * engine writes them; the API's own path `/work-types` reads back as the same list.
 */
export const classicUrlPath = (entity: EntityType): string => entity

/** The list a URL asks for and its raw query string, or why it is not a list query. */
export type UrlTarget =
  | { readonly ok: true; readonly entity: EntityType; readonly query: string }
  | { readonly ok: false; readonly diagnostic: UrlDiagnostic }

// Endpoints of the API that answer something other than a list of one entity type.
const OTHER_ENDPOINTS: Readonly<Record<string, string>> = {
  autocomplete: 'a type-ahead endpoint',
  text: 'the /text tagger (aboutness of free text)',
  query: 'the OQL translation endpoint',
  properties: 'the properties registry',
  registry: 'the properties registry',
  validate: 'the OQL validator',
  'parse-context': 'the OQL editor helper',
  people: 'a single-record alias',
  journals: 'a single-record alias',
  venues: 'a retired single-record alias',
}

const SCHEME_AND_HOST = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i
const BARE_HOST = /^(?:[a-z0-9-]+\.)*openalex\.org(?=\/|$)/i
const RECORD_ID = /^(?:[A-Za-z]\d+|[a-z]+:.+|https?:.*)$/
const EDGE_SLASHES = /^\/+|\/+$/g
const ENTITIES_PREFIX = /^entities\/./

const notAList = (what: string, fix: string): UrlTarget => ({
  ok: false,
  diagnostic: urlError('not_a_list_query', `${what} is not a list query, so it has no OQO. ${fix}`),
})

const entityOfLetter = (id: string): EntityType | undefined =>
  (Object.entries(NATIVE_ID_PREFIXES) as Array<[EntityType, string]>).find(
    ([, letter]) => letter === id[0]?.toUpperCase(),
  )?.[0]

const singleRecord = (path: string, entity: EntityType | undefined, id: string): UrlTarget => {
  const native = /^[A-Za-z]\d+$/.test(id)
  const list = classicUrlPath(entity ?? (native ? entityOfLetter(id) : undefined) ?? 'works')
  return notAList(
    `'${path}' asks for a single record (${id}); it`,
    native
      ? `To get it as a list, filter by id: /${list}?filter=ids.openalex:${id}.`
      : `Use a list URL such as /${list}?filter=… instead.`,
  )
}

/** Reads the entity list a URL, a path (`/works?…`) or a bare `works?…` names. */
export const locateUrl = (input: string): UrlTarget => {
  const text = input.trim()
  const hash = text.indexOf('#')
  const withoutFragment = hash === -1 ? text : text.slice(0, hash)
  const question = withoutFragment.indexOf('?')
  const rawPath = question === -1 ? withoutFragment : withoutFragment.slice(0, question)
  const query = question === -1 ? '' : withoutFragment.slice(question + 1)
  let path = rawPath.replace(SCHEME_AND_HOST, '').replace(BARE_HOST, '').replace(EDGE_SLASHES, '')
  if (ENTITIES_PREFIX.test(path)) path = path.slice('entities/'.length)
  // Split off the first segment only: a record id after it may itself be a URL (`/works/https://doi.org/…`).
  const slash = path.indexOf('/')
  const first = decodePathSegment(slash === -1 ? path : path.slice(0, slash))
  const rest = slash === -1 ? '' : decodePathSegment(path.slice(slash + 1))
  if (first === '')
    return {
      ok: false,
      diagnostic: urlError(
        'invalid_url',
        `'${input}' names no entity list. Start with the entity, for example https://openalex.org/works?filter=type:article or works?search=…`,
      ),
    }
  const entity = resolveEntityType(first)
  const shownPath = `/${rest === '' ? first : `${first}/${rest}`}`
  if (entity === undefined) {
    const endpoint = OTHER_ENDPOINTS[first.toLowerCase()]
    if (endpoint !== undefined)
      return notAList(`'${shownPath}' is ${endpoint}; it`, 'Use a list URL such as /works?search=… instead.')
    if (RECORD_ID.test(first)) return singleRecord(shownPath, undefined, shownPath.slice(1))
    const suggestions = closestMatches(first.toLowerCase(), [...ENTITY_TYPES, 'work-types'])
    return {
      ok: false,
      diagnostic: urlError(
        'invalid_entity',
        `'${first}' in '${shownPath}' is not an entity type.${suggestions.length > 0 ? ` Did you mean ${listAlternatives(suggestions)}?` : ''} Start the path with one of ${ENTITY_TYPES.map(classicUrlPath).join(', ')}.`,
        { value: first },
      ),
    }
  }
  if (rest !== '') {
    if (rest.toLowerCase() === 'random')
      return notAList(
        `'${shownPath}' asks for one random record; it`,
        `For a random list, write /${classicUrlPath(entity)}?sample=25.`,
      )
    return singleRecord(shownPath, entity, rest)
  }
  return { ok: true, entity, query }
}
