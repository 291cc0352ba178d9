// What the scale generator reports while it works (for the CLI's progress bar) and when it is done.
import type { PoolSizes } from './generation-plan.ts'

/**
 * `citations` pass 1 (who cites whom); `works` pass 2 (work records written); `entities` the records of
 * authors, institutions, ... and the vocabularies; `done` everything is on disk.
 */
export type GeneratePhase = 'citations' | 'works' | 'entities' | 'done'

export interface GenerateProgress {
  readonly phase: GeneratePhase
  /** Works handled so far in the current pass (`citations`, `works`); all of them afterwards. */
  readonly worksDone: number
  readonly worksTotal: number
  /** The entity being written, during `entities`. */
  readonly entity: string | null
  /** Entity records written so far (all entities together), during `entities`. */
  readonly entityRecords: number
}

export type GenerateProgressListener = (event: GenerateProgress) => void

export interface GeneratedEntitySummary {
  readonly entity: string
  readonly records: number
  readonly parts: number
  /** gzip bytes of the part files. */
  readonly bytes: number
}

export interface GenerateSummary {
  /** The folder given; the snapshot is in its `data/` folder. */
  readonly outDir: string
  readonly dataDir: string
  readonly seed: number
  readonly works: number
  readonly pools: PoolSizes
  /** referenced_works entries, all works together (each is one citation). */
  readonly references: number
  readonly entities: readonly GeneratedEntitySummary[]
  readonly files: number
  readonly bytes: number
  /** Worker threads that built the work records (0: the calling thread did). */
  readonly workers: number
  readonly durationMs: number
  /** Works per second over the whole run (both passes and the entity records). */
  readonly worksPerSecond: number
}
