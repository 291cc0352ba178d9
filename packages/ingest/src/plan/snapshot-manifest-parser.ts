// Reads the three manifest shapes of the public snapshots into one form:
//   legacy  <entity>/manifest        {"entries": [{"url", "meta": {"content_length", "record_count"}}], "meta": {…}}
//   2026    <entity>/manifest.json   {"entity", "format", "record_count", "content_length", "files": [{"url", "meta"}]}
//   2026    manifest.json            {"entities": [<the per-entity shape>, …], "meta": {…}}
// Each entry keeps the line it is on, so a disagreement with the files can point at it.
import { IngestError, ingestErrorDetails } from '../ingest-error.ts'

export interface ManifestEntry {
  readonly url: string
  readonly contentLength: number | null
  readonly recordCount: number | null
  readonly line: number | undefined
}

export interface EntityManifest {
  readonly path: string
  readonly entries: readonly ManifestEntry[]
  readonly totalRecordCount: number | null
  readonly totalContentLength: number | null
}

type JsonObject = { readonly [key: string]: unknown }

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const count = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : null

/** Parses a per-entity manifest (legacy or 2026). */
export function parseEntityManifest(path: string, text: string): EntityManifest {
  return entityManifestOf(path, text, parseJson(path, text), { cursor: 0 })
}

/** The entity sections of a combined 2026 manifest, keyed by entity name. */
export function parseCombinedManifest(path: string, text: string): ReadonlyMap<string, EntityManifest> {
  const value = parseJson(path, text)
  const sections = isObject(value) ? value.entities : undefined
  if (!Array.isArray(sections)) throw invalid(path, undefined, 'expected an `entities` list')
  const result = new Map<string, EntityManifest>()
  const position = { cursor: 0 }
  for (const section of sections) {
    if (!isObject(section) || typeof section.entity !== 'string') {
      throw invalid(path, undefined, 'expected every `entities` item to name its `entity`')
    }
    result.set(section.entity, entityManifestOf(path, text, section, position))
  }
  return result
}

function entityManifestOf(
  path: string,
  text: string,
  value: unknown,
  position: { cursor: number },
): EntityManifest {
  if (!isObject(value)) throw invalid(path, 1, 'expected a JSON object')
  const list = value.files ?? value.entries
  if (!Array.isArray(list)) throw invalid(path, 1, 'expected a `files` (or `entries`) list')
  const meta = isObject(value.meta) ? value.meta : {}
  const entries = list.map((item): ManifestEntry => {
    if (!isObject(item) || typeof item.url !== 'string' || item.url === '') {
      throw invalid(path, undefined, 'expected every entry to have a `url`')
    }
    const itemMeta = isObject(item.meta) ? item.meta : item
    const line = lineOf(text, item.url, position)
    return {
      url: item.url,
      contentLength: count(itemMeta.content_length),
      recordCount: count(itemMeta.record_count),
      line,
    }
  })
  return {
    path,
    entries,
    totalRecordCount: count(value.record_count ?? meta.record_count),
    totalContentLength: count(value.content_length ?? meta.content_length),
  }
}

function parseJson(path: string, text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const message = (error as Error).message
    const at = /position (\d+)/.exec(message)
    throw invalid(path, at ? lineAtOffset(text, Number(at[1])) : undefined, message)
  }
}

// Entries appear in the text in list order, so each search starts after the previous hit.
function lineOf(text: string, url: string, position: { cursor: number }): number | undefined {
  for (const needle of [JSON.stringify(url), JSON.stringify(url).replaceAll('/', '\\/')]) {
    const index = text.indexOf(needle, position.cursor)
    if (index !== -1) {
      position.cursor = index + needle.length
      return lineAtOffset(text, index)
    }
  }
  return undefined
}

function lineAtOffset(text: string, offset: number): number {
  let line = 1
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1))
    line++
  return line
}

function invalid(path: string, line: number | undefined, reason: string): IngestError {
  return new IngestError({
    code: 'manifest-invalid',
    file: path,
    ...(line === undefined ? {} : { line }),
    detail: ingestErrorDetails.manifestInvalid(reason),
  })
}
