import { type PlanOptions, type PlanResult, planQuery } from '@oqlkit/engine'
import type { EntityType } from '@oqlkit/oqo-schema'
import type { H3EventContext } from 'h3'
import { type ListRequestReading, readListRequest } from './list-request-reader.ts'
import { rawQueryOf } from './query-parameters.ts'

/** A list request read and planned: what metering prices and the handler runs. */
export interface ListReading {
  readonly reading: ListRequestReading
  /** The plan of a request that read (absent when it did not). */
  readonly planning?: PlanResult
}

interface HeldReading extends ListReading {
  readonly entity: EntityType
  readonly url: string
  readonly planOptions: PlanOptions
}

// Where a request's reading is kept on its event, between the metering middleware and the handler.
const LIST_READING = 'oqlkit.listReading'

/**
 * A list request (`GET /{entities}?…`) read into its OQO and view and planned, once per request: the first
 * caller (the metering middleware, which prices it, or else the handler) reads it and keeps it in the
 * event's context, and the next one takes it from there. `context` is absent for a request without an
 * event (a price asked of a bare Request), which is then read for that caller alone.
 */
export const readListOnce = (
  context: H3EventContext | undefined,
  entity: EntityType,
  url: string,
  planOptions: PlanOptions,
): ListReading => {
  const held = context?.[LIST_READING] as HeldReading | undefined
  if (held !== undefined && held.entity === entity && held.url === url && held.planOptions === planOptions)
    return held
  const reading = readListRequest(entity, rawQueryOf(url))
  const planning = reading.ok ? planQuery(reading.request.oqo, reading.request.view, planOptions) : undefined
  const read: HeldReading = {
    entity,
    url,
    planOptions,
    reading,
    ...(planning === undefined ? {} : { planning }),
  }
  if (context !== undefined) context[LIST_READING] = read
  return read
}
