import { countersOn, decideCharge, refundCounters } from './charge-decision.ts'
import type {
  ChargeOutcome,
  ChargeReceipt,
  ChargeRequest,
  MeterCounters,
  MeterReading,
  MeterStore,
} from './meter-store.ts'
import { utcDayOf } from './metering-limits.ts'

/**
 * One change of a ledger, as a durable store logs it: a charge or refund (amounts taken or given back
 * on a day), or a subject's whole state (what a compacted log starts with).
 */
export interface MeterLogEntry {
  readonly op: 'charge' | 'refund' | 'state'
  readonly subject: string
  readonly day: number
  readonly daily: number
  readonly prepaid: number
}

const NON_NEGATIVE_INTEGER = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0

/** A parsed log line as an entry, or undefined for anything else (a torn or foreign line). */
export const readMeterLogEntry = (value: unknown): MeterLogEntry | undefined => {
  if (typeof value !== 'object' || value === null) return undefined
  const entry = value as Record<string, unknown>
  const { op, subject, day, daily, prepaid } = entry
  if (op !== 'charge' && op !== 'refund' && op !== 'state') return undefined
  if (typeof subject !== 'string' || subject === '') return undefined
  if (!NON_NEGATIVE_INTEGER(day) || !NON_NEGATIVE_INTEGER(daily) || !NON_NEGATIVE_INTEGER(prepaid))
    return undefined
  return { op, subject, day, daily, prepaid }
}

/** How many idle subjects a ledger keeps rate windows for before it sweeps them. */
const WINDOW_SWEEP_THRESHOLD = 10_000

/**
 * The counters and rate windows of every subject, in memory, applying `decideCharge`. Synchronous:
 * in one JavaScript process a decision and its update happen without an await between them, so no
 * two calls can spend the same money. Each change is returned as a log entry for stores that persist
 * it; `apply` replays such entries.
 */
export class MeterLedger {
  readonly #counters = new Map<string, MeterCounters>()
  /**
   * Per subject, the moment each accepted request was last charged, by request id: a request charged twice
   * (an export's rows, charged after the gate) is one request of its window, as every store counts them.
   */
  readonly #windows = new Map<string, Map<string, number>>()
  #longestWindowMs = 0

  charge(request: ChargeRequest, nowMs: number): { outcome: ChargeOutcome; entry?: MeterLogEntry } {
    const { subject, rate } = request
    const kept = new Map(
      [...(this.#windows.get(subject) ?? [])].filter(([, at]) => at > nowMs - rate.windowMs),
    )
    let oldestMs: number | null = null
    for (const at of kept.values()) if (oldestMs === null || at < oldestMs) oldestMs = at
    const decision = decideCharge(this.#counters.get(subject), { count: kept.size, oldestMs }, request, nowMs)
    if (decision.kind === 'reject') {
      this.#windows.set(subject, kept)
      return {
        outcome: {
          ok: false,
          reason: decision.reason,
          retryAfterMs: decision.retryAfterMs,
          counters: decision.counters,
          nowMs,
        },
      }
    }
    kept.set(request.requestId, nowMs)
    this.#windows.set(subject, kept)
    this.#longestWindowMs = Math.max(this.#longestWindowMs, rate.windowMs)
    if (this.#windows.size > WINDOW_SWEEP_THRESHOLD) this.#sweepWindows(nowMs)
    const receipt: ChargeReceipt = {
      subject,
      day: decision.counters.day,
      dailyMicroUsd: decision.dailyMicroUsd,
      prepaidMicroUsd: decision.prepaidMicroUsd,
    }
    const outcome: ChargeOutcome = { ok: true, receipt, counters: decision.counters, nowMs }
    if (request.costMicroUsd === 0) return { outcome }
    this.#counters.set(subject, decision.counters)
    return {
      outcome,
      entry: {
        op: 'charge',
        subject,
        day: receipt.day,
        daily: receipt.dailyMicroUsd,
        prepaid: receipt.prepaidMicroUsd,
      },
    }
  }

  refund(receipt: ChargeReceipt, nowMs: number): { reading: MeterReading; entry?: MeterLogEntry } {
    const stored = this.#counters.get(receipt.subject)
    if (stored === undefined || receipt.dailyMicroUsd + receipt.prepaidMicroUsd === 0)
      return { reading: this.read(receipt.subject, nowMs) }
    this.#counters.set(receipt.subject, refundCounters(stored, receipt))
    return {
      reading: this.read(receipt.subject, nowMs),
      entry: {
        op: 'refund',
        subject: receipt.subject,
        day: receipt.day,
        daily: receipt.dailyMicroUsd,
        prepaid: receipt.prepaidMicroUsd,
      },
    }
  }

  read(subject: string, nowMs: number): MeterReading {
    return { counters: countersOn(this.#counters.get(subject), utcDayOf(nowMs)), nowMs }
  }

  /** Replays a logged change (the same arithmetic as the live calls). */
  apply(entry: MeterLogEntry): void {
    const stored = this.#counters.get(entry.subject)
    if (entry.op === 'state') {
      this.#counters.set(entry.subject, {
        day: entry.day,
        dailyUsedMicroUsd: entry.daily,
        prepaidUsedMicroUsd: entry.prepaid,
      })
    } else if (entry.op === 'charge') {
      const counters = countersOn(stored, entry.day)
      this.#counters.set(entry.subject, {
        day: entry.day,
        dailyUsedMicroUsd: counters.dailyUsedMicroUsd + entry.daily,
        prepaidUsedMicroUsd: counters.prepaidUsedMicroUsd + entry.prepaid,
      })
    } else if (stored !== undefined) {
      this.#counters.set(
        entry.subject,
        refundCounters(stored, {
          day: entry.day,
          dailyMicroUsd: entry.daily,
          prepaidMicroUsd: entry.prepaid,
        }),
      )
    }
  }

  /**
   * The whole state as `state` entries, leaving out what no longer matters at `nowMs`: subjects with
   * nothing spent today and no prepaid spending. A compacted log is this and nothing else.
   */
  snapshot(nowMs: number): MeterLogEntry[] {
    const today = utcDayOf(nowMs)
    const entries: MeterLogEntry[] = []
    for (const [subject, counters] of this.#counters) {
      const daily = counters.day === today ? counters.dailyUsedMicroUsd : 0
      if (daily === 0 && counters.prepaidUsedMicroUsd === 0) continue
      entries.push({ op: 'state', subject, day: counters.day, daily, prepaid: counters.prepaidUsedMicroUsd })
    }
    return entries
  }

  #sweepWindows(nowMs: number): void {
    for (const [subject, times] of this.#windows)
      if ([...times.values()].every((at) => at <= nowMs - this.#longestWindowMs))
        this.#windows.delete(subject)
  }
}

/** A meter store in memory (one process, nothing survives it): for tests and throwaway servers. */
export const createMemoryMeterStore = (): MeterStore => {
  const ledger = new MeterLedger()
  return {
    charge: async (request) => ledger.charge(request, request.nowMs).outcome,
    refund: async (receipt, nowMs) => ledger.refund(receipt, nowMs).reading,
    read: async (subject, nowMs) => ledger.read(subject, nowMs),
    close: async () => {},
  }
}
