import type { Filter, Oqo } from '@oqlkit/oqo-schema'
import type { Span } from '../diagnostics/oql-diagnostic.ts'

// Validation of the OQO reports JSON paths (`filter_rows[0].filters[1].value`); an editor wants the text
// they came from. The lowering remembers the spans of each filter object and of the other members, and
// a path is resolved only when validation reports something, by walking the object along it.

/** The spans a filter of the OQO came from, so validation of the object can point into the text. */
export interface FilterSpans {
  readonly node: Span
  readonly column?: Span
  readonly operator?: Span
  readonly value?: Span
}

/** What the lowering remembers of where the OQO came from. */
export interface OqoSpans {
  /** By filter object (identity), for the paths into `filter_rows`. */
  readonly filters: ReadonlyMap<Filter, FilterSpans>
  /** By member path: `get_rows`, `corpus`, `sample`, `seed`, `group_by[1]`. */
  readonly members: ReadonlyMap<string, Span>
}

/**
 * The text a JSON path of the OQO came from: the part of a filter the path ends at (column, operator,
 * value), else the innermost filter it reaches; undefined when nothing on the path is known.
 */
export const locateOqoPath = (oqo: Oqo, path: string, spans: OqoSpans): Span | undefined => {
  const segments = [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((match) =>
    match[2] === undefined ? match[1]! : Number(match[2]),
  )
  const [head, ...rest] = segments
  if (head === 'group_by') return spans.members.get(`group_by[${String(rest[0])}]`)
  if (head !== 'filter_rows') return spans.members.get(String(head))
  let filters: readonly Filter[] | undefined = oqo.filter_rows
  let found: Span | undefined
  for (let at = 0; at < rest.length && filters !== undefined; ) {
    const index = rest[at++]
    const filter = typeof index === 'number' ? filters[index] : undefined
    if (filter === undefined) break
    const filterSpans = spans.filters.get(filter)
    found = filterSpans?.node ?? found
    const key = rest[at++]
    if (key === 'filters' && 'join' in filter) {
      filters = filter.filters
      continue
    }
    if (key === 'column_id') return filterSpans?.column ?? found
    if (key === 'operator') return filterSpans?.operator ?? found
    if (key === 'value') return filterSpans?.value ?? found
    break
  }
  return found
}
