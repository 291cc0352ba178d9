import type { EntityRecord, QueryOptions, QueryPlan, RowsResult, StorageAdapter } from '@oqlkit/engine'
import { mapInSlices } from './event-loop-slices.ts'

/**
 * One batch of an export, read from storage with its records parsed a slice at a time, unless the export sends
 * the stored bytes as they are. An adapter that gives
 * the stored JSON bytes parses them only when `rows` is first read (a getter), all 1,000 at once: for full
 * work records that held the main thread for tens of ms per batch. Here they are parsed in slices, between
 * turns of the event loop, before the row stream reads `rows`. Rows an adapter has already made are kept.
 */
export const readExportBatch = async (
  adapter: Pick<StorageAdapter, 'queryRows'>,
  plan: QueryPlan,
  options: QueryOptions & {
    /** The export writes the stored bytes as they are (a JSON form): nothing to parse. */
    readonly sendsStoredBytes?: boolean
  },
): Promise<RowsResult> => {
  const { sendsStoredBytes = false, ...queryOptions } = options
  const result = await adapter.queryRows(plan, queryOptions)
  const bytes = result.rowsJsonBytes
  if (bytes === undefined || sendsStoredBytes || !parsesOnRead(result)) return result
  const decoder = new TextDecoder()
  const rows = await mapInSlices(bytes, (record) => JSON.parse(decoder.decode(record)) as EntityRecord)
  return { count: result.count, rows, nextAfter: result.nextAfter }
}

/** Whether a result's rows are made when first read (a getter over its bytes) rather than already made. */
const parsesOnRead = (result: RowsResult): boolean =>
  typeof Object.getOwnPropertyDescriptor(result, 'rows')?.get === 'function'
