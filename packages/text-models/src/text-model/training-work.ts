// What the tag model learns from: one work's text and its labels, as the catalog holds them.
import type { TagKind } from '@oqlkit/engine'

export interface TrainingLabel {
  readonly id: string
  readonly display_name: string
  /** The catalog's confidence in the label for this work, in [0, 1]. */
  readonly score: number
}

export interface TrainingWork {
  readonly id: string
  readonly title: string
  /** The abstract as running text (`textFromInvertedIndex`), '' when there is none. */
  readonly abstract: string
  readonly labels: Readonly<Record<TagKind, readonly TrainingLabel[]>>
}

/** Labels as a record stores them (`keywords`, `concepts`, `topics`: arrays of {id, display_name, score}). */
export function readTrainingLabels(value: unknown): TrainingLabel[] {
  if (!Array.isArray(value)) return []
  const labels: TrainingLabel[] = []
  for (const item of value) {
    if (typeof item !== 'object' || item === null) continue
    const { id, display_name, score } = item as Record<string, unknown>
    if (typeof id !== 'string' || id === '' || typeof display_name !== 'string') continue
    const clamped = typeof score === 'number' && Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 1
    labels.push({ id, display_name, score: clamped })
  }
  return labels
}
