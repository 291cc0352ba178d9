// The leading singular vectors of a large sparse matrix by randomised SVD (Halko, Martinsson & Tropp 2011,
// algorithms 4.4 and 5.1): project onto a random block a little wider than the rank asked for, sharpen the
// block with power iterations (each re-orthonormalised), then solve the small problem exactly. Only the
// right singular vectors (term side) are kept: they are what a text is projected with.

import { SeededGaussian } from './seeded-gaussian.ts'
import type { SparseRowMatrix } from './sparse-row-matrix.ts'

export interface RandomizedSvdOptions {
  /** Singular vectors wanted. */
  readonly rank: number
  /** Extra random directions beyond the rank (default 10): they catch what the rank would miss. */
  readonly oversample?: number
  /** Power iterations (default 2): each sharpens the gap between kept and dropped directions. */
  readonly powerIterations?: number
  readonly seed: number
}

export interface RandomizedSvd {
  /** The rank actually computed: the one asked for, or less when the matrix is smaller. */
  readonly rank: number
  /** Descending. */
  readonly singularValues: Float64Array
  /** columns × rank, row-major: row j is term j's coordinates in the latent space. */
  readonly rightVectors: Float64Array
}

/**
 * Orthonormalises the columns of `matrix` (rows × width, row-major) in place; dependent columns become zero.
 * Modified Gram–Schmidt, on a column-major copy for contiguous loops; `passes` 2 ("twice is enough") makes the
 * columns orthogonal to working precision, 1 is enough between power iterations (the next one corrects it).
 */
export function orthonormalizeColumns(matrix: Float64Array, rows: number, width: number, passes = 2): void {
  const columns: Float64Array[] = []
  for (let c = 0; c < width; c++) {
    const column = new Float64Array(rows)
    for (let r = 0; r < rows; r++) column[r] = matrix[r * width + c]!
    columns.push(column)
  }
  for (let c = 0; c < width; c++) {
    const column = columns[c]!
    const original = Math.sqrt(dot(column, column))
    for (let pass = 0; pass < passes; pass++)
      for (let previous = 0; previous < c; previous++) {
        const basis = columns[previous]!
        const projection = dot(column, basis)
        if (projection !== 0) for (let r = 0; r < rows; r++) column[r]! -= projection * basis[r]!
      }
    const norm = Math.sqrt(dot(column, column))
    // A column (nearly) inside the span of the earlier ones adds no direction: zero it rather than amplify noise.
    const scale = norm > 1e-10 * Math.max(original, 1e-300) ? 1 / norm : 0
    for (let r = 0; r < rows; r++) column[r]! *= scale
  }
  for (let c = 0; c < width; c++) {
    const column = columns[c]!
    for (let r = 0; r < rows; r++) matrix[r * width + c] = column[r]!
  }
}

const dot = (a: Float64Array, b: Float64Array): number => {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}

/**
 * Eigen-decomposition of a symmetric matrix (size × size, row-major) by cyclic Jacobi rotations: the
 * eigenvalues, and the eigenvectors as the columns of the returned matrix. Small matrices only (the SVD's
 * block width): its cost is the cube of the size per sweep.
 */
export function symmetricEigen(
  input: Float64Array,
  size: number,
): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(input)
  const v = new Float64Array(size * size)
  for (let i = 0; i < size; i++) v[i * size + i] = 1
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0
    let diagonal = 0
    for (let i = 0; i < size; i++) {
      diagonal += a[i * size + i]! * a[i * size + i]!
      for (let j = i + 1; j < size; j++) off += a[i * size + j]! * a[i * size + j]!
    }
    // Off-diagonal mass below 1e-22 of the diagonal's: eigenvalues to about 11 digits, far past what the
    // float32 model keeps. Cyclic Jacobi converges quadratically: a handful of sweeps.
    if (off <= 1e-22 * Math.max(diagonal, 1e-300)) break
    for (let p = 0; p < size; p++)
      for (let q = p + 1; q < size; q++) {
        const apq = a[p * size + q]!
        if (Math.abs(apq) < 1e-300) continue
        const app = a[p * size + p]!
        const aqq = a[q * size + q]!
        const theta = (aqq - app) / (2 * apq)
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1))
        const c = 1 / Math.sqrt(t * t + 1)
        const s = t * c
        for (let k = 0; k < size; k++) {
          const akp = a[k * size + p]!
          const akq = a[k * size + q]!
          a[k * size + p] = c * akp - s * akq
          a[k * size + q] = s * akp + c * akq
        }
        for (let k = 0; k < size; k++) {
          const apk = a[p * size + k]!
          const aqk = a[q * size + k]!
          a[p * size + k] = c * apk - s * aqk
          a[q * size + k] = s * apk + c * aqk
        }
        for (let k = 0; k < size; k++) {
          const vkp = v[k * size + p]!
          const vkq = v[k * size + q]!
          v[k * size + p] = c * vkp - s * vkq
          v[k * size + q] = s * vkp + c * vkq
        }
      }
  }
  const values = new Float64Array(size)
  for (let i = 0; i < size; i++) values[i] = a[i * size + i]!
  return { values, vectors: v }
}

export function randomizedSvd(matrix: SparseRowMatrix, options: RandomizedSvdOptions): RandomizedSvd {
  const oversample = options.oversample ?? 10
  const iterations = options.powerIterations ?? 2
  const limit = Math.min(matrix.rows, matrix.columns)
  const width = Math.max(1, Math.min(options.rank + oversample, limit))
  const rank = Math.max(0, Math.min(options.rank, width))
  const random = new SeededGaussian(options.seed)

  const omega = new Float64Array(matrix.columns * width)
  for (let i = 0; i < omega.length; i++) omega[i] = random.next()
  let y = matrix.times(omega, width)
  // Each power iteration orthonormalises the block on the documents' side only. Orthonormalising Xᵀ Q as well
  // (Halko et al.'s algorithm 4.4) changes its basis but not its span, and Gram–Schmidt of X Xᵀ Q then gives
  // the same Q (a basis change by an upper-triangular matrix leaves Gram–Schmidt's result as it was); it
  // guards against round-off over many iterations, which two in float64 do not need. On the terms' side the
  // block is as tall as the vocabulary: its orthonormalisation was 40% of the training time of the sample's
  // 547 works and 5,370 terms.
  for (let iteration = 0; iteration < iterations; iteration++) {
    orthonormalizeColumns(y, matrix.rows, width, 1)
    y = matrix.times(matrix.transposeTimes(y, width), width)
  }
  orthonormalizeColumns(y, matrix.rows, width)
  // B = Qᵀ X (width × columns), kept as its transpose Bt = Xᵀ Q (columns × width).
  const bt = matrix.transposeTimes(y, width)
  // B Bᵀ = Btᵀ Bt: width × width, whose eigenvectors are B's left singular vectors.
  const gram = new Float64Array(width * width)
  for (let row = 0; row < matrix.columns; row++) {
    const base = row * width
    for (let i = 0; i < width; i++) {
      const value = bt[base + i]!
      if (value === 0) continue
      for (let j = i; j < width; j++) gram[i * width + j]! += value * bt[base + j]!
    }
  }
  for (let i = 0; i < width; i++) for (let j = 0; j < i; j++) gram[i * width + j] = gram[j * width + i]!
  const { values, vectors } = symmetricEigen(gram, width)
  const order = [...values.keys()].sort((a, b) => values[b]! - values[a]! || a - b)
  const kept = order.slice(0, rank).filter((index) => values[index]! > 1e-12)
  const singularValues = Float64Array.from(kept, (index) => Math.sqrt(values[index]!))
  // V = Bᵀ U Σ⁻¹: each right singular vector from its left one. U Σ⁻¹ is gathered first (width × rank, the
  // kept columns in order), so that each term's row is a sum of its rows, read contiguously.
  const scaled = new Float64Array(width * rank)
  kept.forEach((index, k) => {
    for (let i = 0; i < width; i++) scaled[i * rank + k] = vectors[i * width + index]! / singularValues[k]!
  })
  const rightVectors = new Float64Array(matrix.columns * rank)
  for (let row = 0; row < matrix.columns; row++) {
    const base = row * width
    const out = row * rank
    for (let i = 0; i < width; i++) {
      const value = bt[base + i]!
      if (value === 0) continue
      const from = i * rank
      for (let k = 0; k < rank; k++) rightVectors[out + k]! += value * scaled[from + k]!
    }
  }
  return { rank, singularValues, rightVectors }
}
