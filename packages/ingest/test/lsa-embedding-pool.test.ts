// The built-in model's embedding on worker threads answers as the model on this thread does, in the texts'
// order, and a worker that cannot start fails the embedding with its reason instead of leaving it waiting.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { textTerms, trainLsaModel, writeLsaModel } from '@oqlkit/text-models'
import { afterAll, describe, expect, it } from 'vitest'
import { LsaEmbeddingPool } from '../src/vectors/lsa-embedding-pool.ts'

const dir = mkdtempSync(join(tmpdir(), 'oqlkit-lsa-pool-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const WORDS = [
  'graph',
  'network',
  'protein',
  'cell',
  'climate',
  'ocean',
  'neural',
  'learning',
  'soil',
  'river',
]
/** Texts of a few topics' words, drawn in a fixed order. */
const texts = Array.from({ length: 300 }, (_, n) =>
  Array.from({ length: 12 }, (_, k) => WORDS[(n * 7 + k * (n % 3 === 0 ? 1 : 3)) % WORDS.length]).join(' '),
)

describe('the LSA embedding pool', () => {
  it('gives the vectors the model gives on this thread, in order, across several chunks and two workers', async () => {
    const model = trainLsaModel(texts.map(textTerms), { dimensions: 8, seed: 3 })
    const files = { vocabulary: join(dir, 'vocabulary.bin'), projection: join(dir, 'projection.f32') }
    const { modelId } = await writeLsaModel(model, files)
    const pool = new LsaEmbeddingPool(files, { modelId, dimensions: 8 }, 2)
    try {
      // 300 texts make five chunks of 64 (the smallest), dealt to the two workers in turn.
      const vectors = await pool.embed(texts)
      expect(vectors).toHaveLength(texts.length)
      texts.forEach((text, index) => {
        expect([...vectors[index]!], `text ${index}`).toEqual([...model.embed(text)])
      })
      expect(await pool.embed([])).toEqual([])
    } finally {
      await pool.close()
    }
  })

  it('fails an embedding, saying why, when its worker could not read the model', async () => {
    const missing = { vocabulary: join(dir, 'no-vocabulary.bin'), projection: join(dir, 'no-projection.f32') }
    const pool = new LsaEmbeddingPool(missing, { modelId: 'lsa-8:none', dimensions: 8 }, 1)
    try {
      await expect(pool.embed(['graph network'])).rejects.toThrow(/no-vocabulary\.bin|exit code/)
      // Asked again after the worker has stopped: refused at once, not left waiting.
      await expect(pool.embed(['graph network'])).rejects.toThrow()
    } finally {
      await pool.close()
    }
  })
})
