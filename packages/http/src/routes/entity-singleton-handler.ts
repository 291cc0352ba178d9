import { type LookupResult, type StorageAdapter, selectFields } from '@oqlkit/engine'
import { type EntityType, entityPath } from '@oqlkit/oqo-schema'
import type { H3Event } from 'h3'
import { ApiError, type ApiProblem } from '../errors/api-error.ts'
import { jsonBytesResponse, jsonResponse } from '../errors/error-response.ts'
import { entityOfPath } from '../request/entity-paths.ts'
import { isSearchParameter, LIST_PARAMETERS } from '../request/list-request-reader.ts'
import { rawPathOf, rawQueryOf, readQueryParameters } from '../request/query-parameters.ts'
import { unknownSelectProblem } from '../request/select-problem.ts'
import { readSingletonId, SINGLETON_ID_FORMS } from '../request/singleton-id-reader.ts'
import { unknownEntityError } from './entity-list-handler.ts'

const SINGLETON_PARAMETERS = ['select', 'api_key', 'mailto']

/**
 * The parameters of a list, which clients send on singletons too (`/institutions/I71267560?per-page=1`,
 * `/works/random?per-page=1` in the pyalex and openalexR suites): ignored there, as the public server
 * ignores them.
 * Any other name is still refused, so a misspelt `select` is not silently dropped.
 */
const isIgnoredOnSingletons = (name: string): boolean =>
  !SINGLETON_PARAMETERS.includes(name) &&
  ((LIST_PARAMETERS as readonly string[]).includes(name) || isSearchParameter(name))

// Decodes a path segment: percent escapes only (a `+` in a DOI is a plus).
const decodePath = (text: string): string => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** `select` of a singleton, checked like a list's; the other parameters a singleton takes. */
const readSelect = (entity: EntityType, search: string): readonly string[] | null => {
  const problems: ApiProblem[] = []
  let select: string[] | null = null
  const seen = new Set<string>()
  for (const { name, written, value } of readQueryParameters(search)) {
    if (isIgnoredOnSingletons(name)) continue
    if (!SINGLETON_PARAMETERS.includes(name))
      problems.push({
        error: 'unknown_parameter',
        parameter: written,
        message: `'${written}' is not a parameter of a single entity (/${entityPath(entity)}/ and an id). Valid parameters: ${SINGLETON_PARAMETERS.join(', ')}; the parameters of lists (filter, per_page, …) are ignored here.`,
      })
    else if (seen.has(name))
      problems.push({
        error: 'repeated_parameter',
        parameter: written,
        message: `${written}= appears more than once; give it once.`,
      })
    else if (name === 'select')
      select = value
        .split(',')
        .map((field) => field.trim())
        .filter((field) => field !== '')
    seen.add(name)
  }
  const selectProblem = select === null ? undefined : unknownSelectProblem(entity, select)
  if (selectProblem !== undefined) problems.push(selectProblem)
  if (problems.length > 0) throw new ApiError(400, problems)
  return select === null || select.length === 0 ? null : select
}

const notFound = (message: string): ApiError => ApiError.of(404, 'not_found', message)

/**
 * `GET /{entities}/{id}`: one entity by a short id, a full id URL (any case), an external id (URL or
 * `doi:`-style prefix form) or `random`. A merged id answers 301 to the surviving entity (query kept);
 * a deleted or unknown one 404. `select` keeps the named top-level fields.
 */
export const entitySingletonHandler =
  (adapter: StorageAdapter) =>
  async (event: H3Event): Promise<unknown> => {
    const path = rawPathOf(event.req.url)
    const slash = path.indexOf('/', 1)
    const segment = path.slice(1, slash === -1 ? undefined : slash)
    const entity = entityOfPath(segment)
    if (entity === undefined) throw unknownEntityError(decodePath(segment))
    const search = rawQueryOf(event.req.url)
    const select = readSelect(entity, search)
    const idText = decodePath(path.slice(slash + 1).replace(/\/+$/, ''))
    const id = readSingletonId(entity, idText)
    const list = entityPath(entity)

    let result: LookupResult
    switch (id.kind) {
      case 'random':
        result = await adapter.findRandom(entity)
        if (result.status === 'missing') throw notFound(`/${list} has no records to draw from.`)
        break
      case 'openalex':
        result = await adapter.findById(entity, id.id)
        break
      case 'external':
        result = await adapter.findByExternalId(entity, id.scheme, id.value)
        break
      case 'other-entity':
        throw notFound(
          `${id.id} is the id of one of the ${entityPath(id.entity)}, not of the ${list}; see /${entityPath(id.entity)}/${id.id}.`,
        )
      case 'unrecognised':
        throw notFound(`'${idText}' is not an id of /${list}. Use ${SINGLETON_ID_FORMS}, or random.`)
    }

    switch (result.status) {
      case 'found':
        if (select !== null) return selectFields(result.record, select)
        // The stored bytes go out as they are: parsing them to write them again costs a third of a millisecond.
        return result.jsonBytes === undefined ? result.record : jsonBytesResponse(result.jsonBytes)
      case 'merged': {
        const location = `/${list}/${result.id}${search === '' ? '' : `?${search}`}`
        return jsonResponse(
          { id: `https://openalex.org/${result.id}`, message: `${idText} was merged into ${result.id}.` },
          301,
          { location },
        )
      }
      case 'deleted':
        throw notFound(`${idText} was deleted from the catalog.`)
      case 'missing':
        throw notFound(`No record of /${list} has the id '${idText}'.`)
    }
  }
