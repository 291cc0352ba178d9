// The built-in embedder: the catalog's own LSA model, in process. Needs nothing downloaded or served.
import type { Embedder } from '@oqlkit/engine'
import type { LsaModel } from './lsa-model.ts'

export const lsaEmbedder = (model: LsaModel, modelId: string): Embedder => ({
  modelId,
  dimensions: model.dimensions,
  embed: async (texts) => texts.map((text) => model.embed(text)),
})
