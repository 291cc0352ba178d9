import { costUsdOf } from '@oqlkit/engine'

/** Records a list call's price pays for when a route answers many by other means (a lookup, a snowball). */
const RECORDS_PER_LIST_PRICE = 1000

/** What answering `records` records costs: a list call per thousand begun (nothing for none). */
export const recordsCostUsd = (records: number): number =>
  Math.ceil(records / RECORDS_PER_LIST_PRICE) * costUsdOf('list')
