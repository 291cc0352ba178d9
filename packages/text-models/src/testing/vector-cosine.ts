/**
 * The cosine of two vectors, written plainly (no unit vectors, no quantisation) so tests of the code that
 * makes and stores vectors compare against an independent measure.
 */
export const cosineOf = (a: Float32Array, b: Float32Array): number => {
  let dot = 0
  let aa = 0
  let bb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!
    aa += a[i]! * a[i]!
    bb += b[i]! * b[i]!
  }
  return dot / Math.sqrt(aa * bb)
}
