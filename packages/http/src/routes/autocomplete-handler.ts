import {
  AUTOCOMPLETE_ENTITY_NAMES,
  type AutocompleteResult,
  autocompleteEntities,
  costUsdOf,
  type FilterNode,
  type LookupResult,
  planQuery,
  type StorageAdapter,
  searchNodesOf,
  toAutocompleteResult,
} from '@oqlkit/engine'
import { urlToOqo } from '@oqlkit/oql'
import { type EntityType, entityPath, NATIVE_ID_PREFIXES } from '@oqlkit/oqo-schema'
import type { H3Event } from 'h3'
import { dataVersionMeta } from '../envelope/data-version.ts'
import { ApiError } from '../errors/api-error.ts'
import { planProblemsOf } from '../errors/plan-problems.ts'
import { API_ENTITIES, entityOfPath } from '../request/entity-paths.ts'
import { collectKnownParameters } from '../request/known-parameters.ts'
import { type QueryParameter, rawQueryOf } from '../request/query-parameters.ts'
import { readSingletonId } from '../request/singleton-id-reader.ts'
import { unknownEntityError } from './entity-list-handler.ts'

/** Suggestions per response, as the public API gives. */
export const AUTOCOMPLETE_LIMIT = 10

const ENTITY_PARAMETERS = ['q', 'filter', 'hide_zero', 'api_key', 'mailto']
const ALL_PARAMETERS = ['q', 'entity_type', 'hide_works', 'hide_zero', 'api_key', 'mailto']

// Short text is ambiguous across many entities: only these are searched for it (unless entity_type says).
const SHORT_TEXT = 5
const SHORT_TEXT_ENTITIES: readonly EntityType[] = ['institutions', 'authors', 'countries', 'licenses']
const DEFAULT_ENTITIES: readonly EntityType[] = [
  'authors',
  'works',
  'institutions',
  'sources',
  'topics',
  'keywords',
  'publishers',
  'funders',
  'countries',
  'languages',
  'licenses',
  'sdgs',
  'types',
]

// `entity_type=` takes the singular names results carry (`author`), the paths (`authors`) and `work_type`.
const ENTITY_TYPE_NAMES: ReadonlyMap<string, EntityType> = new Map(
  API_ENTITIES.flatMap((entity): [string, EntityType][] => [
    [entityPath(entity), entity],
    [entityPath(entity).replaceAll('-', '_'), entity],
    [AUTOCOMPLETE_ENTITY_NAMES[entity] ?? entity, entity],
  ]),
)

// Text that is an id rather than a name: looked up, not matched.
const LOOKS_LIKE_ID = [
  /^(?:https?:\/\/(?:www\.)?openalex\.org\/)?[WASIPFCTG]\d{3,}$/i,
  /^(?:doi|orcid|ror|issn|pmid|pmcid|wikidata|mag|openalex):/i,
  /^https?:\/\/(?:dx\.)?doi\.org\//i,
  /^10\.\d{4,9}\/\S+$/,
  /^https?:\/\/(?:www\.)?(?:orcid\.org|ror\.org|wikidata\.org)\//i,
]
const BARE_ORCID = /^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$/i
const BARE_ISSN = /^\d{4}-\d{3}[\dX]$/i
const BARE_WIKIDATA = /^Q\d+$/i

/** The entities an id-shaped text can belong to, best guess first. */
const idCandidates = (
  text: string,
  entities: readonly EntityType[],
): { entity: EntityType; id: string }[] => {
  const forms = BARE_ORCID.test(text)
    ? `orcid:${text}`
    : BARE_ISSN.test(text)
      ? `issn:${text}`
      : BARE_WIKIDATA.test(text)
        ? `wikidata:${text}`
        : LOOKS_LIKE_ID.some((pattern) => pattern.test(text))
          ? text
          : undefined
  return forms === undefined ? [] : entities.map((entity) => ({ entity, id: forms }))
}

const lookUp = async (adapter: StorageAdapter, entity: EntityType, text: string): Promise<LookupResult> => {
  const id = readSingletonId(entity, text)
  if (id.kind === 'openalex') return adapter.findById(entity, id.id)
  if (id.kind === 'external') return adapter.findByExternalId(entity, id.scheme, id.value)
  return { status: 'missing' }
}

/** A pasted id (OpenAlex, DOI, ORCID, ROR, ISSN, Wikidata) as its one entity, or undefined for text. */
const pastedId = async (
  adapter: StorageAdapter,
  text: string,
  entities: readonly EntityType[],
): Promise<AutocompleteResult[] | undefined> => {
  const candidates = idCandidates(text, entities)
  if (candidates.length === 0) return undefined
  for (const { entity, id } of candidates) {
    const found = await lookUp(adapter, entity, id)
    if (found.status === 'found') return [toAutocompleteResult(entity, found.record)]
  }
  return []
}

const readParameters = (
  search: string,
  valid: readonly string[],
  where: string,
): Map<string, QueryParameter> => {
  const { parameters, problems } = collectKnownParameters(search, valid, where)
  const q = parameters.get('q')?.value.trim() ?? ''
  if (q === '' && problems.length === 0)
    problems.push({
      error: 'invalid_parameter',
      parameter: 'q',
      message: `${where} needs the typed text in q, as in ${where}?q=einst.`,
    })
  if (problems.length > 0) throw new ApiError(400, problems)
  return parameters
}

const isTrue = (parameter: QueryParameter | undefined): boolean =>
  parameter?.value.trim().toLowerCase() === 'true'

const searches = (filter: FilterNode | null): boolean => searchNodesOf(filter).length > 0

/** The filter of `/autocomplete/{entity}?filter=…`, read and planned as on the list endpoint. */
const readFilter = (entity: EntityType, parameter: QueryParameter | undefined): FilterNode | null => {
  if (parameter === undefined || parameter.value.trim() === '') return null
  const reading = urlToOqo(`/${entityPath(entity)}?${parameter.raw}`)
  if (!reading.ok)
    throw new ApiError(
      400,
      reading.errors.map((diagnostic) => ({
        error: diagnostic.code,
        message: diagnostic.message,
        parameter: 'filter',
      })),
    )
  const planned = planQuery(reading.oqo)
  if (!planned.ok) throw new ApiError(400, planProblemsOf(planned.errors, 'filter'))
  if (searches(planned.plan.filter))
    throw ApiError.of(
      400,
      'invalid_filter',
      'Autocomplete matches names itself; its filter cannot search. Drop the .search filter, or use the list endpoint with search=.',
      'filter',
    )
  return planned.plan.filter
}

const respond = (
  event: H3Event,
  results: readonly AutocompleteResult[],
  started: number,
  hideZero: boolean,
) => {
  const shown = hideZero
    ? results.filter((result) => result.entity_type === 'work' || (result.works_count ?? 0) > 0)
    : results
  return {
    meta: {
      count: shown.length,
      db_response_time_ms: Math.round(performance.now() - started),
      page: 1,
      per_page: AUTOCOMPLETE_LIMIT,
      cost_usd: costUsdOf('autocomplete'),
      ...dataVersionMeta(event),
    },
    results: shown,
  }
}

/** `GET /autocomplete/{entity}?q=`: type-ahead in one entity, with an optional list filter. */
export const entityAutocompleteHandler =
  (adapter: StorageAdapter) =>
  async (event: H3Event): Promise<unknown> => {
    const segment = event.context.params?.entity ?? ''
    const entity = entityOfPath(segment)
    if (entity === undefined) throw unknownEntityError(`autocomplete/${segment}`)
    const where = `/autocomplete/${entityPath(entity)}`
    const parameters = readParameters(rawQueryOf(event.req.url), ENTITY_PARAMETERS, where)
    const text = parameters.get('q')!.value.trim()
    const filter = readFilter(entity, parameters.get('filter'))
    const started = performance.now()
    const byId = filter === null ? await pastedId(adapter, text, [entity]) : undefined
    const results =
      byId ??
      (await autocompleteEntities(adapter, { entities: [entity], text, limit: AUTOCOMPLETE_LIMIT, filter }))
    return respond(event, results, started, isTrue(parameters.get('hide_zero')))
  }

/** `GET /autocomplete?q=`: type-ahead across entities (or the one `entity_type` names). */
export const autocompleteHandler =
  (adapter: StorageAdapter) =>
  async (event: H3Event): Promise<unknown> => {
    const parameters = readParameters(rawQueryOf(event.req.url), ALL_PARAMETERS, '/autocomplete')
    const text = parameters.get('q')!.value.trim()
    const typeParameter = parameters.get('entity_type')
    let entities: readonly EntityType[]
    if (typeParameter !== undefined && typeParameter.value.trim() !== '') {
      const named = ENTITY_TYPE_NAMES.get(typeParameter.value.trim().toLowerCase())
      if (named === undefined)
        throw ApiError.of(
          400,
          'invalid_parameter',
          `entity_type '${typeParameter.value}' is not an entity. Valid: ${API_ENTITIES.map((entity) => AUTOCOMPLETE_ENTITY_NAMES[entity] ?? entity).join(', ')}.`,
          'entity_type',
        )
      entities = [named]
    } else entities = text.length <= SHORT_TEXT ? SHORT_TEXT_ENTITIES : DEFAULT_ENTITIES
    if (isTrue(parameters.get('hide_works'))) entities = entities.filter((entity) => entity !== 'works')
    const started = performance.now()
    const byId = await pastedId(adapter, text, idEntities(text, entities))
    const results =
      byId ??
      (await autocompleteEntities(adapter, { entities, text, limit: AUTOCOMPLETE_LIMIT, filter: null }))
    return respond(event, results, started, isTrue(parameters.get('hide_zero')))
  }

/** Where a pasted id is looked for: the entity its letter or scheme names, else every searched entity. */
const idEntities = (text: string, entities: readonly EntityType[]): readonly EntityType[] => {
  const letter = /^(?:https?:\/\/(?:www\.)?openalex\.org\/)?([A-Za-z])\d{3,}$/.exec(text)?.[1]?.toUpperCase()
  const byLetter = (Object.entries(NATIVE_ID_PREFIXES) as [EntityType, string][]).find(
    ([, prefix]) => prefix === letter,
  )?.[0]
  if (byLetter !== undefined) return [byLetter]
  if (/doi/i.test(text) || /^10\./.test(text) || /^pmc?id:/i.test(text)) return ['works']
  if (/orcid/i.test(text) || BARE_ORCID.test(text)) return ['authors']
  if (/ror/i.test(text)) return ['institutions', 'funders', 'publishers']
  if (/issn/i.test(text) || BARE_ISSN.test(text)) return ['sources']
  if (/wikidata/i.test(text) || BARE_WIKIDATA.test(text))
    return ['concepts', 'topics', 'publishers', 'institutions', 'funders']
  return entities
}
