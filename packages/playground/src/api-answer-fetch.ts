// One call from the page to the API beside it: the answer's response and JSON body, timed as the page saw it,
// or why there is none (cancelled, the server not reached, a body that is not JSON), as an outcome to show,
// never a thrown error.

export type ApiAnswer =
  | { readonly ok: true; readonly response: Response; readonly body: unknown; readonly clientMs: number }
  | { readonly ok: false; readonly message: string; readonly aborted?: boolean }

export const fetchApiAnswer = async (
  url: URL,
  init: RequestInit,
  signal?: AbortSignal,
): Promise<ApiAnswer> => {
  const started = performance.now()
  let response: Response
  try {
    response = await fetch(url, { ...init, signal: signal ?? null })
  } catch (error) {
    if (signal?.aborted === true) return { ok: false, message: 'Cancelled.', aborted: true }
    return { ok: false, message: `The server could not be reached (${String(error)}).` }
  }
  let body: unknown
  try {
    body = await response.json()
  } catch {
    if (signal?.aborted === true) return { ok: false, message: 'Cancelled.', aborted: true }
    return { ok: false, message: `The server answered HTTP ${response.status} with a body that is not JSON.` }
  }
  return { ok: true, response, body, clientMs: Math.round(performance.now() - started) }
}
