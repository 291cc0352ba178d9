import type { EntityType } from '@oqlkit/oqo-schema'
import type { ApiProblem } from '../errors/api-error.ts'
import { type ListRequest, readListRequest } from '../request/list-request-reader.ts'
import { readQueryParameters } from '../request/query-parameters.ts'
import { EXPORT_FORMATS, type ExportFormat, isExportFormat } from './export-format.ts'

/** The path segment of an export: `GET /{entities}/export`. */
export const EXPORT_SEGMENT = 'export'

/** An export request: the list it exports, and the form it is written in. */
export interface ExportRequest {
  readonly format: ExportFormat
  readonly list: ListRequest
}

export type ExportRequestReading =
  | { readonly ok: true; readonly request: ExportRequest }
  | { readonly ok: false; readonly problems: readonly ApiProblem[] }

/** List parameters an export has no use for: it has every row, in one response. */
const PAGING_PARAMETERS = ['page', 'per_page', 'cursor']

/**
 * Reads `GET /{entities}/export?format=…&filter=…`: `format` (csv, jsonl, json or parquet; required), and
 * every other parameter as the list endpoint reads it, but for paging (an export has every row) and
 * `group_by` (an export streams rows, not buckets), which are refused.
 */
export const readExportRequest = (entity: EntityType, search: string): ExportRequestReading => {
  const problems: ApiProblem[] = []
  const kept: string[] = []
  let format: ExportFormat | undefined
  let formats = 0
  for (const parameter of readQueryParameters(search)) {
    if (parameter.name !== 'format') {
      if (PAGING_PARAMETERS.includes(parameter.name))
        problems.push({
          error: 'invalid_export',
          parameter: parameter.written,
          message: `${parameter.written}= does not apply to an export: it streams every row that matches, however many, in one response. Drop ${parameter.written}.`,
        })
      else if (parameter.name === 'group_by')
        problems.push({
          error: 'invalid_export',
          parameter: parameter.written,
          message:
            'An export streams rows, not group_by buckets. Drop group_by, or ask the list endpoint for the buckets.',
        })
      else kept.push(parameter.raw)
      continue
    }
    formats++
    const value = parameter.value.trim().toLowerCase()
    if (isExportFormat(value)) format = value
    else
      problems.push({
        error: 'invalid_export',
        parameter: parameter.written,
        message: `format '${parameter.value}' is not an export format. Use one of ${EXPORT_FORMATS.join(', ')}.`,
      })
  }
  if (formats > 1)
    problems.push({
      error: 'repeated_parameter',
      parameter: 'format',
      message: 'format= appears more than once; give it once.',
    })
  else if (formats === 0)
    problems.push({
      error: 'invalid_export',
      parameter: 'format',
      message: `An export needs format=: one of ${EXPORT_FORMATS.join(', ')} (format=csv, for instance).`,
    })
  const list = readListRequest(entity, kept.join('&'))
  if (!list.ok) problems.push(...list.problems)
  if (problems.length > 0 || !list.ok || format === undefined) return { ok: false, problems }
  return { ok: true, request: { format, list: list.request } }
}
