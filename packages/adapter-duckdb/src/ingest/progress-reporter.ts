// Keeps the running totals of an ingest and turns them into the progress events the CLI draws.
import type { CatalogEntity } from '../catalog/catalog-entities.ts'
import { BUILD_STEP_COUNT } from './catalog-builder.ts'
import type { IngestProgress, IngestProgressListener } from './ingest-progress.ts'
import type { SnapshotPlan } from './snapshot-plan.ts'

/** Keeps the running totals and turns them into progress events. */
export class ProgressReporter {
  readonly filesTotal: number
  readonly bytesTotal: number
  readonly #listener: IngestProgressListener | undefined
  #filesDone = 0
  #bytesDone = 0
  #recordsRead = 0
  #partsStaged = 0
  /** Parts whose parse is staged for good (resumed ones too). */
  get partsStaged(): number {
    return this.#partsStaged
  }
  #partsResumed = 0
  #entity: CatalogEntity | null = null
  #file: string | null = null
  #step: string | null = null
  #stepsDone = 0

  constructor(plan: SnapshotPlan, listener: IngestProgressListener | undefined) {
    this.#listener = listener
    this.filesTotal = plan.parts.length + plan.idFiles.length
    this.bytesTotal = [...plan.parts, ...plan.idFiles].reduce((sum, file) => sum + file.bytes, 0)
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

  emit(phase: IngestProgress['phase']): void {
    if (this.#listener === undefined) return
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
