/** The forms an export of a list is written in. */
export const EXPORT_FORMATS = ['csv', 'jsonl', 'json', 'parquet'] as const

export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export const isExportFormat = (value: string): value is ExportFormat =>
  (EXPORT_FORMATS as readonly string[]).includes(value)

/** The media type each format is sent as. */
export const EXPORT_CONTENT_TYPES: Readonly<Record<ExportFormat, string>> = Object.freeze({
  csv: 'text/csv; charset=utf-8',
  jsonl: 'application/jsonl; charset=utf-8',
  json: 'application/json; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
})
