// A sparse vector over a vocabulary: parallel arrays of term ids (strictly ascending) and their weights.
// Ascending ids let two vectors be compared by one merge pass, with no map.

export interface SparseTermVector {
  readonly termIds: Uint32Array
  readonly weights: Float32Array
}

/** The dot product of two sparse vectors (their cosine when both are L2-normalised). */
export function sparseDot(a: SparseTermVector, b: SparseTermVector): number {
  let i = 0
  let j = 0
  let sum = 0
  while (i < a.termIds.length && j < b.termIds.length) {
    const left = a.termIds[i]!
    const right = b.termIds[j]!
    if (left === right) sum += a.weights[i++]! * b.weights[j++]!
    else if (left < right) i++
    else j++
  }
  return sum
}
