import {
  CORPORA,
  type Corpus,
  canonicalizeOqo,
  closestMatches,
  type EntityType,
  type GroupBy,
  type Oqo,
  type OqoDiagnostic,
  propertiesRegistry,
  validateOqo,
} from '@oqlkit/oqo-schema'
import { type FilterRow, parseFilterParameter, parseSearchParameter } from './filter-parameter-parser.ts'
import {
  listAlternatives,
  type UrlDiagnostic,
  type UrlLocation,
  urlError,
  urlWarning,
} from './url-diagnostic.ts'
import { decodeUrlComponent } from './url-encoding.ts'
import { locateUrl } from './url-location.ts'
import { isViewKey, MAX_PER_PAGE, type UrlView, VIEW_KEYS } from './url-view.ts'

export type UrlToOqoResult =
  | {
      readonly ok: true
      /** The sorted canonical OQO (operands in the fixed order the reference's URL route uses). */
      readonly oqo: Oqo
      /** Sorting, selection, paging and caller parameters, which are not part of the OQO. */
      readonly view: UrlView
      readonly warnings: readonly UrlDiagnostic[]
    }
  | {
      readonly ok: false
      readonly errors: readonly UrlDiagnostic[]
      readonly warnings: readonly UrlDiagnostic[]
    }

export interface UrlToOqoOptions {
  /**
   * Check the OQO against the properties registry (value domains, operators, group-by columns).
   * On by default; `oqoToUrl` turns it off to read its own output back.
   */
  readonly validate?: boolean
}

interface Parameter {
  readonly name: string
  readonly written: string
  readonly value: string
}

const OQO_PARAMETERS = ['filter', 'group_by', 'sample', 'seed', 'corpus', 'include_xpac'] as const
const KNOWN_PARAMETERS: readonly string[] = [
  ...OQO_PARAMETERS,
  'search',
  'search.exact',
  'search.semantic',
  ...VIEW_KEYS,
]

// `per-page`, `group-by` and `api-key` are spellings of the underscore names.
const readParameters = (pairs: readonly string[]): Parameter[] =>
  pairs
    .filter((pair) => pair !== '')
    .map((pair) => {
      const equals = pair.indexOf('=')
      const written = decodeUrlComponent(equals === -1 ? pair : pair.slice(0, equals))
      const value = equals === -1 ? '' : decodeUrlComponent(pair.slice(equals + 1))
      return { name: written.trim().replaceAll('-', '_'), written, value }
    })

const isSearchParameter = (name: string): boolean => name === 'search' || name.startsWith('search.')

const POSITIVE_INTEGER = /^\d+$/

// Validation messages start with the JSON path of the node (or of one of its parents); the URL reader
// names the URL part instead.
const withoutPath = (diagnostic: OqoDiagnostic): string => {
  const { message, path } = diagnostic
  const boundaries = [...path.matchAll(/[.[]/g)].map((match) => match.index)
  for (const end of [path.length, ...boundaries.reverse()]) {
    const prefix = path.slice(0, end)
    if (prefix === '') continue
    if (message.startsWith(`${prefix}: `)) return message.slice(prefix.length + 2)
    if (message.startsWith(`${prefix} `)) return message.slice(prefix.length + 1)
  }
  return message
}

const describeOrigin = (origin: UrlLocation): string => {
  if (origin.parameter === 'filter' && origin.key !== undefined)
    return `In filter '${origin.key}:${origin.value ?? ''}'`
  if (origin.parameter !== undefined) return `In ${origin.parameter}=${origin.value ?? ''}`
  return 'In the URL'
}

/** Where a validation path (`filter_rows[2].filters[0].value`, `group_by[1].column_id`) came from in the URL. */
interface Origins {
  readonly rows: readonly FilterRow[]
  readonly groups: readonly UrlLocation[]
  readonly parameters: ReadonlyMap<string, UrlLocation>
}

const originOf = (path: string, origins: Origins): UrlLocation => {
  const row = /^filter_rows\[(\d+)\]/.exec(path)
  if (row !== null) return origins.rows[Number(row[1])]?.origin ?? {}
  const group = /^group_by\[(\d+)\]/.exec(path)
  if (group !== null) return origins.groups[Number(group[1])] ?? { parameter: 'group_by' }
  const top = /^(sample|seed|corpus)\b/.exec(path)
  return top === null ? {} : (origins.parameters.get(top[1]!) ?? { parameter: top[1]! })
}

const fromValidation = (diagnostic: OqoDiagnostic, origins: Origins): UrlDiagnostic => {
  const origin = originOf(diagnostic.path, origins)
  const message = `${describeOrigin(origin)}: ${withoutPath(diagnostic)}`
  const location = { ...origin, path: diagnostic.path }
  return diagnostic.severity === 'error'
    ? urlError(diagnostic.code, message, location)
    : urlWarning(diagnostic.code, message, location)
}

const GROUP_BY_OPTIONS = /:(include_unknown|known)$/

/**
 * Reads a classic OpenAlex list URL (`https://openalex.org/works?filter=…`, `https://api.openalex.org/…`,
 * `/works?…` or `works?…`) into an OQO plus its view parameters. Never throws: every problem comes back
 * as a diagnostic naming the parameter, key or value and how to fix it.
 */
export const urlToOqo = (url: string, options: UrlToOqoOptions = {}): UrlToOqoResult =>
  canonicalReading(readUrl(url, options))

/**
 * `urlToOqo` of a list request already routed: the entity its path names and the `name=value` pairs of
 * its query string as they arrived (still percent-encoded), so that a server reads the parameters it
 * received rather than a URL written back from them.
 */
export const listQueryToOqo = (
  entity: EntityType,
  pairs: readonly string[],
  options: UrlToOqoOptions = {},
): UrlToOqoResult => canonicalReading(readListQuery(entity, pairs, options))

const canonicalReading = (reading: UrlReading): UrlToOqoResult => {
  if (reading.draft === undefined || reading.errors.length > 0)
    return { ok: false, errors: reading.errors, warnings: reading.warnings }
  const oqo = canonicalizeOqo(reading.draft, { sortOperands: true })
  return { ok: true, oqo, view: reading.view, warnings: reading.warnings }
}

/** What a URL reads as before canonicalisation: the OQO as written (none when the URL names no list) and the problems. */
export interface UrlReading {
  readonly draft: Oqo | undefined
  readonly view: UrlView
  readonly errors: readonly UrlDiagnostic[]
  readonly warnings: readonly UrlDiagnostic[]
}

/** `urlToOqo` up to canonicalisation, which `oqoToUrl`'s read-back check can often do without. */
export const readUrl = (url: string, options: UrlToOqoOptions = {}): UrlReading => {
  const target = locateUrl(typeof url === 'string' ? url : '')
  if (!target.ok) return { draft: undefined, view: {}, errors: [target.diagnostic], warnings: [] }
  return readListQuery(target.entity, target.query.split('&'), options)
}

// The parameters of a list query of `entity`, each pair as written (percent-encoded).
const readListQuery = (
  entity: EntityType,
  pairs: readonly string[],
  options: UrlToOqoOptions,
): UrlReading => {
  const errors: UrlDiagnostic[] = []
  const warnings: UrlDiagnostic[] = []
  const rows: FilterRow[] = []
  const groupBy: GroupBy[] = []
  const groupOrigins: UrlLocation[] = []
  const view: { -readonly [K in keyof UrlView]: UrlView[K] } = {}
  let sample: number | undefined
  let seed: string | undefined
  let corpus: Corpus | undefined
  let includeXpac = false
  const seen = new Set<string>()
  const parameterOrigins = new Map<string, UrlLocation>()

  for (const { name, written, value } of readParameters(pairs)) {
    const location: UrlLocation = { parameter: written, value }
    if (name !== 'filter' && seen.has(name)) {
      errors.push(
        urlError(
          'repeated_parameter',
          `${written}= appears more than once. Give it once (only filter= may repeat; its parts are ANDed).`,
          location,
        ),
      )
      continue
    }
    seen.add(name)
    parameterOrigins.set(name, location)

    if (name === 'filter') {
      if (value === '') continue
      const outcome = parseFilterParameter(entity, value)
      rows.push(...outcome.rows)
      errors.push(...outcome.errors)
      warnings.push(...outcome.warnings)
    } else if (isSearchParameter(name)) {
      // An empty search= means no search (the API's behaviour); an empty search.semantic= is a mistake the
      // caller pays for (a semantic search costs more), so it is refused rather than ignored.
      if (value.trim() === '' && name !== 'search.semantic') continue
      const outcome = parseSearchParameter(entity, name, value)
      rows.push(...outcome.rows)
      errors.push(...outcome.errors)
    } else if (name === 'group_by') {
      for (const item of value.split(',')) {
        const trimmed = item.trim()
        if (trimmed === '') continue
        const option = GROUP_BY_OPTIONS.exec(trimmed)
        const key = option === null ? trimmed : trimmed.slice(0, option.index)
        if (option !== null)
          warnings.push(
            urlWarning(
              'group_by_option_dropped',
              `group_by '${trimmed}': the ':${option[1]}' suffix has no OQO form and was dropped. Ask for the unknown bucket at execution time instead.`,
              { parameter: written, value: trimmed },
            ),
          )
        groupBy.push({ column_id: propertiesRegistry.resolveColumn(entity, key)?.id ?? key })
        groupOrigins.push({ parameter: written, value: trimmed })
      }
    } else if (name === 'sample') {
      if (POSITIVE_INTEGER.test(value.trim())) sample = Number(value.trim())
      else
        errors.push(
          urlError(
            'invalid_sample',
            `sample=${value} is not a whole number. Write sample=25 (an integer from 1 to 10000).`,
            location,
          ),
        )
    } else if (name === 'seed') {
      if (value !== '') seed = value
    } else if (name === 'corpus') {
      const lower = value.trim().toLowerCase()
      if ((CORPORA as readonly string[]).includes(lower)) corpus = lower as Corpus
      else
        errors.push(
          urlError(
            'invalid_corpus',
            `corpus=${value} is not a corpus. Write corpus=all or corpus=expansion, or leave it out for the core corpus.`,
            location,
          ),
        )
    } else if (name === 'include_xpac') {
      const lower = value.trim().toLowerCase()
      if (lower === 'true') {
        includeXpac = true
        warnings.push(
          urlWarning(
            'deprecated_key',
            'include_xpac=true was read as corpus=all. Write corpus=all instead.',
            location,
          ),
        )
      } else if (lower !== 'false')
        errors.push(
          urlError(
            'invalid_value',
            `include_xpac=${value} is not true or false. Write corpus=all instead.`,
            location,
          ),
        )
    } else if (name === 'per_page' || name === 'page') {
      const number = POSITIVE_INTEGER.test(value.trim()) ? Number(value.trim()) : Number.NaN
      const valid = number >= 1 && (name === 'page' || number <= MAX_PER_PAGE)
      if (valid) view[name] = number
      else
        errors.push(
          name === 'page'
            ? urlError(
                'invalid_page',
                `page=${value} is not a positive integer. Write page=1, page=2, ….`,
                location,
              )
            : urlError(
                'invalid_per_page',
                `${written}=${value} is not an integer from 1 to ${MAX_PER_PAGE}. Write per_page=25, or use cursor paging for more.`,
                location,
              ),
        )
    } else if (isViewKey(name)) {
      // per_page and page are handled above; the other view parameters are text.
      if (value !== '') view[name as 'sort' | 'select' | 'cursor' | 'api_key' | 'mailto'] = value
    } else {
      const suggestions = closestMatches(name, KNOWN_PARAMETERS)
      errors.push(
        urlError(
          'unknown_parameter',
          `${written}= is not a parameter of a list query.${suggestions.length > 0 ? ` Did you mean ${listAlternatives(suggestions)}?` : ''} Use filter=, search=, group_by=, sample=, seed=, corpus=, sort=, select=, per_page=, page= or cursor=.`,
          location,
        ),
      )
    }
  }

  const draft: Oqo = { get_rows: entity }
  const effectiveCorpus = corpus ?? (includeXpac ? 'all' : undefined)
  if (effectiveCorpus !== undefined) draft.corpus = effectiveCorpus
  if (rows.length > 0) draft.filter_rows = rows.map((row) => row.filter)
  if (groupBy.length > 0) draft.group_by = groupBy
  if (sample !== undefined) draft.sample = sample
  if (seed !== undefined) draft.seed = seed

  if (options.validate !== false) {
    const validation = validateOqo(draft)
    const origins: Origins = { rows, groups: groupOrigins, parameters: parameterOrigins }
    for (const diagnostic of validation.errors) errors.push(fromValidation(diagnostic, origins))
    for (const diagnostic of validation.warnings) warnings.push(fromValidation(diagnostic, origins))
  }
  return { draft, view, errors, warnings }
}
