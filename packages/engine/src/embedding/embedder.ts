// Semantic search turns text into vectors twice: once per work at ingest, once per query when it is asked. Both
// sides must use the same model, or the cosine between them means nothing; so an embedder names its model
// (`modelId`) and its width, the catalog records the identity its vectors were made with, and a query
// embedder that does not match is refused when the catalog is opened, not discovered in bad rankings later.
import { namedErrorGuard } from '../errors/named-error-guard.ts'

/** Which model made a set of vectors: enough to tell whether two sets can be compared. */
export interface EmbedderIdentity {
  /**
   * A stable name of the model and everything that changes its output (`lsa:3f9a…` names the trained
   * matrix by its digest; `openai:<model>` a served model by name).
   */
  readonly modelId: string
  /** Length of every vector it returns. */
  readonly dimensions: number
}

/** Texts → vectors of a fixed length. Implementations: the catalog's own LSA model, an embeddings server. */
export interface Embedder extends EmbedderIdentity {
  /**
   * One vector per text, in order, each of `dimensions` numbers. Vectors need not be unit length: whoever
   * compares them normalises (a zero vector, from a text with no known word, matches nothing).
   */
  embed(texts: readonly string[]): Promise<readonly Float32Array[]>
}

/** True when vectors of `made` can be compared with vectors of `query`. */
export const embeddersMatch = (made: EmbedderIdentity, query: EmbedderIdentity): boolean =>
  made.modelId === query.modelId && made.dimensions === query.dimensions

/** The message a refusal of mismatched embedders carries (reused by tests). */
export const writeEmbedderMismatchMessage = (made: EmbedderIdentity, query: EmbedderIdentity): string =>
  `the catalog's vectors were made by ${made.modelId} (${made.dimensions} dimensions), but queries would be embedded by ${query.modelId} (${query.dimensions} dimensions); serve with the embedder the catalog was built with, or rebuild its vectors with this one`

export type EmbedderFailure = 'unreachable' | 'timeout' | 'bad_response' | 'rejected'

/**
 * An embedder that could not answer: its server is down, too slow, or answered something that is not a
 * list of vectors. The request that needed it fails with 503, saying which; nothing else is affected.
 */
export class EmbedderError extends Error {
  override readonly name = 'EmbedderError'
  constructor(
    readonly failure: EmbedderFailure,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options)
  }
}

/** True for an `EmbedderError`, also from another copy of this package (checks the name, not the class). */
export const isEmbedderError = namedErrorGuard<EmbedderError>('EmbedderError')

/** The vector scaled to unit length, as a new array (zeros stay zeros). */
export const unitVector = (vector: Float32Array): Float32Array => {
  let sum = 0
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!
  const norm = Math.sqrt(sum)
  const unit = new Float32Array(vector.length)
  if (norm === 0 || !Number.isFinite(norm)) return unit
  for (let i = 0; i < vector.length; i++) unit[i] = vector[i]! / norm
  return unit
}
