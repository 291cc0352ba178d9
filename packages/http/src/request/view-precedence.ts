import type { ViewParameters } from '@oqlkit/engine'
import { readSortParameter, type UrlView } from '@oqlkit/oql'
import type { EmbeddedView } from '@oqlkit/oqo-schema'

/** View parameters given beside a query (body keys or query-string parameters), already read. */
export interface ViewSiblings {
  readonly sort?: string
  readonly select?: readonly string[]
  readonly page?: number
  readonly perPage?: number
  readonly cursor?: string
}

const fromEmbedded = (embedded: EmbeddedView): ViewSiblings => ({
  ...(embedded.sort === undefined ? {} : { sort: embedded.sort }),
  ...(embedded.select === undefined ? {} : { select: embedded.select }),
  ...(embedded.page === undefined ? {} : { page: embedded.page }),
  ...(embedded.per_page === undefined ? {} : { perPage: embedded.per_page }),
  ...(embedded.cursor === undefined ? {} : { cursor: embedded.cursor }),
})

const firstOf = <K extends keyof ViewSiblings>(
  layers: readonly ViewSiblings[],
  key: K,
): ViewSiblings[K] | undefined => layers.find((layer) => layer[key] !== undefined)?.[key]

/**
 * The view of an execute request, parameter by parameter from the first layer that gives it: the
 * siblings in their order (body, then query string) and last the values an older client embedded in
 * the OQO (the transitional shape). Also the view as URL parameters, for `meta.x_query.url`.
 */
export const viewByPrecedence = (
  siblings: readonly ViewSiblings[],
  embedded: EmbeddedView,
): { view: ViewParameters; urlView: UrlView } => {
  const layers = [...siblings, fromEmbedded(embedded)]
  const sort = firstOf(layers, 'sort')
  const select = firstOf(layers, 'select')
  const page = firstOf(layers, 'page')
  const perPage = firstOf(layers, 'perPage')
  const cursor = firstOf(layers, 'cursor')
  return {
    view: {
      ...(sort === undefined || sort === '' ? {} : { sort: readSortParameter(sort) }),
      ...(select === undefined ? {} : { select }),
      ...(page === undefined ? {} : { page }),
      ...(perPage === undefined ? {} : { perPage }),
      ...(cursor === undefined ? {} : { cursor }),
    },
    urlView: {
      ...(sort === undefined ? {} : { sort }),
      ...(select === undefined ? {} : { select: select.join(',') }),
    },
  }
}
