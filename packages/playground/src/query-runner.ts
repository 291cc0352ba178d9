// Runs OQL against the server that served the page (`GET /?oql=`), and says what came back.

export interface ListEnvelope {
  readonly meta: Record<string, unknown>
  readonly results?: readonly Record<string, unknown>[]
  readonly group_by?: readonly Record<string, unknown>[]
}

export type RunOutcome =
  | { readonly ok: true; readonly body: ListEnvelope; readonly summary: string }
  | { readonly ok: false; readonly summary: string }

/** The API's root, beside the page: the page is served at `<root>/playground`. */
export const apiRoot = (): URL => new URL('.', location.href)

export const runQuery = async (oql: string): Promise<RunOutcome> => {
  const url = new URL(apiRoot())
  url.searchParams.set('oql', oql)
  const started = performance.now()
  const response = await fetch(url)
  const body = (await response.json()) as ListEnvelope & { message?: string; error?: string }
  const ms = Math.round(performance.now() - started)
  if (!response.ok) return { ok: false, summary: body.message ?? body.error ?? `HTTP ${response.status}` }
  return { ok: true, body, summary: `${String(body.meta.count)} results in ${ms} ms` }
}
