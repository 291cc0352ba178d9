import {
  type Column,
  type EntityType,
  entityPath,
  type Filter,
  propertiesRegistry,
  suggestColumns,
} from '@oqlkit/oqo-schema'
import { parseFilterValue } from './filter-value-parser.ts'
import { hasBalancedQuotes, splitOutsideQuotes } from './quoted-text.ts'
import { parseSearchValue, type SearchTarget } from './search-value-parser.ts'
import {
  listAlternatives,
  type UrlDiagnostic,
  type UrlLocation,
  urlError,
  urlWarning,
} from './url-diagnostic.ts'
import type { ValueOutcome } from './value-outcome.ts'

/** One top-level OQO row read from the URL, with where it came from (for diagnostics). */
export interface FilterRow {
  readonly filter: Filter
  readonly origin: UrlLocation
}

export interface RowsOutcome {
  readonly rows: readonly FilterRow[]
  readonly errors: readonly UrlDiagnostic[]
  readonly warnings: readonly UrlDiagnostic[]
}

const isSemanticColumn = (column: Column): boolean =>
  column.id.endsWith('.search.semantic') || column.id === 'semantic.search'

const canFilter = (column: Column): boolean =>
  column.kind !== null &&
  (column.actions.includes('filter') || column.actions.includes('search') || column.kind === 'collection')

const searchTarget = (entity: EntityType, column: Column): SearchTarget => ({
  column: column.id,
  exact: column.id.endsWith('.search.exact'),
  exactColumn: column.id.endsWith('.search')
    ? propertiesRegistry.resolveColumn(entity, `${column.id}.exact`)?.id
    : undefined,
})

/** Reads a value of `column`: search text by its micro-syntax, semantic text verbatim, others by the value grammar. */
export const readColumnValue = (
  entity: EntityType,
  key: string,
  column: Column,
  value: string,
): ValueOutcome => {
  if (column.kind !== 'search') return parseFilterValue(value, { entity, key, column })
  if (!isSemanticColumn(column)) return parseSearchValue(value, searchTarget(entity, column))
  return value.trim() === ''
    ? {
        ok: false,
        code: 'empty_value',
        message: `The semantic search text of '${key}' is empty. Write the text to search by meaning.`,
      }
    : { ok: true, filter: { column_id: column.id, value, operator: 'has' } }
}

// `.search.no_stem` was renamed `.search.exact` in February 2026; old URLs still carry it.
const NO_STEM = /\.search\.no_stem$/

interface Clause {
  readonly key: string
  readonly column: Column | undefined
  value: string
}

const unknownColumnMessage = (entity: EntityType, key: string): string => {
  const suggestions = suggestColumns(entity, key)
  return `'${key}' is not a filter of ${entityPath(entity)}.${suggestions.length > 0 ? ` Did you mean ${listAlternatives(suggestions)}?` : ''} GET /properties/${entityPath(entity)} lists the filters.`
}

/** Reads `filter=k1:v1,k2:v2,…`: one row per `key:value` (a key repeated is AND). */
export const parseFilterParameter = (entity: EntityType, text: string): RowsOutcome => {
  const errors: UrlDiagnostic[] = []
  const warnings: UrlDiagnostic[] = []
  if (!hasBalancedQuotes(text))
    return {
      rows: [],
      errors: [
        urlError(
          'unbalanced_quote',
          `filter=${text} has an unclosed double quote, so its commas cannot be read. Close every quoted value with a second '"'.`,
          { parameter: 'filter', value: text },
        ),
      ],
      warnings,
    }

  const clauses: Clause[] = []
  for (const part of splitOutsideQuotes(text, ',')) {
    if (part.trim() === '') continue
    const colon = part.indexOf(':')
    const previous = clauses.at(-1)
    if (colon === -1 && previous?.column?.kind === 'search') {
      // A comma inside search text is a space: `display_name.search:a,b` searches "a b".
      previous.value = `${previous.value} ${part}`
      continue
    }
    const key = colon === -1 ? '' : part.slice(0, colon).trim()
    if (key === '') {
      errors.push(
        urlError(
          'invalid_filter',
          `The filter part '${part}' is not key:value. Write each filter as key:value, for example type:article, and separate filters with commas.`,
          { parameter: 'filter', value: part },
        ),
      )
      continue
    }
    let lookup = key
    if (NO_STEM.test(key)) {
      lookup = key.replace(NO_STEM, '.search.exact')
      warnings.push(
        urlWarning(
          'deprecated_key',
          `'${key}' is the old name of '${lookup}' and was read as it. Write ${lookup} in new URLs.`,
          { parameter: 'filter', key },
        ),
      )
    }
    clauses.push({
      key,
      column: propertiesRegistry.resolveColumn(entity, lookup),
      value: part.slice(colon + 1),
    })
  }

  const rows: FilterRow[] = []
  for (const { key, column, value } of clauses) {
    const origin: UrlLocation = { parameter: 'filter', key, value }
    if (column === undefined) {
      errors.push(urlError('invalid_column', unknownColumnMessage(entity, key), origin))
      continue
    }
    if (!canFilter(column)) {
      errors.push(
        urlError(
          'invalid_column',
          `'${key}' of ${entityPath(entity)} cannot be filtered on (it supports ${column.actions.join(', ') || 'nothing but selection'}). Choose a filter from GET /properties/${entityPath(entity)}.`,
          origin,
        ),
      )
      continue
    }
    const outcome = readColumnValue(entity, key, column, value)
    if (outcome.ok) rows.push({ filter: outcome.filter, origin })
    else errors.push(urlError(outcome.code, outcome.message, origin))
  }
  return { rows, errors, warnings }
}

/** The search column a `search…=` parameter targets, per entity (`search=` is full text on works). */
const searchColumnKey = (entity: EntityType, parameter: string): string => {
  const works = entity === 'works'
  if (parameter === 'search') return works ? 'fulltext.search' : 'text.search'
  if (parameter === 'search.exact') return works ? 'fulltext.search.exact' : 'text.search'
  if (parameter === 'search.semantic') return 'abstract.search.semantic'
  const scope = parameter.slice('search.'.length)
  return scope.endsWith('.exact') ? `${scope.slice(0, -'.exact'.length)}.search.exact` : `${scope}.search`
}

/** Reads `search=…`, `search.exact=…`, `search.<field>[.exact]=…` and `search.semantic=…` into one row. */
export const parseSearchParameter = (entity: EntityType, parameter: string, value: string): RowsOutcome => {
  const origin: UrlLocation = { parameter, value }
  const columnKey = searchColumnKey(entity, parameter)
  const column = propertiesRegistry.resolveColumn(entity, columnKey)
  if (column === undefined || column.kind !== 'search')
    return {
      rows: [],
      errors: [
        urlError(
          'unknown_parameter',
          parameter === 'search.semantic'
            ? `search.semantic (search by meaning) is for works only, not ${entityPath(entity)}. Use search=… on ${entityPath(entity)}.`
            : `${parameter}= is not a search parameter of ${entityPath(entity)} (it would search '${columnKey}', which ${entityPath(entity)} lack). Use search=… or a filter such as display_name.search:….`,
          origin,
        ),
      ],
      warnings: [],
    }
  // Outside quotes a comma in search text is a space, as in the filter form.
  const text = isSemanticColumn(column)
    ? value
    : splitOutsideQuotes(value, ',').join(hasBalancedQuotes(value) ? ' ' : ',')
  const outcome = readColumnValue(entity, parameter, column, text)
  return outcome.ok
    ? { rows: [{ filter: outcome.filter, origin }], errors: [], warnings: [] }
    : { rows: [], errors: [urlError(outcome.code, outcome.message, origin)], warnings: [] }
}
