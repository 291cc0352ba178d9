// The int8 quantisation of stored vectors: the largest component scaled to ±127, the direction kept.
import { SeededGaussian } from '@oqlkit/text-models'
import { cosineOf as cosine } from '@oqlkit/text-models/testing'
import { describe, expect, it } from 'vitest'
import { quantizeVector } from '../src/vectors/vector-quantizer.ts'

describe('int8 quantisation of stored vectors', () => {
  it('scales the largest component to ±127 and keeps the direction', () => {
    const random = new SeededGaussian(9)
    for (let trial = 0; trial < 20; trial++) {
      const vector = Float32Array.from({ length: 128 }, () => random.next())
      const quantized = quantizeVector(vector)
      const components = [...quantized.values]
      expect(components).toHaveLength(128)
      expect(Math.max(...components.map(Math.abs))).toBe(127)
      expect(components.every((value) => Number.isInteger(value) && Math.abs(value) <= 127)).toBe(true)
      expect(quantized.norm).toBeCloseTo(Math.hypot(...components), 9)
      expect(cosine(vector, Float32Array.from(components))).toBeGreaterThan(0.999)
    }
    expect(quantizeVector(new Float32Array(4)).norm).toBe(0)
  })
})
