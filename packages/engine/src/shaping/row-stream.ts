import { throwIfInterrupted } from '../adapter/query-interrupted-error.ts'
import type { EntityRecord, StorageAdapter } from '../adapter/storage-adapter.ts'
import { UnsupportedPlanError } from '../adapter/unsupported-plan-error.ts'
import type { QueryPlan } from '../plan/query-plan.ts'
import { shapeEntity } from './entity-shaper.ts'

/** Rows one storage call reads for a stream, unless told otherwise. */
export const DEFAULT_STREAM_BATCH_SIZE = 1000

/** One batch of a row stream: its rows, shaped as a list shapes them, and how many the whole stream holds. */
export interface RowBatch {
  /**
   * Every row the stream will give, known from its first storage call: the plan's count, or the size of a
   * sample (when it finds that many rows).
   */
  readonly count: number
  readonly rows: readonly EntityRecord[]
  /**
   * The same rows as the UTF-8 JSON the adapter stores, when they are those records unchanged (no select, no
   * score; `RowsResult.rowsJsonBytes`): a consumer that writes JSON sends these bytes as they are, and `rows`
   * is then parsed only if it is read.
   */
  readonly jsonBytes?: readonly Uint8Array[]
}

/** A batch of stored records: its rows are parsed from the bytes only when first read. */
const storedBatch = (
  count: number,
  jsonBytes: readonly Uint8Array[],
  rowsOf: () => readonly EntityRecord[],
): RowBatch => {
  let rows: readonly EntityRecord[] | undefined
  return {
    count,
    jsonBytes,
    get rows() {
      rows ??= rowsOf()
      return rows
    },
  }
}

export interface RowStreamOptions {
  /** Rows per storage call (default 1,000): what the stream holds in memory at once. */
  readonly batchSize?: number
  /** Stops the stream: the storage call running is interrupted (a `QueryInterruptedError`), no more are made. */
  readonly signal?: AbortSignal
  /** The seed of a sample that has none: every batch must come from the same sample (default: a random one). */
  readonly sampleSeed?: string
}

const withPage = (plan: QueryPlan, page: QueryPlan['page']): QueryPlan =>
  Object.freeze({ ...plan, page: Object.freeze(page) })

/**
 * Every row of a list plan, in its order, in batches: the keyset (cursor) paging of the lists, so no depth
 * limit applies and each batch costs what a cursor page costs, however deep. Only one batch is held at a time,
 * and the next is read only when the consumer asks for it. A sample is read by position (its rows have no
 * sort keys), from one seed. The first batch always comes, empty when nothing matches, so a consumer learns the
 * count. The plan's own page is ignored; its `select` shapes each row. A plan with
 * `groupBy` has no rows to stream: an `UnsupportedPlanError`.
 */
export async function* streamRows(
  adapter: Pick<StorageAdapter, 'queryRows'>,
  plan: QueryPlan,
  options: RowStreamOptions = {},
): AsyncGenerator<RowBatch, void, undefined> {
  if (plan.groupBy.length > 0)
    throw new UnsupportedPlanError(
      'capability',
      'a group_by answers buckets, not rows: it has no rows to stream',
    )
  const batchSize = options.batchSize ?? DEFAULT_STREAM_BATCH_SIZE
  if (!Number.isSafeInteger(batchSize) || batchSize < 1)
    throw new RangeError(`batchSize must be a whole number of rows, 1 or more (was ${batchSize})`)
  const { signal } = options
  const queryOptions = signal === undefined ? {} : { signal }

  if (plan.sample !== null) {
    const sample = Object.freeze({
      ...plan.sample,
      seed: plan.sample.seed ?? options.sampleSeed ?? crypto.randomUUID(),
    })
    let count: number | undefined
    for (let page = 1; count === undefined || (page - 1) * batchSize < count; page++) {
      throwIfInterrupted(signal)
      const result = await adapter.queryRows(
        withPage({ ...plan, sample }, { kind: 'offset', page, perPage: batchSize }),
        queryOptions,
      )
      count ??= Math.min(sample.size, result.count)
      const rows = result.rows.slice(0, Math.max(0, count - (page - 1) * batchSize))
      if (rows.length === 0 && page > 1) break
      yield { count, rows: rows.map((row) => shapeEntity(row, plan.select)) }
    }
    return
  }

  let after: readonly unknown[] | null = null
  for (let first = true; first || after !== null; first = false) {
    throwIfInterrupted(signal)
    const result = await adapter.queryRows(
      withPage(plan, { kind: 'cursor', after, perPage: batchSize }),
      queryOptions,
    )
    after = result.nextAfter
    // Stored records unchanged carry no score, so shaping them changes nothing: their bytes stand for them.
    const stored = plan.select === null ? result.rowsJsonBytes : undefined
    if (stored !== undefined) {
      if (stored.length === 0 && !first) break
      yield storedBatch(result.count, stored, () => result.rows)
      continue
    }
    if (result.rows.length === 0 && !first) break
    yield { count: result.count, rows: result.rows.map((row) => shapeEntity(row, plan.select)) }
  }
}
