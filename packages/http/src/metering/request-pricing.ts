import { type CostClass, costClassOfPlan, type PlanOptions, planQuery } from '@oqlkit/engine'
import { type TranslationResult, translate } from '@oqlkit/oql'
import { type Oqo, parseBoundedJson } from '@oqlkit/oqo-schema'
import type { H3EventContext } from 'h3'
import { EXPORT_SEGMENT } from '../export/export-request-reader.ts'
import { entityOfPath } from '../request/entity-paths.ts'
import { readListOnce } from '../request/list-reading.ts'
import { LOOKUP_SEGMENT } from '../request/lookup-request-reader.ts'
import { rawQueryOf, readQueryParameters } from '../request/query-parameters.ts'
import { MAX_REQUEST_LINE_BYTES, requestLineBytes } from '../request/request-line-limit.ts'
import { SNOWBALL_SEGMENT } from '../request/snowball-request-reader.ts'

/** The price class of a query in its canonical OQO form, or undefined when it does not plan. */
const classOfOqo = (oqo: Oqo | null, planOptions: PlanOptions): CostClass | undefined => {
  if (oqo === null) return undefined
  const planned = planQuery(oqo, {}, planOptions)
  return planned.ok ? costClassOfPlan(planned.plan) : undefined
}

/**
 * An OQL text or OQO (object or JSON text) read and validated as the execute endpoint reads it: its
 * canonical OQO, or null when it is not a valid query. Only a valid query is planned, so malformed input
 * (`{}`, `[]`, a null node, …) is left free here and refused with its 400 by the handler.
 */
const oqoOf = (form: 'oql' | 'oqo', value: unknown): Oqo | null => {
  if (form === 'oql') return typeof value === 'string' ? validOqo(translate({ oql: value })) : null
  let oqo = value
  if (typeof value === 'string')
    try {
      oqo = parseBoundedJson(value)
    } catch {
      return null
    }
  return validOqo(translate({ oqo }))
}

const validOqo = (translation: TranslationResult): Oqo | null =>
  translation.validation.valid ? translation.oqo : null

/** Bodies larger than this are not priced (free): the execute endpoint refuses them anyway. */
const MAX_PRICED_BODY_BYTES = 4 * 1024 * 1024

// Reads a clone of the body (the handler reads the original), stopping past the cap.
const readJsonBody = async (request: Request): Promise<unknown> => {
  const stream = request.clone().body
  if (stream === null) return undefined
  const reader = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > MAX_PRICED_BODY_BYTES) return undefined
      text += decoder.decode(value, { stream: true })
    }
  } catch {
    // The body broke off (the client closed mid-body, or bad chunked framing): not priced, and the
    // handler's own read answers the 400.
    return undefined
  } finally {
    // Not awaited: a branch of a teed body settles its cancel only once the other branch ends too.
    reader.cancel().catch(() => {})
  }
  try {
    return parseBoundedJson(text + decoder.decode())
  } catch {
    return undefined
  }
}

/**
 * What a request will cost, before it runs (so an unaffordable call is refused without running):
 * its class in the engine's price table, or undefined for free requests. Lists (and groups) are priced
 * by their plan (`costClassOfPlan`: list, search or semantic); the execute endpoints (`/?oql=`,
 * `/?oqo=`, `POST /`) like the classic list of the same query; singletons at 0; `/text` as text.
 * Everything else is free: the root document, `/query` translation, `/validate`, `/parse-context`,
 * `/properties`, `/query/spec`, autocomplete, `/rate-limit`, collection management. A request that does
 * not read or plan is free too (it fails with 400); a charged call that fails is refunded anyway.
 */
export const priceRequest = async (
  request: Request,
  pathname: string,
  planOptions: PlanOptions = {},
  /** The context of the request's event: a list read here is kept there for its handler. */
  context?: H3EventContext,
): Promise<CostClass | undefined> => {
  if (requestLineBytes(request) > MAX_REQUEST_LINE_BYTES) return undefined
  const segments = pathname.split('/').filter((segment) => segment !== '')
  const [first] = segments
  const method = request.method
  if (first === undefined) {
    if (method === 'POST') {
      const body = await readJsonBody(request)
      if (typeof body !== 'object' || body === null) return undefined
      const fields = body as Record<string, unknown>
      if ('oql' in fields) return classOfOqo(oqoOf('oql', fields.oql), planOptions)
      if ('oqo' in fields) return classOfOqo(oqoOf('oqo', fields.oqo), planOptions)
      return undefined
    }
    const parameter = readQueryParameters(rawQueryOf(request.url)).find(
      (candidate) => candidate.name === 'oql' || candidate.name === 'oqo',
    )
    return parameter === undefined
      ? undefined
      : classOfOqo(oqoOf(parameter.name as 'oql' | 'oqo', parameter.value), planOptions)
  }
  if (first === 'text') return 'text'
  const entity = entityOfPath(first)
  if (entity === undefined) return undefined
  // An export is priced by its rows, known once it starts: its handler charges them (`chargeMore`).
  if (segments.length === 2 && segments[1] === EXPORT_SEGMENT) return undefined
  // A bulk lookup is priced by its ids, known once its body is read: its handler charges them too.
  if (segments.length === 2 && segments[1] === LOOKUP_SEGMENT && method === 'POST') return undefined
  // A snowball costs a list call at the gate, so a budget that cannot pay one never runs it; the works it
  // answers past the first thousand are known once it has run, and its handler charges them then.
  if (segments.length === 2 && segments[1] === SNOWBALL_SEGMENT && entity === 'works') return 'list'
  if (segments.length > 1) return 'singleton'
  if (method !== 'GET' && method !== 'HEAD') return undefined
  const { planning } = readListOnce(context, entity, request.url, planOptions)
  return planning?.ok ? costClassOfPlan(planning.plan) : undefined
}
