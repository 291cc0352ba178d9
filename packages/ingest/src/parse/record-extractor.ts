// Computes, from one parsed record, every value the catalog keeps of it besides the record itself: the
// derived columns as text (the SQL that loads them only casts), the record-path columns, the external ids
// and the link keys. It runs in the ingest's worker threads, once
// per record; each value follows what `json_extract_string` and the catalog's SQL id forms give (the
// differential test holds the two side by side).
import type { RecordPathForm, ValueSource } from '@oqlkit/catalog/records'
import {
  anyLetterId,
  compileJsonPath,
  isExternalIdScheme,
  type JsonPathStep,
  jsonText,
  normalizeExternalId,
  type PathCollector,
  parseJsonPath,
  pathIdTail,
  valueAtPath,
} from '@oqlkit/catalog/records'
import type { LinkKeySpec, RecordExtractionSpec } from './record-extraction-spec.ts'

/** What a record adds to its row, keyed by the staged row's column names. */
export type ExtractedValues = Record<string, unknown>

export type RecordExtractor = (record: Record<string, unknown>) => ExtractedValues

/** The staged row's columns for the link keys of link table `index` (LINK_TABLES order). */
export const linkColumnName = (index: number): string => `link_${index}`

interface CompiledSource {
  readonly steps: readonly JsonPathStep[]
  readonly transform: ValueSource['transform']
}

/** What a presence column's row value is when a source yields a value (the load reads only `IS NOT NULL`). */
export const PRESENT = 'true'

function transformed(source: CompiledSource, record: unknown): string | null {
  const value = valueAtPath(record, source.steps)
  return transformedValue(source, value)
}

/**
 * Whether `source` yields a value, as `transformed(...) !== null` says, without writing an object or a list
 * out as JSON text (only the text transforms below read the text, and they apply to strings and numbers).
 */
function yieldsValue(source: CompiledSource, record: unknown): boolean {
  const value = valueAtPath(record, source.steps)
  if (value === undefined || value === null) return false
  if (source.transform === 'value' || source.transform === 'array-length') return true
  return transformedValue(source, value) !== null
}

function transformedValue(source: CompiledSource, value: unknown): string | null {
  const { transform } = source
  if (transform === 'array-length') {
    if (value === undefined || value === null) return null
    return String(Array.isArray(value) ? value.length : 0)
  }
  const text = jsonText(value)
  if (text === null) return null
  if (transform === 'value') return text
  if (transform === 'letter-id') return anyLetterId(text) ?? null
  if (transform === 'path-id') return pathIdTail(text) ?? null
  if (transform === 'upper') return text.toUpperCase()
  if (isExternalIdScheme(transform)) return normalizeExternalId(transform, text) ?? null
  const unknown: never = transform
  throw new Error(`unknown transform ${String(unknown)}`)
}

/**
 * The value of a record-path column; null for no value, an empty list or a zero count, which the row leaves
 * out (the load reads a missing list as empty and a missing count as 0): most works have none of most
 * paths, and the rows are half the size without them.
 */
function pathColumnValue(
  form: RecordPathForm,
  steps: readonly JsonPathStep[],
  collect: PathCollector,
  record: unknown,
): unknown {
  if (form === 'text') return jsonText(valueAtPath(record, steps))
  const values: unknown[] = []
  collect(record, values)
  if (values.length === 0) return null
  if (form === 'count') return values.length
  if (form === 'list') {
    const texts: string[] = []
    for (const value of values) {
      const text = jsonText(value)
      if (text !== null) texts.push(text)
    }
    return texts.length === 0 ? null : texts
  }
  // oa-versions: the version of each element whose is_oa reads as `true`, null versions kept.
  const versions: (string | null)[] = []
  for (const value of values) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) continue
    const element = value as Record<string, unknown>
    if (jsonText(element.is_oa) === 'true') versions.push(jsonText(element.version))
  }
  return versions.length === 0 ? null : versions
}

function linkKey(spec: LinkKeySpec, text: string): string | undefined {
  if (spec.transform === 'letter-id') {
    const short = anyLetterId(text)
    return short !== undefined && short[0] === spec.letter ? short : undefined
  }
  const tail = pathIdTail(text)
  return spec.transform === 'country' ? tail?.toUpperCase() : tail
}

export function recordExtractorOf(spec: RecordExtractionSpec): RecordExtractor {
  const derived = spec.derived.map((sources, index) => ({
    presence: spec.presence[index] === true,
    sources: sources.map((source) => ({ steps: parseJsonPath(source.path), transform: source.transform })),
  }))
  const pathColumns = spec.pathColumns.map((column) => {
    const steps = parseJsonPath(column.path)
    return { ...column, steps, collect: compileJsonPath(steps) }
  })
  const externalIds = spec.externalIds.map((source) => ({
    ...source,
    collect: compileJsonPath(parseJsonPath(source.path)),
  }))
  const links = spec.links.map((link) => ({
    link,
    collectors: link.paths.map((path) => compileJsonPath(parseJsonPath(path))),
  }))

  return (record) => {
    const row: ExtractedValues = {}
    const values: (string | null)[] = []
    for (const { presence, sources } of derived) {
      let value: string | null = null
      for (const source of sources) {
        if (presence) value = yieldsValue(source, record) ? PRESENT : null
        else value = transformed(source, record)
        if (value !== null) break
      }
      values.push(value)
    }
    row.derived = values
    for (const column of pathColumns) {
      const value = pathColumnValue(column.form, column.steps, column.collect, record)
      if (value !== null) row[column.name] = value
    }

    const ids = new Set<string>()
    const pairs: [string, string][] = []
    const found: unknown[] = []
    for (const source of externalIds) {
      found.length = 0
      source.collect(record, found)
      for (const value of found) {
        const text = jsonText(value)
        const normalised = text === null ? undefined : normalizeExternalId(source.scheme, text)
        if (normalised === undefined) continue
        const key = `${source.scheme}\u0000${normalised}`
        if (ids.has(key)) continue
        ids.add(key)
        pairs.push([source.scheme, normalised])
      }
    }
    if (pairs.length > 0) row.external_ids = pairs

    for (const [index, { link, collectors }] of links.entries()) {
      // Each key once: the link tables take a work's keys as distinct pairs without a DISTINCT of their own
      // (catalog-sql.ts, `stagedLinkRowsSql`).
      const keys = new Set<string>()
      for (const collect of collectors) {
        found.length = 0
        collect(record, found)
        for (const value of found) {
          const text = jsonText(value)
          const key = text === null ? undefined : linkKey(link, text)
          if (key !== undefined) keys.add(key)
        }
      }
      if (keys.size > 0) row[linkColumnName(index)] = [...keys]
    }

    return row
  }
}
