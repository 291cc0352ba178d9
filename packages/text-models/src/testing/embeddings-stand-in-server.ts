// A real HTTP server that speaks the OpenAI embeddings API, for the tests of the client and of catalogs whose
// vectors come from a server (no embedding model can run here). Its "model" hashes each word (lower case,
// letters and digits) into one of `dimensions` buckets and counts: texts sharing words point the same way.
// It records the requests it got, and can be told to fail in the ways a real server does.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type StandInMode = 'ok' | 'error-500' | 'not-json' | 'wrong-count' | 'wrong-width' | 'slow'

export interface StandInServer {
  readonly url: string
  readonly dimensions: number
  /** Every request body received, in order. */
  readonly requests: { model: string; input: string[] }[]
  mode: StandInMode
  close(): Promise<void>
}

/** The stand-in model's vector of a text (what the server answers for it). */
export function standInVector(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0)
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (word.length < 3) continue
    let hash = 2166136261
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), 16777619)
    vector[(hash >>> 0) % dimensions]! += 1
  }
  return vector
}

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => {
      text += chunk
    })
    request.on('end', () => resolve(text))
    request.on('error', reject)
  })

export async function startStandInServer(dimensions = 64): Promise<StandInServer> {
  const requests: { model: string; input: string[] }[] = []
  const state = { mode: 'ok' as StandInMode }
  const answer = (response: ServerResponse, status: number, body: string) => {
    response.writeHead(status, { 'content-type': 'application/json' })
    response.end(body)
  }
  const server: Server = createServer(async (request, response) => {
    const text = await readBody(request)
    if (request.method !== 'POST' || request.url !== '/v1/embeddings')
      return answer(response, 404, JSON.stringify({ error: { message: `no route ${request.url}` } }))
    const body = JSON.parse(text) as { model: string; input: string[] }
    requests.push(body)
    switch (state.mode) {
      case 'error-500':
        return answer(response, 500, JSON.stringify({ error: { message: 'model not loaded' } }))
      case 'not-json':
        return answer(response, 200, '<html>proxy error</html>')
      case 'slow':
        setTimeout(() => answer(response, 200, '{"data":[]}'), 2000)
        return
      default: {
        const data = body.input.map((input, index) => ({
          object: 'embedding',
          index,
          embedding: standInVector(input, state.mode === 'wrong-width' ? dimensions + 1 : dimensions),
        }))
        // Entries in reverse order: a client must place them by `index`, not by position.
        data.reverse()
        if (state.mode === 'wrong-count') data.pop()
        return answer(response, 200, JSON.stringify({ object: 'list', data, model: body.model }))
      }
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    dimensions,
    requests,
    get mode() {
      return state.mode
    },
    set mode(mode: StandInMode) {
      state.mode = mode
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
