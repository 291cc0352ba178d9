// The list index of semantic search against the exact scan: its recall on clustered vectors, the same index
// from the same vectors and seed (byte for byte), filters (a narrow one answers exactly, a wide one only with
// kept rows), no index where the vectors have no structure, and the checks of its file.
import { SeededGaussian } from '@oqlkit/text-models'
import { describe, expect, it } from 'vitest'
import { buildIvfIndex, int8MemoryRowSource } from '../src/vectors/ivf-index-builder.ts'
import { decodeIvfIndex, encodeIvfIndex, ivfIndexFileBytes } from '../src/vectors/ivf-index-file.ts'
import { answersExactly, type IvfVectorIndex, VectorIndexError } from '../src/vectors/ivf-vector-index.ts'
import { quantizeVector } from '../src/vectors/vector-quantizer.ts'
import { WorkVectorMatrix } from '../src/vectors/work-vector-matrix.ts'

const DIMENSIONS = 24

/** Unit vectors around `clusters` random centres (or uniform directions), and a draw of more of the same. */
const vectorModel = (clusters: number, seed: number, dimensions = DIMENSIONS) => {
  const random = new SeededGaussian(seed)
  const around = (centre: Float32Array | undefined, spread: number) => {
    const vector = Float32Array.from(
      { length: dimensions },
      (_, k) => (centre?.[k] ?? 0) + spread * random.next(),
    )
    const length = Math.hypot(...vector)
    return vector.map((value) => value / length)
  }
  const centres = Array.from({ length: clusters }, () => around(undefined, 1))
  return () =>
    clusters === 0 ? around(undefined, 1) : around(centres[Math.floor(random.uniform() * clusters)], 0.12)
}

const matrixOf = (rows: number, draw: () => Float32Array, dimensions = DIMENSIONS) => {
  const values = new Int8Array(rows * dimensions)
  const norms = new Float32Array(rows)
  for (let row = 0; row < rows; row++) {
    const quantized = quantizeVector(draw())
    values.set(quantized.values, row * dimensions)
    norms[row] = quantized.norm
  }
  const ids = Array.from({ length: rows }, (_, row) => `W${String(100_000 + row)}`)
  return new WorkVectorMatrix(ids, values, norms, dimensions)
}

const clusteredDraw = vectorModel(40, 5)
const clustered = matrixOf(4000, clusteredDraw)
const queries = Array.from({ length: 100 }, () => clusteredDraw())

const recallAt10 = (found: readonly { id: string }[], exact: readonly { id: string }[]) => {
  const wanted = new Set(exact.slice(0, 10).map((match) => match.id))
  return found.slice(0, 10).filter((match) => wanted.has(match.id)).length / wanted.size
}

const built = async (matrix: WorkVectorMatrix, seed = 1) => {
  const result = await buildIvfIndex(int8MemoryRowSource(matrix.values, DIMENSIONS), { seed })
  if (result.index === undefined) throw new Error(`no index: ${result.reason}`)
  return result
}

describe('the list index of semantic search', () => {
  it('finds at least 95% of the exact ten nearest while scoring a fraction of the rows', async () => {
    const { index, calibration } = await built(clustered)
    expect(calibration.recall).toBeGreaterThanOrEqual(0.97)
    expect(index.scanRows).toBeLessThan(clustered.rows / 4)
    let recall = 0
    for (const query of queries) {
      const found = index.nearest(clustered, query, 50)
      const exact = clustered.nearest(query, 50)
      expect(found).toHaveLength(50)
      recall += recallAt10(found, exact) / queries.length
      // What it finds carries the exact score, and what it returns first is the best it scored.
      const exactScores = new Map(clustered.nearest(query, clustered.rows).map((m) => [m.id, m.score]))
      for (const match of found) expect(match.score).toBe(exactScores.get(match.id))
      expect(found.map((match) => match.score)).toEqual(
        found.map((match) => match.score).sort((a, b) => b - a),
      )
    }
    expect(recall).toBeGreaterThanOrEqual(0.95)
  })

  it('reads the lists nearest first until it has scored scanRows rows, and returns the best of those', async () => {
    const { index } = await built(clustered)
    for (const query of queries.slice(0, 20)) {
      // The plain version: every list's rows in `listOrder`, stopping after the list that reaches scanRows.
      const scanned: number[] = []
      for (const list of index.listOrder(query)) {
        if (scanned.length >= index.scanRows) break
        scanned.push(...index.rows.subarray(index.offsets[list]!, index.offsets[list + 1]!))
      }
      const mask = new Uint8Array(clustered.rows)
      for (const row of scanned) mask[row] = 1
      expect(index.nearest(clustered, query, 50)).toEqual(clustered.nearest(query, 50, mask))
    }
  })

  it('is the same index, byte for byte, from the same vectors and seed; another seed makes another', async () => {
    const first = encodeIvfIndex((await built(clustered, 3)).index)
    const second = encodeIvfIndex((await built(clustered, 3)).index)
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true)
    const other = encodeIvfIndex((await built(clustered, 4)).index)
    expect(Buffer.from(other).equals(Buffer.from(first))).toBe(false)
  })

  it('answers a narrow filter exactly, and a wide one with kept rows only', async () => {
    const { index } = await built(clustered)
    const random = new SeededGaussian(9)
    const narrow = clustered.candidatesOf(clustered.ids.filter(() => random.uniform() < 0.01))
    expect(answersExactly(narrow.count, index.scanRows, clustered.rows)).toBe(true)
    expect(narrow.rows).toBeDefined()
    const wide = clustered.candidatesOf(clustered.ids.filter(() => random.uniform() < 0.5))
    expect(answersExactly(wide.count, index.scanRows, clustered.rows)).toBe(false)
    const keptIds = new Set(clustered.ids.filter((_, row) => wide.mask[row] === 1))
    let recall = 0
    for (const query of queries) {
      // The narrow filter keeps fewer rows than a search scores: the exact answer, ids and scores.
      expect(index.nearest(clustered, query, 50, narrow)).toEqual(clustered.nearest(query, 50, narrow))
      expect(index.nearest(clustered, query, 50, narrow)).toEqual(clustered.nearest(query, 50, narrow.mask))
      const found = index.nearest(clustered, query, 50, wide)
      for (const match of found) expect(keptIds.has(match.id)).toBe(true)
      recall += recallAt10(found, clustered.nearest(query, 50, wide)) / queries.length
    }
    expect(recall).toBeGreaterThanOrEqual(0.95)
    // A filter that keeps nothing finds nothing.
    expect(index.nearest(clustered, queries[0]!, 50, clustered.candidatesOf([]))).toEqual([])
  })

  it('answers a filter exactly when scoring its rows costs less than walking the lists past the others', () => {
    // At 1M rows and 8,000 scored: exactly up to about 16,000 kept rows, through the lists beyond.
    expect(answersExactly(8_000, 8_000, 1_000_000)).toBe(true)
    expect(answersExactly(15_000, 8_000, 1_000_000)).toBe(true)
    expect(answersExactly(17_000, 8_000, 1_000_000)).toBe(false)
    expect(answersExactly(1_000_000, 8_000, 1_000_000)).toBe(false)
    // At 10M rows the filter's mask no longer stays cached and each pass costs more: a 2% filter (200,000
    // kept rows, 97,000 scored) is scored exactly, a 4% or a 10% one still goes through the lists.
    expect(answersExactly(200_000, 97_000, 10_000_000)).toBe(true)
    expect(answersExactly(400_000, 97_000, 10_000_000)).toBe(false)
    expect(answersExactly(1_000_000, 97_000, 10_000_000)).toBe(false)
  })

  it('is not built over vectors without structure: a search would score most rows anyway', async () => {
    const random = matrixOf(3000, vectorModel(0, 6))
    const result = await buildIvfIndex(int8MemoryRowSource(random.values, DIMENSIONS))
    expect(result.index).toBeUndefined()
    expect(result.calibration.scanRows).toBeGreaterThan(random.rows / 2)
    expect(result).toMatchObject({ reason: expect.stringMatching(/too little structure/) })
    // Near the bound (half the rows) the sample cannot tell: the pass over every row decides.
    expect(result).toMatchObject({ decidedOn: 'all rows' })
  })

  it('judges from a sample before the pass over every row, as that pass would', async () => {
    // Random directions in 128 dimensions: the sample shows that most rows would be scored.
    const random = matrixOf(4000, vectorModel(0, 8, 128), 128)
    const declined = await buildIvfIndex(int8MemoryRowSource(random.values, 128))
    expect(declined).toMatchObject({ index: undefined, decidedOn: 'sample' })
    expect(declined.calibration.sampleScanShare).toBeGreaterThan(0.6)
    expect(declined.calibration.scanRows).toBeGreaterThan(random.rows * 0.6)
    // Clustered rows, many more than the sample: it passes, and its estimate is near what all rows show.
    const many = matrixOf(20_000, vectorModel(60, 7))
    const built = await buildIvfIndex(int8MemoryRowSource(many.values, DIMENSIONS))
    expect(built.index).toBeDefined()
    const { calibration } = built
    expect(calibration.sampleRows).toBeLessThan(many.rows / 2)
    expect(calibration.recall).toBeGreaterThanOrEqual(0.97)
    expect(Math.abs(calibration.sampleScanShare - calibration.scanRows / many.rows)).toBeLessThan(0.05)
  })

  it('refuses a matrix of another size than the one it indexes', async () => {
    const { index } = await built(clustered)
    const smaller = matrixOf(10, clusteredDraw)
    expect(() => index.nearest(smaller, queries[0]!, 5)).toThrow(VectorIndexError)
  })
})

describe('the list index file', () => {
  const expectationOf = (index: IvfVectorIndex) => ({
    file: 'vectors/works.ivf',
    rows: index.rows.length,
    dimensions: index.dimensions,
    lists: index.lists,
    scanRows: index.scanRows,
  })

  it('reads back what it wrote', async () => {
    const { index } = await built(clustered)
    const bytes = encodeIvfIndex(index)
    expect(bytes.length).toBe(ivfIndexFileBytes(clustered.rows, DIMENSIONS, index.lists))
    // At an odd offset too: the reader copies what typed arrays cannot view in place.
    const shifted = new Uint8Array(bytes.length + 1)
    shifted.set(bytes, 1)
    for (const read of [bytes, shifted.subarray(1)]) {
      const decoded = decodeIvfIndex(read, expectationOf(index))
      expect(decoded.centroids).toEqual(index.centroids)
      expect(decoded.offsets).toEqual(index.offsets)
      expect(decoded.rows).toEqual(index.rows)
      expect(decoded.nearest(clustered, queries[0]!, 10)).toEqual(index.nearest(clustered, queries[0]!, 10))
    }
  })

  it('refuses a short, foreign, mismatched or inconsistent file, saying what is wrong', async () => {
    const { index } = await built(clustered)
    const bytes = encodeIvfIndex(index)
    const expected = expectationOf(index)
    const refusal = (file: Uint8Array, what: RegExp, expectation = expected) => {
      expect(() => decodeIvfIndex(file, expectation)).toThrow(VectorIndexError)
      expect(() => decodeIvfIndex(file, expectation)).toThrow(what)
    }
    refusal(bytes.subarray(0, 20), /works\.ivf holds 20 bytes, less than its header/)
    refusal(bytes.subarray(0, bytes.length - 4), /holds \d+ bytes where its header makes \d+/)
    refusal(new Uint8Array(bytes.length), /does not start with OQLKIVF1/)
    refusal(bytes, /gives \d+ rows where catalog.json says 3999/, { ...expected, rows: 3999 })
    refusal(bytes, /gives \d+ scanRows where catalog.json says 7/, { ...expected, scanRows: 7 })
    const view = (copy: Uint8Array) => new DataView(copy.buffer, copy.byteOffset, copy.length)
    const rowsAt = bytes.length - 4 * clustered.rows
    const twice = bytes.slice()
    view(twice).setUint32(rowsAt, view(twice).getUint32(rowsAt + 4, true), true)
    refusal(twice, /lists row \d+ twice/)
    const outside = bytes.slice()
    view(outside).setUint32(rowsAt, clustered.rows, true)
    refusal(outside, /lists row 4000, past the matrix's 4000 rows/)
    const notFinite = bytes.slice()
    view(notFinite).setFloat32(32, Number.NaN, true)
    refusal(notFinite, /centroid number that is not finite/)
    const backwards = bytes.slice()
    view(backwards).setUint32(32 + 4 * index.lists * DIMENSIONS + 4, clustered.rows + 1, true)
    refusal(backwards, /inconsistent/)
  })
})
