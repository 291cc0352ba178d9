// The page's state in its own URL (`?q=<oql>&page=&per_page=&select=`), so a link shares the query and
// the view it shows, and opening one fills the editor and runs it. Also the export links of a query.

import { ENTITY_TYPES, entityPath } from '@oqlkit/oqo-schema'

/** `id, display_name ,` → `id,display_name`: what the server reads, without the spaces people type. */
export const normalizeSelect = (select: string): string =>
  select
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '')
    .join(',')

export const PER_PAGE_CHOICES = [10, 25, 50, 100] as const
export const DEFAULT_PER_PAGE = 25

export interface LinkState {
  readonly q: string
  readonly page: number
  readonly perPage: number
  readonly select: string
}

const positiveInteger = (text: string | null, fallback: number): number => {
  const value = Number(text)
  return text !== null && Number.isInteger(value) && value >= 1 ? value : fallback
}

/** `works/W123`: an entity page's address within the playground (`?entity=`), its path and short id. */
const ENTITY_PAGE = /^([a-z][a-z-]*)\/([A-Za-z0-9][A-Za-z0-9._:-]*)$/

/** The API's paths of entities, whose singletons an entity page shows; `export` under one is the export. */
const ENTITY_PATHS: ReadonlySet<string> = new Set(ENTITY_TYPES.map((type) => entityPath(type)))

/** Whether `entity` is `<entity path>/<id>` of an entity's singleton (not another route of the API). */
const isEntityPage = (entity: string): boolean => {
  const match = ENTITY_PAGE.exec(entity)
  return match !== null && ENTITY_PATHS.has(match[1]!) && match[2] !== 'export'
}

/** The playground's page of one entity: `playground?entity=works/W123`. */
export const entityPageLink = (page: URL, entity: string): URL => {
  const url = new URL(page)
  url.search = ''
  url.hash = ''
  url.searchParams.set('entity', entity)
  return url
}

/**
 * The state a link carries; `hasQuery` is false when it carries no query (the page then runs its example),
 * `entity` the entity page it opens (`works/W123`), if any.
 */
export const readLinkState = (
  search: string,
): LinkState & { readonly hasQuery: boolean; readonly entity: string | null } => {
  const params = new URLSearchParams(search)
  const q = params.get('q')
  const entity = params.get('entity')
  const perPage = positiveInteger(params.get('per_page'), DEFAULT_PER_PAGE)
  return {
    entity: entity !== null && isEntityPage(entity) ? entity : null,
    hasQuery: q !== null && q.trim() !== '',
    q: q ?? '',
    page: positiveInteger(params.get('page'), 1),
    perPage: Math.min(perPage, 100),
    select: params.get('select') ?? '',
  }
}

/** The page's link for a state: the defaults are left out, so a plain query gives a short link. */
export const linkFor = (page: URL, state: LinkState): URL => {
  const url = new URL(page)
  url.search = ''
  url.hash = ''
  if (state.q.trim() !== '') url.searchParams.set('q', state.q)
  if (state.page > 1) url.searchParams.set('page', String(state.page))
  if (state.perPage !== DEFAULT_PER_PAGE) url.searchParams.set('per_page', String(state.perPage))
  const select = normalizeSelect(state.select)
  if (select !== '') url.searchParams.set('select', select)
  return url
}

/** `<apiRoot>export?oql=…&format=csv[&select=…]`: every row of the query, as the export endpoint streams it. */
export const exportLink = (root: URL, oql: string, format: 'csv' | 'json', select: string): URL => {
  const url = new URL('export', root)
  url.searchParams.set('oql', oql)
  url.searchParams.set('format', format)
  const fields = normalizeSelect(select)
  if (fields !== '') url.searchParams.set('select', fields)
  return url
}
