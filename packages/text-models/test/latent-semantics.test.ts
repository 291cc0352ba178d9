// The math of the built-in embedder: randomised SVD against the exact decomposition, orthonormalisation,
// determinism for a seed, what LSA is for (words that share contexts land together) and the model files. (The
// int8 quantisation of stored vectors is adapter-duckdb's vector-quantizer test.)

import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { readLsaModel, writeLsaModel } from '../src/latent-semantics/lsa-model-files.ts'
import { trainLsaModel } from '../src/latent-semantics/lsa-model-trainer.ts'
import {
  orthonormalizeColumns,
  randomizedSvd,
  symmetricEigen,
} from '../src/latent-semantics/randomized-svd.ts'
import { SeededGaussian } from '../src/latent-semantics/seeded-gaussian.ts'
import { SparseRowMatrix } from '../src/latent-semantics/sparse-row-matrix.ts'
import { cosineOf as cosine } from '../src/testing/vector-cosine.ts'
import type { SparseTermVector } from '../src/text-model/sparse-term-vector.ts'
import { textTerms } from '../src/text-model/text-terms.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-lsa-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A random sparse matrix: each row has a few entries, from a seeded stream. */
function randomSparse(rows: number, columns: number, perRow: number, seed: number): SparseTermVector[] {
  const random = new SeededGaussian(seed)
  return Array.from({ length: rows }, () => {
    const ids = new Set<number>()
    while (ids.size < perRow) ids.add(Math.floor(random.uniform() * columns))
    const termIds = Uint32Array.from([...ids].sort((a, b) => a - b))
    return { termIds, weights: Float32Array.from(termIds, () => random.next()) }
  })
}

/** XᵀX, dense (columns × columns). */
function gramOf(matrix: SparseRowMatrix): Float64Array {
  const n = matrix.columns
  const gram = new Float64Array(n * n)
  for (let row = 0; row < matrix.rows; row++)
    for (let a = matrix.rowStart[row]!; a < matrix.rowStart[row + 1]!; a++)
      for (let b = matrix.rowStart[row]!; b < matrix.rowStart[row + 1]!; b++)
        gram[matrix.columnIds[a]! * n + matrix.columnIds[b]!]! += matrix.values[a]! * matrix.values[b]!
  return gram
}

describe('randomised SVD', () => {
  const matrix = new SparseRowMatrix(randomSparse(120, 40, 6, 7), 40)
  const exact = (() => {
    const { values } = symmetricEigen(gramOf(matrix), 40)
    return [...values].map((value) => Math.sqrt(Math.max(value, 0))).sort((a, b) => b - a)
  })()

  it('is exact when its random block spans every column', () => {
    // rank 30 + oversampling 10 = the 40 columns: the projection loses nothing.
    const svd = randomizedSvd(matrix, { rank: 30, seed: 3 })
    expect(svd.rank).toBe(30)
    for (const [k, value] of svd.singularValues.entries()) expect(value).toBeCloseTo(exact[k]!, 8)
  })

  it('approximates the leading singular values closely with a narrow block', () => {
    // A random matrix has a flat spectrum, the hard case: within 3% with 2 power iterations (measured: 1.2% at worst here).
    const svd = randomizedSvd(matrix, { rank: 5, seed: 3 })
    for (const [k, value] of svd.singularValues.entries())
      expect(Math.abs(value - exact[k]!) / exact[k]!).toBeLessThan(0.03)
  })

  it('gives right singular vectors: XᵀX v = σ² v, unit length, orthogonal', () => {
    const svd = randomizedSvd(matrix, { rank: 30, seed: 3 })
    const gram = gramOf(matrix)
    for (let k = 0; k < 5; k++) {
      const v = Array.from({ length: 40 }, (_, j) => svd.rightVectors[j * 30 + k]!)
      const norm = Math.sqrt(v.reduce((sum, x) => sum + x * x, 0))
      expect(norm).toBeCloseTo(1, 8)
      const sigma2 = svd.singularValues[k]! ** 2
      for (let i = 0; i < 40; i++) {
        const gv = v.reduce((sum, x, j) => sum + gram[i * 40 + j]! * x, 0)
        expect(gv).toBeCloseTo(sigma2 * v[i]!, 5)
      }
      for (let other = 0; other < k; other++) {
        const dot = v.reduce((sum, x, j) => sum + x * svd.rightVectors[j * 30 + other]!, 0)
        expect(Math.abs(dot)).toBeLessThan(1e-8)
      }
    }
  })

  it('is the same, bit for bit, for the same seed', () => {
    const a = randomizedSvd(matrix, { rank: 8, seed: 11 })
    const b = randomizedSvd(matrix, { rank: 8, seed: 11 })
    expect(Buffer.from(a.rightVectors.buffer).equals(Buffer.from(b.rightVectors.buffer))).toBe(true)
    expect([...a.singularValues]).toEqual([...b.singularValues])
  })

  it('computes no more than the matrix has: rank capped by its smaller side', () => {
    const small = new SparseRowMatrix(randomSparse(6, 30, 4, 1), 30)
    const svd = randomizedSvd(small, { rank: 20, seed: 1 })
    expect(svd.rank).toBeLessThanOrEqual(6)
    expect(svd.singularValues.length).toBeLessThanOrEqual(6)
  })

  it('orthonormalises columns, zeroing one that depends on the others', () => {
    const rows = 30
    const width = 4
    const random = new SeededGaussian(5)
    const m = new Float64Array(rows * width)
    for (let r = 0; r < rows; r++) {
      m[r * width] = random.next()
      m[r * width + 1] = random.next()
      m[r * width + 2] = 2 * m[r * width]! - m[r * width + 1]! // dependent
      m[r * width + 3] = random.next()
    }
    orthonormalizeColumns(m, rows, width)
    const dot = (a: number, b: number) => {
      let sum = 0
      for (let r = 0; r < rows; r++) sum += m[r * width + a]! * m[r * width + b]!
      return sum
    }
    expect(dot(0, 0)).toBeCloseTo(1, 10)
    expect(dot(1, 1)).toBeCloseTo(1, 10)
    expect(dot(2, 2)).toBeCloseTo(0, 10)
    expect(dot(3, 3)).toBeCloseTo(1, 10)
    expect(dot(0, 1)).toBeCloseTo(0, 10)
    expect(dot(0, 3)).toBeCloseTo(0, 10)
    expect(dot(1, 3)).toBeCloseTo(0, 10)
  })
})

describe('the LSA model', () => {
  // Two topics. "automobile" and "car" never share a document, but share their contexts (engine, wheels,
  // road); cooking has its own words. Repeated with variations so the vocabulary keeps every word.
  const motoring = [
    'car engine wheels road driver',
    'automobile engine wheels road fuel',
    'car fuel road driver gearbox',
    'automobile gearbox engine driver wheels',
  ]
  const cooking = [
    'recipe oven flour sugar butter',
    'oven baking flour recipe eggs',
    'sugar butter eggs baking recipe',
    'flour oven eggs butter baking',
  ]
  const corpus = Array.from({ length: 5 }, () => [...motoring, ...cooking]).flat()
  const documents = corpus.map(textTerms)
  const model = trainLsaModel(documents, { dimensions: 2, seed: 1 })

  it('puts words that share contexts near each other, even never seen together', () => {
    const automobile = model.embed('automobile')
    expect(cosine(automobile, model.embed('car'))).toBeGreaterThan(0.9)
    expect(cosine(automobile, model.embed('recipe oven'))).toBeLessThan(0.3)
  })

  it('embeds a text with no known word as zeros', () => {
    expect([...model.embed('zzyzx qwv')].every((value) => value === 0)).toBe(true)
  })

  it('writes files that read back to the same model and id, and the same bytes when trained again', async () => {
    const paths = (name: string) => ({
      vocabulary: join(scratch, `${name}-vocabulary.bin`),
      projection: join(scratch, `${name}-projection.f32`),
    })
    const first = await writeLsaModel(model, paths('a'))
    const again = await writeLsaModel(trainLsaModel(documents, { dimensions: 2, seed: 1 }), paths('b'))
    expect(again.modelId).toBe(first.modelId)
    expect(first.modelId).toMatch(/^lsa-2:[0-9a-f]{16}$/)
    expect(readFileSync(paths('a').projection).equals(readFileSync(paths('b').projection))).toBe(true)
    expect(readFileSync(paths('a').vocabulary).equals(readFileSync(paths('b').vocabulary))).toBe(true)
    const read = await readLsaModel(paths('a'), 2)
    expect(read.modelId).toBe(first.modelId)
    expect([...read.model.embed('car engine')]).toEqual([...model.embed('car engine')])
    // Another seed is another (equally good) model: its id differs.
    const other = await writeLsaModel(trainLsaModel(documents, { dimensions: 2, seed: 2 }), paths('c'))
    expect(other.modelId).not.toBe(first.modelId)
  })
})
