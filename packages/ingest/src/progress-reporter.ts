// Keeps the running totals of an ingest and turns them into the progress events the CLI draws, with the
// parse's rate and the time it has left.
import type { CatalogEntity } from '@oqlkit/catalog'
import { BUILD_STEP_COUNT } from './build/catalog-builder.ts'
import type { IngestProgress, IngestProgressListener } from './ingest-progress.ts'
import type { SnapshotPlan } from './plan/snapshot-plan.ts'

/** The parse must have run this long before its rate (and the time left from it) is stated. */
const RATE_AFTER_MS = 2_000

/** Keeps the running totals and turns them into progress events. */
export class ProgressReporter {
  readonly filesTotal: number
  readonly bytesTotal: number
  /** The records the manifests state for every part, or null when one part's count is not stated. */
  readonly recordsTotal: number | null
  readonly #listener: IngestProgressListener | undefined
  readonly #now: () => number
  /** When this run began parsing, and the records it had then (a resumed run's parts count as read). */
  #parseStart: { readonly at: number; readonly records: number } | null = null
  #filesDone = 0
  #bytesDone = 0
  #recordsRead = 0
  #partsStaged = 0
  #partsResumed = 0
  #entity: CatalogEntity | null = null
  #file: string | null = null
  #step: string | null = null
  #stepsDone = 0

  /** `now` in milliseconds, for the rate (tests give a clock of their own). */
  constructor(
    plan: SnapshotPlan,
    listener: IngestProgressListener | undefined,
    now: () => number = () => performance.now(),
  ) {
    this.#listener = listener
    this.#now = now
    this.filesTotal = plan.parts.length + plan.idFiles.length
    this.bytesTotal = [...plan.parts, ...plan.idFiles].reduce((sum, file) => sum + file.bytes, 0)
    const stated = plan.parts.map((part) => part.expectedRecords)
    this.recordsTotal = stated.every((count) => count !== null)
      ? stated.reduce<number>((sum, count) => sum + (count ?? 0), 0)
      : null
  }

  /** Parts whose parse is staged for good (resumed ones too). */
  get partsStaged(): number {
    return this.#partsStaged
  }

  /** The parse workers have started: the rate counts from here. */
  parsing(): void {
    this.#parseStart ??= { at: this.#now(), records: this.#recordsRead }
  }

  reading(file: string, entity: CatalogEntity, recordsRead: number): void {
    this.#file = file
    this.#entity = entity
    this.#recordsRead = recordsRead
    this.emit('read')
  }

  fileDone(bytes: number, recordsRead: number): void {
    this.#filesDone++
    this.#bytesDone += bytes
    this.#recordsRead = recordsRead
    this.emit('read')
  }

  /** A part a stopped run parsed: read as far as the totals go, and staged. */
  resumed(bytes: number, recordsRead: number): void {
    this.#partsResumed++
    this.#partsStaged++
    this.fileDone(bytes, recordsRead)
  }

  /** A part's parse is staged for good (its checkpoint committed). */
  staged(): void {
    this.#partsStaged++
    this.emit('read')
  }

  building(step: string, done: number, _total: number): void {
    this.#file = null
    this.#entity = null
    this.#step = step
    this.#stepsDone = done
    this.emit('build')
  }

  /** Records this run parsed per second, once it has parsed for a while; null before and after the parse. */
  #rate(phase: IngestProgress['phase']): number | null {
    if (phase !== 'read' || this.#parseStart === null) return null
    const elapsed = this.#now() - this.#parseStart.at
    const parsed = this.#recordsRead - this.#parseStart.records
    return elapsed < RATE_AFTER_MS || parsed <= 0 ? null : (parsed / elapsed) * 1000
  }

  emit(phase: IngestProgress['phase']): void {
    if (this.#listener === undefined) return
    const rate = this.#rate(phase)
    if (phase === 'commit' || phase === 'done') {
      this.#step = null
      this.#stepsDone = BUILD_STEP_COUNT
    }
    this.#listener({
      phase,
      filesDone: this.#filesDone,
      filesTotal: this.filesTotal,
      bytesDone: this.#bytesDone,
      bytesTotal: this.bytesTotal,
      recordsRead: this.#recordsRead,
      recordsTotal: this.recordsTotal,
      recordsPerSecond: rate,
      parseSecondsLeft:
        rate === null || this.recordsTotal === null
          ? null
          : Math.max(0, this.recordsTotal - this.#recordsRead) / rate,
      partsStaged: this.#partsStaged,
      partsResumed: this.#partsResumed,
      entity: this.#entity,
      file: this.#file,
      step: this.#step,
      stepsDone: this.#stepsDone,
      stepsTotal: BUILD_STEP_COUNT,
    })
  }
}
