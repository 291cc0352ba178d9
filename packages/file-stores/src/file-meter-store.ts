import { join } from 'node:path'
import { MeterLedger, type MeterLogEntry, type MeterStore, readMeterLogEntry } from '@oqlkit/engine'
import { DurableAppendLog, readLogLines } from './durable-append-log.ts'
import { lockStateDirectory } from './state-directory-lock.ts'

export const METER_LOG_FILE = 'meter.log'

/** Compact the meter log once it passes this size (at 100 paid calls a second: about every two hours). */
const DEFAULT_COMPACT_AT_BYTES = 64 * 1024 * 1024

export interface FileMeterStoreOptions {
  /** The state folder (created if missing); the store writes `meter.log` and `meter.lock` there. */
  readonly dir: string
  readonly compactAtBytes?: number
  /** The clock compaction uses to drop past days (default `Date.now`). */
  readonly clock?: () => number
}

export interface FileMeterStore extends MeterStore {
  /** Log lines that could not be read when the store opened (0 unless the file was damaged). */
  readonly skippedLines: number
}

/**
 * The default meter store: one process, file-backed. The decision is `MeterLedger`'s (in memory,
 * synchronous, hence atomic within the process); each charge and refund is then appended to
 * `meter.log` and acknowledged only after fdatasync, so a crash (SIGKILL included) loses no
 * acknowledged charge. Opening replays the log; the log is compacted to a snapshot as it grows. Rate
 * windows live in memory only: they last one second, and a restart takes longer than that.
 *
 * A lock file keeps a second process from opening the same folder (two processes would each spend the
 * whole budget); several server processes share budgets through the Redis store instead.
 */
export const openFileMeterStore = async (options: FileMeterStoreOptions): Promise<FileMeterStore> => {
  const release = await lockStateDirectory(options.dir, 'meter')
  try {
    const path = join(options.dir, METER_LOG_FILE)
    const ledger = new MeterLedger()
    let skippedLines = 0
    for (const line of (await readLogLines(path)).lines) {
      let entry: MeterLogEntry | undefined
      try {
        entry = readMeterLogEntry(JSON.parse(line))
      } catch {
        entry = undefined
      }
      if (entry === undefined) skippedLines++
      else ledger.apply(entry)
    }
    const clock = options.clock ?? Date.now
    const log = await DurableAppendLog.open(path, {
      compactAtBytes: options.compactAtBytes ?? DEFAULT_COMPACT_AT_BYTES,
      snapshot: () => ledger.snapshot(clock()).map((entry) => JSON.stringify(entry)),
    })
    const persist = async (entry: MeterLogEntry | undefined): Promise<void> => {
      if (entry !== undefined) await log.append(JSON.stringify(entry))
    }
    return {
      skippedLines,
      charge: async (request) => {
        const { outcome, entry } = ledger.charge(request, request.nowMs)
        await persist(entry)
        return outcome
      },
      refund: async (receipt, nowMs) => {
        const { reading, entry } = ledger.refund(receipt, nowMs)
        await persist(entry)
        return reading
      },
      read: async (subject, nowMs) => ledger.read(subject, nowMs),
      close: async () => {
        await log.close()
        await release()
      },
    }
  } catch (error) {
    await release()
    throw error
  }
}
