// The client of an OpenAI-compatible embeddings server, against a real HTTP server started here that speaks
// the API (no embedding model can run in this environment): what it sends, how it batches and orders, and
// each way a server can fail, as an EmbedderError that names the failure.
import { type EmbedderFailure, isEmbedderError } from '@oqlkit/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createOpenAiEmbedder,
  embeddingsEndpointOf,
} from '../src/embeddings-client/openai-embeddings-client.ts'
import {
  type StandInServer,
  standInVector,
  startStandInServer,
} from '../src/testing/embeddings-stand-in-server.ts'

let server: StandInServer
beforeAll(async () => {
  server = await startStandInServer(32)
})
afterAll(async () => {
  await server.close()
})

const failureOf = async (promise: Promise<unknown>): Promise<EmbedderFailure | 'none'> => {
  try {
    await promise
    return 'none'
  } catch (error) {
    expect(isEmbedderError(error)).toBe(true)
    return (error as { failure: EmbedderFailure }).failure
  }
}

describe('the embeddings client', () => {
  it('learns the width from the server, sends the model, and returns each text its vector in order', async () => {
    server.mode = 'ok'
    const client = await createOpenAiEmbedder({ url: server.url, model: 'mini', batchSize: 3 })
    expect(client.dimensions).toBe(32)
    expect(client.modelId).toBe('openai-compatible:mini')
    server.requests.length = 0
    const texts = [
      'coral reefs',
      'neural networks',
      'ocean warming',
      'graph theory',
      'protein folding',
      'soil',
    ]
    const vectors = await client.embed(texts)
    expect(vectors.map((vector) => [...vector])).toEqual(texts.map((text) => standInVector(text, 32)))
    // Batches of 3, each with the model name; the server answered each in reverse order.
    expect(server.requests.map((request) => request.input)).toEqual([texts.slice(0, 3), texts.slice(3)])
    expect(server.requests.every((request) => request.model === 'mini')).toBe(true)
  })

  it('accepts the base URL with or without /v1', () => {
    expect(embeddingsEndpointOf('http://h:1')).toBe('http://h:1/v1/embeddings')
    expect(embeddingsEndpointOf('http://h:1/v1/')).toBe('http://h:1/v1/embeddings')
    expect(embeddingsEndpointOf('http://h:1/openai/v1')).toBe('http://h:1/openai/v1/embeddings')
  })

  it.each([
    ['error-500', 'rejected', /refused the request with 500: .*model not loaded/],
    ['not-json', 'bad_response', /not JSON/],
    ['wrong-count', 'bad_response', /2 vectors for 3 texts/],
    ['wrong-width', 'bad_response', /33 numbers; model mini gives 32/],
  ] as const)('a server answering %s fails as %s', async (mode, failure, message) => {
    server.mode = 'ok'
    const client = await createOpenAiEmbedder({ url: server.url, model: 'mini' })
    server.mode = mode
    const attempt = client.embed(['a text', 'another text', 'third text'])
    await expect(attempt).rejects.toThrow(message)
    expect(await failureOf(client.embed(['a text', 'another text', 'third text']))).toBe(failure)
    server.mode = 'ok'
  })

  it('times out a server that does not answer in time', async () => {
    server.mode = 'ok'
    const client = await createOpenAiEmbedder({ url: server.url, model: 'mini', timeoutMs: 200 })
    server.mode = 'slow'
    const started = Date.now()
    expect(await failureOf(client.embed(['slow text']))).toBe('timeout')
    expect(Date.now() - started).toBeLessThan(1500)
    server.mode = 'ok'
  })

  it('says when no server listens, already when it is created', async () => {
    const closed = await startStandInServer(8)
    const url = closed.url
    await closed.close()
    expect(await failureOf(createOpenAiEmbedder({ url, model: 'mini' }))).toBe('unreachable')
    await expect(createOpenAiEmbedder({ url, model: 'mini' })).rejects.toThrow(/could not be reached/)
    expect(await failureOf(createOpenAiEmbedder({ url: 'not a url', model: 'mini' }))).toBe('unreachable')
    expect(await failureOf(createOpenAiEmbedder({ url: server.url, model: ' ' }))).toBe('rejected')
  })
})
