import type { SortTerm, ViewParameters } from '@oqlkit/engine'
import { readViewParameter, translate } from '@oqlkit/oql'
import { type Oqo, parseBoundedJson } from '@oqlkit/oqo-schema'
import type { ApiProblem } from '../errors/api-error.ts'
import { readQueryParameters } from '../request/query-parameters.ts'
import { EXPORT_FORMATS, type ExportFormat, isExportFormat } from './export-format.ts'

/** An export of a query given as OQL or OQO (`GET /export?oql=…&format=…`). */
export interface ExportQuery {
  readonly format: ExportFormat
  readonly oqo: Oqo
  readonly view: ViewParameters
}

export type ExportQueryReading =
  | { readonly ok: true; readonly request: ExportQuery }
  | { readonly ok: false; readonly problems: readonly ApiProblem[] }

const TAKEN = ['oql', 'oqo', 'format', 'sort', 'select', 'api_key', 'mailto']

/**
 * Reads `GET /export?oql=…` (or `oqo=`, the OQO as JSON text) with `format` and the view siblings the execute
 * endpoint takes but paging (`sort`, `select`): the query every row of which is exported. The query is read
 * and validated by `translate`, as the execute endpoint reads it; each problem names its parameter.
 */
export const readExportQuery = (search: string): ExportQueryReading => {
  const problems: ApiProblem[] = []
  const seen = new Set<string>()
  let format: ExportFormat | undefined
  let input: { form: 'oql' | 'oqo'; value: string } | undefined
  const view: { sort?: readonly SortTerm[]; select?: readonly string[] } = {}
  for (const { name, written, value } of readQueryParameters(search)) {
    if (!TAKEN.includes(name)) {
      problems.push({
        error:
          name === 'page' || name === 'per_page' || name === 'cursor'
            ? 'invalid_export'
            : 'unknown_parameter',
        parameter: written,
        message: `'${written}' is not a parameter of /export. It takes oql or oqo, format (${EXPORT_FORMATS.join(', ')}), sort and select; an export has every row, so no paging.`,
      })
      continue
    }
    const both = (name === 'oql' || name === 'oqo') && input !== undefined
    if (seen.has(name) || both) {
      problems.push({
        error: both ? 'invalid_parameter' : 'repeated_parameter',
        parameter: written,
        message: both
          ? 'Give exactly one query: oql= or oqo=, once.'
          : `${written}= appears more than once; give it once.`,
      })
      continue
    }
    seen.add(name)
    if (name === 'oql' || name === 'oqo') input = { form: name, value }
    else if (name === 'format') {
      const wanted = value.trim().toLowerCase()
      if (isExportFormat(wanted)) format = wanted
      else
        problems.push({
          error: 'invalid_export',
          parameter: written,
          message: `format '${value}' is not an export format. Use one of ${EXPORT_FORMATS.join(', ')}.`,
        })
    } else if (name === 'sort' || name === 'select') {
      const read = readViewParameter(name, value)
      if (read.ok) Object.assign(view, read.view)
    }
  }
  if (!seen.has('format'))
    problems.push({
      error: 'invalid_export',
      parameter: 'format',
      message: `An export needs format=: one of ${EXPORT_FORMATS.join(', ')} (format=csv, for instance).`,
    })
  if (input === undefined) {
    problems.push({
      error: 'missing_parameter',
      parameter: 'oql',
      message:
        'Give the query to export as oql= (OQL text) or oqo= (an OQO as JSON), or use GET /{entities}/export?filter=….',
    })
    return { ok: false, problems }
  }
  let query: unknown = input.value
  if (input.form === 'oqo')
    try {
      query = parseBoundedJson(input.value)
    } catch (error) {
      problems.push({
        error: 'invalid_oqo',
        parameter: 'oqo',
        message: `oqo= is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      })
      return { ok: false, problems }
    }
  const translation = translate(input.form === 'oql' ? { oql: String(query) } : { oqo: query })
  if (!translation.validation.valid || translation.oqo === null)
    problems.push(
      ...translation.validation.errors.map((error) => ({
        error: error.code,
        parameter: input.form,
        message: error.message,
      })),
    )
  if (problems.length > 0 || format === undefined || translation.oqo === null) return { ok: false, problems }
  return { ok: true, request: { format, oqo: translation.oqo, view } }
}
