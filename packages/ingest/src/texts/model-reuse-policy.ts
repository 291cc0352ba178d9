// When an update keeps the catalog's trained models (LSA, the tag model) rather than training them again.
// Training reads a sample of every text and is most of a full build's time; a model trained before a small
// update describes the catalog nearly as well as one trained after it. The drift grows with the works changed
// since training, so past a share of the catalog the update trains again (and records a fresh count).

/** The share of a catalog's works changed since training past which an update trains its models again. */
export const MODEL_RETRAIN_SHARE = 0.2

export interface ModelReuse {
  /** Works added, revised or removed since the model was trained, this update's included. */
  readonly worksChangedSince: number
}

/**
 * Whether an update keeps a model: undefined when it must train again (asked to, or too much changed);
 * else the count of works changed since the model was trained, to record with it.
 */
export function modelReuse(
  changedBefore: number | undefined,
  changedNow: number,
  catalogWorks: number,
  retrain: boolean,
): ModelReuse | undefined {
  const worksChangedSince = (changedBefore ?? 0) + changedNow
  if (retrain || worksChangedSince > MODEL_RETRAIN_SHARE * catalogWorks) return undefined
  return { worksChangedSince }
}
