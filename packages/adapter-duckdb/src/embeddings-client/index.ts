// The client of an OpenAI-compatible embeddings server: the other embedder of semantic search.
export {
  createOpenAiEmbedder,
  embeddingsEndpointOf,
  type OpenAiEmbeddingsClientOptions,
  servedModelId,
} from './openai-embeddings-client.ts'
