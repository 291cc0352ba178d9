import type { ViewParameters } from '@oqlkit/engine'
import { readSortParameter, type UrlView } from '@oqlkit/oql'
import type { EmbeddedView, QueryView } from '@oqlkit/oqo-schema'

/**
 * View parameters given beside a query (body keys or query-string parameters), already read by oql's view
 * reader, with the sort as written (for `meta.x_query.url`).
 */
export interface ViewSiblings extends QueryView {
  /** The `sort` as the request wrote it (trimmed); set with `sort`. */
  readonly sortText?: string
}

const fromEmbedded = (embedded: EmbeddedView): ViewSiblings => ({
  ...(embedded.sort === undefined
    ? {}
    : {
        sortText: embedded.sort,
        ...(embedded.sort === '' ? {} : { sort: readSortParameter(embedded.sort) }),
      }),
  ...(embedded.select === undefined ? {} : { select: embedded.select }),
  ...(embedded.page === undefined ? {} : { page: embedded.page }),
  ...(embedded.per_page === undefined ? {} : { perPage: embedded.per_page }),
  ...(embedded.cursor === undefined ? {} : { cursor: embedded.cursor }),
})

const layerWith = <K extends keyof ViewSiblings>(
  layers: readonly ViewSiblings[],
  key: K,
): ViewSiblings | undefined => layers.find((layer) => layer[key] !== undefined)

const firstOf = <K extends keyof ViewSiblings>(
  layers: readonly ViewSiblings[],
  key: K,
): ViewSiblings[K] | undefined => layerWith(layers, key)?.[key]

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
  const sorted = layerWith(layers, 'sortText')
  const sort = sorted?.sort
  const sortText = sorted?.sortText
  const select = firstOf(layers, 'select')
  const page = firstOf(layers, 'page')
  const perPage = firstOf(layers, 'perPage')
  const cursor = firstOf(layers, 'cursor')
  return {
    view: {
      ...(sort === undefined ? {} : { sort }),
      ...(select === undefined ? {} : { select }),
      ...(page === undefined ? {} : { page }),
      ...(perPage === undefined ? {} : { perPage }),
      ...(cursor === undefined ? {} : { cursor }),
    },
    urlView: {
      ...(sortText === undefined ? {} : { sort: sortText }),
      ...(select === undefined ? {} : { select: select.join(',') }),
    },
  }
}
