// Stored vectors are int8: each scaled so its largest component is ±127 and rounded. A quarter of float32's
// size, in memory and on disk, for a cosine that moves by well under 1% (the quality figures in BENCHMARKS.md
// are measured on the stored vectors). The norm of the int8 vector is stored beside it, so a search divides by
// it instead of computing it per query.

export interface QuantizedVector {
  /** The int8 components. */
  readonly values: Int8Array
  /** Euclidean norm of the int8 components (0 for a zero vector). */
  readonly norm: number
}

export function quantizeVector(vector: Float32Array): QuantizedVector {
  let largest = 0
  for (let i = 0; i < vector.length; i++) largest = Math.max(largest, Math.abs(vector[i]!))
  const values = new Int8Array(vector.length)
  let squares = 0
  const scale = largest === 0 || !Number.isFinite(largest) ? 0 : 127 / largest
  for (let i = 0; i < vector.length; i++) {
    const component = Math.round(vector[i]! * scale)
    squares += component * component
    values[i] = component
  }
  return { values, norm: Math.sqrt(squares) }
}
