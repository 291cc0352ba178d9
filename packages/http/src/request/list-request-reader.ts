import { type SortTerm, SUM_PARAMETERS, type SumParameter, type ViewParameters } from '@oqlkit/engine'
import {
  isViewParameterName,
  listQueryToOqo,
  readViewParameter,
  type UrlDiagnostic,
  type UrlView,
} from '@oqlkit/oql'
import { closestMatches, type EntityType, entityPath, type Oqo, propertiesRegistry } from '@oqlkit/oqo-schema'
import type { ApiProblem } from '../errors/api-error.ts'
import { type QueryParameter, readQueryParameters } from './query-parameters.ts'
import { viewProblemMessage } from './view-problem-message.ts'

/** A classic list request read into the query language: the OQO, its view and the request's other parts. */
export interface ListRequest {
  readonly entity: EntityType
  /** The canonical OQO: which rows (the same object the OQL endpoints plan). */
  readonly oqo: Oqo
  /** How to order, page and shape them (what `planQuery` takes beside the OQO). */
  readonly view: ViewParameters
  /** `q`: keep only the group buckets whose display name contains it. */
  readonly groupFilter?: string
  readonly apiKey?: string
  /** The view as URL parameters, for `meta.x_query.url`. */
  readonly urlView: UrlView
}

export type ListRequestReading =
  | { readonly ok: true; readonly request: ListRequest }
  | { readonly ok: false; readonly problems: readonly ApiProblem[] }

// Parameters the list endpoints take besides `search.<scope>` (checked by the URL reader per entity).
export const LIST_PARAMETERS = [
  'filter',
  'search',
  'sort',
  'per_page',
  'page',
  'cursor',
  'sample',
  'seed',
  'select',
  'group_by',
  'q',
  'corpus',
  'include_xpac',
  'apc_sum',
  'cited_by_count_sum',
  'api_key',
  'mailto',
] as const

/** The parameters of the OQO (read by `urlToOqo`); the rest are view and caller parameters. */
const OQO_PARAMETERS: ReadonlySet<string> = new Set(['filter', 'sample', 'seed', 'corpus', 'include_xpac'])

export const isSearchParameter = (name: string): boolean => name === 'search' || name.startsWith('search.')

const GROUP_BY_OPTIONS = ['include_unknown', 'known']

const validListParameters = (): string =>
  `${LIST_PARAMETERS.join(', ')}, and search.<field> variants (search.exact, search.title, search.title_and_abstract, …)`

/** Filter keys of an entity, for the message of an unknown one. */
const filterKeysOf = (entity: EntityType): string =>
  propertiesRegistry
    .columnsOf(entity, { includeUnlisted: false })
    .filter(
      (column) =>
        column.kind !== null && (column.actions.includes('filter') || column.actions.includes('search')),
    )
    .map((column) => column.id)
    .sort()
    .join(', ')

/** A URL-reader finding as an API problem; an unknown filter key also lists the valid ones. */
const problemOf = (entity: EntityType, diagnostic: UrlDiagnostic): ApiProblem => {
  const parameter = diagnostic.parameter?.trim().replaceAll('-', '_')
  const listFilters = diagnostic.code === 'invalid_column' && parameter === 'filter'
  const message = listFilters
    ? `${diagnostic.message} Valid filters of /${entityPath(entity)}: ${filterKeysOf(entity)}.`
    : diagnostic.message
  return parameter === undefined
    ? { error: diagnostic.code, message }
    : { error: diagnostic.code, message, parameter }
}

const unknownParameter = (parameter: QueryParameter): ApiProblem => {
  const suggestions = closestMatches(parameter.name, [...LIST_PARAMETERS, 'search.exact', 'search.title'])
  return {
    error: 'unknown_parameter',
    parameter: parameter.written,
    message: `'${parameter.written}' is not a parameter of the list endpoints.${suggestions.length > 0 ? ` Did you mean ${suggestions.map((name) => `'${name}'`).join(' or ')}?` : ''} Valid parameters: ${validListParameters()}.`,
  }
}

/**
 * Reads a classic list request (`/works?filter=…&sort=…`) into a canonical OQO and its view, or every
 * problem it has, each naming the parameter and saying what is valid. The OQO part goes through the
 * same URL reader the translate endpoints use (`urlToOqo`), so a classic call and its OQL form cannot
 * drift apart; this function adds what only a live request has: repeated and unknown parameters, the
 * group_by options, paging numbers, `q` and the caller's key.
 */
export const readListRequest = (entity: EntityType, search: string): ListRequestReading => {
  const problems: ApiProblem[] = []
  const oqoPairs: string[] = []
  const seen = new Set<string>()
  const view: {
    sort?: readonly SortTerm[]
    select?: readonly string[]
    page?: number
    perPage?: number
    cursor?: string
    includeUnknown?: readonly string[]
    sums?: readonly SumParameter[]
  } = {}
  const urlView: { sort?: string; select?: string } = {}
  let groupFilter: string | undefined
  let apiKey: string | undefined
  let grouping = false

  for (const parameter of readQueryParameters(search)) {
    const { name, written, value } = parameter
    if (name === 'oql' || name === 'oqo') {
      problems.push({
        error: 'oql_not_allowed_here',
        parameter: written,
        message: `${written}= is not valid on /${entityPath(entity)}: OQL and OQO run at the root. Send GET /?${written}=… or POST / with a JSON body whose "${written}" holds the query, or write this query with filter=, search= and sort= here.`,
      })
      continue
    }
    if (!(LIST_PARAMETERS as readonly string[]).includes(name) && !isSearchParameter(name)) {
      problems.push(unknownParameter(parameter))
      continue
    }
    if (seen.has(name)) {
      problems.push(
        name === 'filter'
          ? {
              error: 'repeated_parameter',
              parameter: 'filter',
              message:
                'Only one filter parameter is allowed. Combine filters in one, separated by commas: filter=publication_year:2020,is_oa:true.',
            }
          : {
              error: 'repeated_parameter',
              parameter: written,
              message: `${written}= appears more than once; give it once.`,
            },
      )
      continue
    }
    seen.add(name)

    if (OQO_PARAMETERS.has(name) || isSearchParameter(name)) oqoPairs.push(parameter.raw)
    else if (name === 'group_by') {
      const keys: string[] = []
      const unknownBuckets: string[] = []
      for (const item of value
        .split(',')
        .map((text) => text.trim())
        .filter((text) => text !== '')) {
        const colon = item.indexOf(':')
        const key = colon === -1 ? item : item.slice(0, colon)
        const option = colon === -1 ? undefined : item.slice(colon + 1)
        if (option !== undefined && !GROUP_BY_OPTIONS.includes(option)) {
          problems.push({
            error: 'invalid_group_by',
            parameter: written,
            message: `group_by '${item}' has the option '${option}'; the only option is ':include_unknown' (add a bucket for rows without a value), as in group_by=${key}:include_unknown.`,
          })
          continue
        }
        keys.push(key)
        if (option === 'include_unknown')
          unknownBuckets.push(propertiesRegistry.resolveColumn(entity, key)?.id ?? key)
      }
      grouping = keys.length > 0
      if (grouping) oqoPairs.push(`group_by=${keys.map(encodeURIComponent).join(',')}`)
      if (unknownBuckets.length > 0) view.includeUnknown = unknownBuckets
    } else if (isViewParameterName(name)) {
      const read = readViewParameter(name, value)
      if (!read.ok) {
        problems.push({
          error: read.problem.code,
          parameter: written,
          message: viewProblemMessage(read.problem, written),
        })
        continue
      }
      Object.assign(view, read.view)
      if (name === 'sort' && read.view.sort !== undefined) urlView.sort = value.trim()
      if (read.view.select !== undefined) urlView.select = read.view.select.join(',')
    } else if (name === 'q') {
      if (value.trim() === '')
        problems.push({
          error: 'invalid_parameter',
          parameter: 'q',
          message: 'q= is empty. Give the text group_by buckets must contain, or drop q.',
        })
      else groupFilter = value.trim()
    } else if (name in SUM_PARAMETERS) {
      const flag = value.trim().toLowerCase()
      if (flag === 'true') view.sums = [...(view.sums ?? []), name as SumParameter]
      else if (flag !== 'false')
        problems.push({
          error: 'invalid_parameter',
          parameter: written,
          message: `${written}=${value} is not true or false. Write ${written}=true to add the totals to meta.`,
        })
    } else if (name === 'api_key') apiKey = value
  }

  if (groupFilter !== undefined && !grouping)
    problems.push({
      error: 'invalid_parameter',
      parameter: 'q',
      message:
        'q keeps the group_by buckets whose name contains it, so it needs group_by. To search the rows, use search= or a .search filter.',
    })

  const reading = listQueryToOqo(entity, oqoPairs)
  if (!reading.ok) problems.push(...reading.errors.map((diagnostic) => problemOf(entity, diagnostic)))
  if (problems.length > 0 || !reading.ok) return { ok: false, problems }
  return {
    ok: true,
    request: {
      entity,
      oqo: reading.oqo,
      view,
      urlView,
      ...(groupFilter === undefined ? {} : { groupFilter }),
      ...(apiKey === undefined ? {} : { apiKey }),
    },
  }
}
