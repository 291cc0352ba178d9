import {
  costClassOfPlan,
  costUsdOf,
  type PlanOptions,
  planQuery,
  type QueryPlan,
  type StorageAdapter,
  streamRows,
  type ViewParameters,
} from '@oqlkit/engine'
import { type EntityType, entityPath, type Oqo } from '@oqlkit/oqo-schema'
import type { H3Event } from 'h3'
import type { PlanResolver } from '../collections/collection-filter-hook.ts'
import { ApiError } from '../errors/api-error.ts'
import { planProblemsOf } from '../errors/plan-problems.ts'
import { deadlineSignal } from '../limits/deadline-signal.ts'
import type { RequestLimits } from '../limits/request-limits.ts'
import { meteredRequestOf } from '../metering/metered-request.ts'
import { entityOfPath } from '../request/entity-paths.ts'
import { rawQueryOf } from '../request/query-parameters.ts'
import { unknownEntityError } from '../routes/entity-list-handler.ts'
import { readExportBatch } from './export-batch-reader.ts'
import { EXPORT_CONTENT_TYPES, type ExportFormat } from './export-format.ts'
import { readExportQuery } from './export-query-reader.ts'
import { readExportRequest } from './export-request-reader.ts'
import { type ExportEnd, type ParquetWriter, parquetExportBody, textExportBody } from './row-export-body.ts'
import { csvEncoder, jsonArrayEncoder, jsonLinesEncoder, type RowTextEncoder } from './row-text-encoder.ts'

/** Rows one storage call of an export reads: the memory an export holds, and how often it checks on its client. */
export const EXPORT_BATCH_ROWS = 1000

/** The longest an export waits for its client to read before it gives up, and its slot with it. */
export const EXPORT_IDLE_MS = 60_000

/** The price of an export: the list price of its query for every 1,000 rows begun (an empty one costs one). */
export const exportCostUsd = (plan: QueryPlan, rows: number): number =>
  costUsdOf(costClassOfPlan(plan)) * Math.max(1, Math.ceil(rows / 1000))

export interface ExportHandlerOptions {
  /** The adapter itself, not the per-request view `RequestLimits.adapter` gives: an export outlives its handler. */
  readonly adapter: StorageAdapter
  readonly limits: RequestLimits
  readonly resolvePlan?: PlanResolver
  readonly planOptions?: PlanOptions
  /** Writes Parquet; without it `format=parquet` answers 501. */
  readonly writeParquet?: ParquetWriter
  readonly logError?: (error: unknown) => void
}

const encoderOf = (format: 'csv' | 'jsonl' | 'json', select: readonly string[] | null): RowTextEncoder =>
  format === 'csv' ? csvEncoder(select) : format === 'json' ? jsonArrayEncoder() : jsonLinesEncoder()

/**
 * `GET /{entities}/export?format=csv|jsonl|json|parquet&…`: every row of a list query, streamed, past the
 * 10,000 results that paging reaches. The list is read as the list endpoint reads it and walked by keyset
 * (cursor) pages of 1,000 rows (`streamRows`), each read only when the client has taken the last.
 *
 * - Admission: an export holds a slot of the exports' own admission queue from its first row sent to its last,
 *   apart from the heavy plans' slots, so exports never keep a search, group-by or sample waiting, and cheap
 *   requests (lists and singletons) never queue at all. Its first batch is read before that, as the list
 *   request it is (a search waits for a heavy slot like any search): a query the storage refuses (a search it
 *   cannot run) is a 400 before the export waits for anything. The wait for an export slot ends after one
 *   query timeout (`queryTimeoutMs`), and a full queue at once, both with 503 `server_busy` and
 *   `Retry-After`. A HEAD needs no slot: it sends no rows.
 * - Deadlines: the first batch has the request's time budget, and the wait for a slot one query timeout of
 *   its own (a first batch read slowly on a busy server must not leave the wait no time); each later storage
 *   call (one batch) has the budget of a whole list request, since a batch costs what a cursor page does; the
 *   export as a whole has none, because its length grows with the catalog and the client's reading speed, not
 *   with the cost of the query. A client that reads nothing for 60 s is given up on, so a stalled client
 *   cannot hold a slot.
 * - The main thread: a batch's records are parsed and encoded a slice of rows at a time, between turns of the
 *   event loop, so exports do not hold up other requests (or their deadlines) for a whole batch.
 * - Price: the list price of the query for every 1,000 rows begun, charged once the first batch has told the
 *   count and before any row is sent, so a budget that cannot pay answers 429 and nothing is charged
 *   (`X-Export-Rows` says how many rows follow, `X-RateLimit-Credits-Used` what they cost). A failure before
 *   the rows is refunded as any failed call; a failure of the server's while they flow is refunded too; a
 *   client that leaves mid-way has taken rows and is not.
 * - Cancellation: a client that goes away interrupts the storage statement running and no more are made;
 *   a shutdown interrupts exports after its grace period like any request.
 */
export const exportHandler =
  (options: ExportHandlerOptions) =>
  async (event: H3Event): Promise<Response> => {
    const segment = event.context.params?.entity ?? ''
    const entity = entityOfPath(segment)
    if (entity === undefined) throw unknownEntityError(segment)
    const reading = readExportRequest(entity, rawQueryOf(event.req.url))
    if (!reading.ok) throw new ApiError(400, reading.problems)
    const { format, list } = reading.request
    return runExport(event, options, { entity, format, oqo: list.oqo, view: list.view })
  }

/** The writer, run in the server's one Parquet conversion slot (`RequestLimits.parquetConversions` says why). */
const convertingOneAtATime =
  (limits: RequestLimits, writeParquet: ParquetWriter): ParquetWriter =>
  (source, target, rows, options) =>
    limits.parquetConversions.run(() => writeParquet(source, target, rows, options), options.signal)

/** What one export runs: the entity path it answers for, the form, and the planned query. */
interface ExportRun {
  readonly entity: EntityType
  readonly format: ExportFormat
  readonly oqo: Oqo
  readonly view: ViewParameters
}

const runExport = async (
  event: H3Event,
  options: ExportHandlerOptions,
  run: ExportRun,
): Promise<Response> => {
  const { entity, format } = run
  if (format === 'parquet' && options.writeParquet === undefined)
    throw ApiError.of(
      501,
      'not_supported',
      'This server writes no Parquet. Ask for format=csv, jsonl or json.',
    )
  const planning = planQuery(run.oqo, run.view, options.planOptions ?? {})
  if (!planning.ok) throw new ApiError(400, planProblemsOf(planning.errors))
  if (planning.plan.groupBy.length > 0)
    throw ApiError.of(
      400,
      'invalid_export',
      'An export streams rows, not group_by buckets. Drop the grouping, or ask the list endpoint for the buckets.',
    )
  const { plan } = options.resolvePlan === undefined ? planning : await options.resolvePlan(event, planning)
  const { limits } = options
  // A full line of exports is refused before any storage work is spent on the first batch.
  limits.exportAdmission.refuseIfFull()
  const stop = new AbortController()
  const signal = AbortSignal.any([stop.signal, event.req.signal])
  // The request's deadline (and a shutdown) bound the first batch, as they bound a list request.
  const request = limits.requestSignal()
  const untilAnswered = request === undefined ? signal : AbortSignal.any([signal, request])
  let batches = 0
  // JSON Lines and JSON of whole records send the catalog's stored bytes: the rows are never parsed.
  const sendsStoredBytes = (format === 'jsonl' || format === 'json') && plan.select === null
  const rest = streamRows(
    {
      // Each batch has the budget of a list request; the client's leaving or a shutdown stops any of them. The
      // first is read as the list request it is (a search waits for a heavy slot), within the request's
      // deadline; the others under the export's own slot.
      queryRows: (batch, own) => {
        const first = batches++ === 0
        const deadline = deadlineSignal(limits.queryTimeoutMs)
        const batchSignal = AbortSignal.any([
          first ? untilAnswered : (own?.signal ?? signal),
          deadline.signal,
        ])
        const read = () => readExportBatch(options.adapter, batch, { signal: batchSignal, sendsStoredBytes })
        return (first ? limits.runPlan(batch, read, untilAnswered) : read()).finally(deadline.clear)
      },
    },
    plan,
    { batchSize: EXPORT_BATCH_ROWS, signal },
  )
  let release: (() => void) | undefined
  let answered = false
  try {
    const first = await rest.next()
    if (first.done === true) throw new Error('a row stream gave no first batch')
    const rows = first.value.count
    const headers = {
      'content-type': EXPORT_CONTENT_TYPES[format],
      'content-disposition': `attachment; filename="${entityPath(entity)}.${format}"`,
      'cache-control': 'no-store',
      'x-export-rows': String(rows),
    }
    // A HEAD asks how many rows an export would send; it sends none, so it needs no slot and is not charged.
    if (event.req.method === 'HEAD') return new Response(null, { status: 200, headers })
    // The query runs: now the export waits for a slot of its own, for one query timeout at most (counted from
    // here: on a busy server the first batch may have used the request's own), or until a shutdown.
    const waitDeadline = deadlineSignal(limits.queryTimeoutMs)
    const held = await limits.exportAdmission
      .acquire(AbortSignal.any([signal, waitDeadline.signal, shutdownOf(request)]))
      .finally(waitDeadline.clear)
    release = held
    const metered = meteredRequestOf(event)
    const costUsd = exportCostUsd(plan, rows)
    if (metered !== undefined) {
      const refused = await metered.chargeMore(costUsd)
      if (refused !== undefined) return refused
    }
    let finished: () => void = () => {}
    limits.holdOpen(
      stop,
      new Promise<void>((resolve) => {
        finished = resolve
      }),
    )
    const onEnd = (end: ExportEnd) => {
      held()
      finished()
      if (end.kind === 'failed') {
        // Headers are sent: the client sees the body break off short of X-Export-Rows, and pays nothing.
        options.logError?.(end.error)
        metered?.refundMore().catch(() => {})
      }
    }
    const parts = { first: first.value, rest, stop, idleMs: EXPORT_IDLE_MS, onEnd }
    const body =
      format === 'parquet'
        ? parquetExportBody(
            parts,
            convertingOneAtATime(limits, options.writeParquet!),
            plan.select,
            plan.entity,
          )
        : textExportBody(parts, encoderOf(format, plan.select))
    answered = true
    return new Response(body, { status: 200, headers })
  } finally {
    if (!answered) {
      stop.abort()
      await rest.return().catch(() => {})
      release?.()
    }
  }
}

/** A signal that fires when `request` fires for a shutdown, and not at its deadline. */
const shutdownOf = (request: AbortSignal | undefined): AbortSignal => {
  const shutdown = new AbortController()
  if (request?.aborted === true && request.reason === 'shutdown') shutdown.abort('shutdown')
  request?.addEventListener(
    'abort',
    () => {
      if (request.reason === 'shutdown') shutdown.abort('shutdown')
    },
    { once: true },
  )
  return shutdown.signal
}

/**
 * `GET /export?oql=…|oqo=…&format=…[&sort=…&select=…]`: the same export of a query given as OQL or OQO (the
 * entity is the query's own).
 */
export const queryExportHandler =
  (options: ExportHandlerOptions) =>
  async (event: H3Event): Promise<Response> => {
    const reading = readExportQuery(rawQueryOf(event.req.url))
    if (!reading.ok) throw new ApiError(400, reading.problems)
    const { format, oqo, view } = reading.request
    return runExport(event, options, { entity: oqo.get_rows as EntityType, format, oqo, view })
  }
