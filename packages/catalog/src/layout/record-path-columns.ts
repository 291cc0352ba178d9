// Columns that hold what the query side once read from the `record` JSON at every query: a value of the
// record by its JSON path, computed once by ingest. Which paths an entity table has is decided by the query
// side (`recordPathColumnsOf` in query/column-sources.ts: the paths its registry columns and computed
// columns read); this file says how one is named, typed and described. Each name is derived from the path,
// so the same path is the same column in every catalog.
import type { CatalogColumnType } from './entity-columns.ts'

/**
 * What a column holds of its path's values:
 * `text` `json_extract_string(record, path)` (a path without wildcards), as the record writes the value;
 * `list` the values of a wildcard path without nulls (`list_filter(json_extract_string(record, path), …)`),
 * an empty list when the record has none;
 * `count` how many values a wildcard path has (`len(json_extract(record, path))`);
 * `oa-versions` the `version` of each element of the path whose `is_oa` is true (null versions kept).
 */
export type RecordPathForm = 'text' | 'list' | 'count' | 'oa-versions'

export interface RecordPathColumn {
  readonly name: string
  /** A JSON path the SQL text checks (`jsonPathLiteral`), `[*]` after list steps. */
  readonly path: string
  readonly form: RecordPathForm
  readonly type: CatalogColumnType
  readonly description: string
}

const PREFIX: Readonly<Record<RecordPathForm, string>> = {
  text: 'json',
  list: 'json',
  count: 'json_count',
  'oa-versions': 'json_oa_versions',
}

const TYPE: Readonly<Record<RecordPathForm, CatalogColumnType>> = {
  text: 'VARCHAR',
  list: 'VARCHAR[]',
  count: 'BIGINT',
  'oa-versions': 'VARCHAR[]',
}

const DESCRIPTION: Readonly<Record<RecordPathForm, (path: string) => string>> = {
  text: (path) => `${path} as text (json_extract_string)`,
  list: (path) => `the values at ${path} as text, nulls left out`,
  count: (path) => `the number of values at ${path}`,
  'oa-versions': (path) => `the version of each open-access element of ${path}`,
}

const STEP = /\.(?:"([^"]+)"|([A-Za-z0-9_]+))|\[\*\]/g

/**
 * The column of a path (`$.authorships[*].institutions[*].type` → `json__authorships__institutions__type`):
 * the form's prefix and the path's keys, joined by `__`. Whether a path is a list is the path's own
 * (`[*]`), so the name needs no mark of it; the names of one entity are checked to be distinct where they
 * are collected.
 */
export function recordPathColumn(path: string, form: RecordPathForm): RecordPathColumn {
  const list = path.includes('[*]')
  if (list !== (form !== 'text'))
    throw new Error(`A ${form} column needs a path ${list ? 'without' : 'with'} [*]: ${path}`)
  const keys: string[] = []
  for (const match of path.slice(1).matchAll(STEP)) {
    const key = match[1] ?? match[2]
    if (key !== undefined) keys.push(key)
  }
  if (path.slice(1).replace(STEP, '') !== '' || keys.length === 0)
    throw new Error(`Not a record path a column can hold: ${path}`)
  return {
    name: [PREFIX[form], ...keys].join('__'),
    path,
    form,
    type: TYPE[form],
    description: DESCRIPTION[form](path),
  }
}
