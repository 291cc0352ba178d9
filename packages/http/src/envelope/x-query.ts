import { oqoToUrl, printOqlOneline, type UrlView } from '@oqlkit/oql'
import type { Oqo } from '@oqlkit/oqo-schema'

/** `meta.x_query`: the query in its three forms (OQL, OQO, classic URL or null when it has none). */
export interface XQuery {
  readonly oql: string | null
  readonly oqo: Oqo
  readonly url: string | null
}

/**
 * The query a list answered, in every form: a by-product of the one translation path, best effort (a
 * form that cannot be written is null rather than a failed response).
 */
export const xQueryOf = (oqo: Oqo, view: UrlView = {}): XQuery => {
  let oql: string | null = null
  let url: string | null = null
  try {
    oql = printOqlOneline(oqo)
  } catch {
    oql = null
  }
  try {
    url = oqoToUrl(oqo, { base: '', view }).url
  } catch {
    url = null
  }
  return { oql, oqo, url }
}
