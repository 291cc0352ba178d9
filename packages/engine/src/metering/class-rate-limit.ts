// The per-endpoint rate limit of a price class (by default text tagging only: 1 request per second per key
// or address, on top of the general window; see `MeteringLimits.classRates`). It is a second rate window,
// kept by the same `MeterStore.charge` under a subject of its own and charged at zero cost: every store
// already applies a window atomically (under concurrency and across server processes), so the limit holds
// wherever the general one does, with no new store operation.
import type { CostClass } from '../cost/request-cost.ts'
import type { RateRule } from './meter-store.ts'
import type { MeteringLimits } from './metering-limits.ts'

/** The subject under which a caller's calls of one class are counted (never one a caller can have). */
export const classRateSubject = (subject: string, costClass: CostClass): string => `${subject}#${costClass}`

/** The extra rate rule of a price class, or undefined when only the general window applies. */
export const classRateOf = (
  limits: MeteringLimits,
  costClass: CostClass | undefined,
): RateRule | undefined => (costClass === undefined ? undefined : limits.classRates[costClass])
