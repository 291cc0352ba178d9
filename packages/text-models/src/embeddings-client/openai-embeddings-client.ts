// An embedder served over HTTP by anything that speaks OpenAI's embeddings API (`POST {url}/v1/embeddings`
// with `{model, input: [...]}`, answering `{data: [{index, embedding}]}`): a local text-embeddings server, a
// hosted one. Texts go in batches; each request has a timeout; every way it can fail becomes an
// `EmbedderError` that says which server, what happened and what to check.
import { type Embedder, EmbedderError } from '@oqlkit/engine'

export interface OpenAiEmbeddingsClientOptions {
  /** The server's base URL (`http://127.0.0.1:8000`); `/v1/embeddings` is added (once, if it ends in `/v1`). */
  readonly url: string
  /** The model name sent in every request. */
  readonly model: string
  /** Sent as `Authorization: Bearer …` when given. */
  readonly apiKey?: string
  /** Texts per request (default 64). */
  readonly batchSize?: number
  /** Milliseconds a request may take (default 30,000). */
  readonly timeoutMs?: number
  /** The vectors' width, when known; otherwise learnt from one request when the client is created. */
  readonly dimensions?: number
  /** For tests of failures that a real server cannot be made to produce. */
  readonly fetch?: typeof fetch
}

const DEFAULT_BATCH = 64
const DEFAULT_TIMEOUT_MS = 30_000

/** `{url}/v1/embeddings`, whether or not the URL already ends in `/v1`. */
export const embeddingsEndpointOf = (url: string): string => {
  const base = url.replace(/\/+$/, '')
  return base.endsWith('/v1') ? `${base}/embeddings` : `${base}/v1/embeddings`
}

/** The model id a served model's vectors are recorded under: its name (the server is where, not what). */
export const servedModelId = (model: string): string => `openai-compatible:${model}`

const excerpt = (text: string): string => (text.length > 200 ? `${text.slice(0, 200)}…` : text)

/** Reads `data[].embedding` in `index` order, checking every vector. */
const vectorsOf = (body: unknown, count: number, endpoint: string): Float32Array[] => {
  const data = (body as { data?: unknown } | null)?.data
  if (!Array.isArray(data) || data.length !== count)
    throw new EmbedderError(
      'bad_response',
      `The embeddings server at ${endpoint} answered ${Array.isArray(data) ? `${data.length} vectors for ${count} texts` : 'without a data list'}; it must answer {data: [{index, embedding}]} with one vector per input.`,
    )
  const vectors: Float32Array[] = new Array(count)
  data.forEach((item: unknown, position) => {
    const entry = item as { index?: unknown; embedding?: unknown } | null
    const index = typeof entry?.index === 'number' ? entry.index : position
    const embedding = entry?.embedding
    if (
      !Number.isInteger(index) ||
      index < 0 ||
      index >= count ||
      vectors[index] !== undefined ||
      !Array.isArray(embedding) ||
      embedding.length === 0 ||
      !embedding.every((value) => typeof value === 'number' && Number.isFinite(value))
    )
      throw new EmbedderError(
        'bad_response',
        `The embeddings server at ${endpoint} answered an entry that is not {index, embedding: [numbers]} at data[${position}].`,
      )
    vectors[index] = Float32Array.from(embedding as number[])
  })
  return vectors
}

class OpenAiEmbeddingsClient implements Embedder {
  readonly modelId: string
  dimensions: number
  readonly #endpoint: string
  readonly #options: OpenAiEmbeddingsClientOptions
  readonly #fetch: typeof fetch

  constructor(options: OpenAiEmbeddingsClientOptions, dimensions: number) {
    this.#options = options
    this.#endpoint = embeddingsEndpointOf(options.url)
    this.#fetch = options.fetch ?? fetch
    this.modelId = servedModelId(options.model)
    this.dimensions = dimensions
  }

  async embed(texts: readonly string[]): Promise<readonly Float32Array[]> {
    const batch = this.#options.batchSize ?? DEFAULT_BATCH
    const vectors: Float32Array[] = []
    for (let start = 0; start < texts.length; start += batch)
      vectors.push(...(await this.request(texts.slice(start, start + batch))))
    return vectors
  }

  async request(input: readonly string[]): Promise<Float32Array[]> {
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    let response: Response
    try {
      response = await this.#fetch(this.#endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.#options.apiKey === undefined ? {} : { authorization: `Bearer ${this.#options.apiKey}` }),
        },
        body: JSON.stringify({ model: this.#options.model, input }),
        signal: AbortSignal.timeout(timeoutMs),
      })
    } catch (error) {
      const name = (error as Error | undefined)?.name
      if (name === 'TimeoutError' || name === 'AbortError')
        throw new EmbedderError(
          'timeout',
          `The embeddings server at ${this.#endpoint} did not answer within ${timeoutMs} ms.`,
          { cause: error },
        )
      throw new EmbedderError(
        'unreachable',
        `The embeddings server at ${this.#endpoint} could not be reached (${(error as Error).message}). Check that it is running and the URL is right.`,
        { cause: error },
      )
    }
    let text: string
    try {
      text = await response.text()
    } catch (error) {
      throw new EmbedderError(
        'timeout',
        `The embeddings server at ${this.#endpoint} did not finish its answer within ${timeoutMs} ms.`,
        { cause: error },
      )
    }
    if (!response.ok)
      throw new EmbedderError(
        'rejected',
        `The embeddings server at ${this.#endpoint} refused the request with ${response.status}: ${excerpt(text)}`,
      )
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new EmbedderError(
        'bad_response',
        `The embeddings server at ${this.#endpoint} answered something that is not JSON: ${excerpt(text)}`,
      )
    }
    const vectors = vectorsOf(body, input.length, this.#endpoint)
    for (const vector of vectors)
      if (this.dimensions > 0 && vector.length !== this.dimensions)
        throw new EmbedderError(
          'bad_response',
          `The embeddings server at ${this.#endpoint} answered a vector of ${vector.length} numbers; model ${this.#options.model} gives ${this.dimensions}.`,
        )
    return vectors
  }
}

/**
 * A client of an OpenAI-compatible embeddings server. Without `dimensions`, it embeds one probe text first to
 * learn the width (so a server that is down fails here, at start, not at the first query).
 */
export async function createOpenAiEmbedder(options: OpenAiEmbeddingsClientOptions): Promise<Embedder> {
  if (options.model.trim() === '') throw new EmbedderError('rejected', 'An embeddings model name is needed.')
  try {
    new URL(embeddingsEndpointOf(options.url))
  } catch {
    throw new EmbedderError(
      'unreachable',
      `${JSON.stringify(options.url)} is not a URL of an embeddings server.`,
    )
  }
  const client = new OpenAiEmbeddingsClient(options, options.dimensions ?? 0)
  if (options.dimensions === undefined) {
    const [probe] = await client.request(['dimension probe'])
    client.dimensions = probe!.length
  }
  return client
}
