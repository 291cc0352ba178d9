import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { errorBody } from '../errors/error-response.ts'

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void

/**
 * A Node HTTP server, as far as answering what Node would refuse goes (h3's `serve(…).node.server`, or
 * `node:http`'s `createServer`): its `clientError`, `connect` and `request` events, and the switch of Node's
 * own Host check.
 */
export interface ClientErrorSource {
  on(event: 'clientError', listener: (error: Error & { code?: string }, socket: Duplex) => void): unknown
  on(event: 'connect', listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void): unknown
  on(event: 'request', listener: RequestListener): unknown
  listeners(event: 'request'): unknown[]
  removeAllListeners(event: 'request'): unknown
  requireHostHeader?: boolean
}

/** The methods some route of the API answers, for the `Allow` of a CONNECT. */
const SERVED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE'

interface Answer {
  readonly status: number
  readonly reason: string
  readonly code: string
  readonly message: string
  readonly headers?: Readonly<Record<string, string>>
}

const answerOf = (code: string | undefined): Answer => {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        code: 'request_head_too_large',
        message:
          'The request line and headers are larger than this server reads. POST a long query to / as a JSON object with "oql" or "oqo" and Content-Type: application/json instead.',
      }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: 408,
        reason: 'Request Timeout',
        code: 'request_timeout',
        message: 'The request was not received in time.',
      }
    default:
      return {
        status: 400,
        reason: 'Bad Request',
        code: 'malformed_request',
        message: `The request is not valid HTTP/1.1 (${code ?? 'unreadable'}). Request targets are ASCII: percent-encode other bytes as UTF-8; header names are tokens and values have no control characters; a body has a correct Content-Length or chunked framing.`,
      }
  }
}

const MISSING_HOST: Answer = {
  status: 400,
  reason: 'Bad Request',
  code: 'missing_host',
  message:
    'An HTTP/1.1 request must have a Host header (RFC 9112, section 3.2): send Host: with the name and port of this server, as every HTTP client does.',
}

const CONNECT: Answer = {
  status: 405,
  reason: 'Method Not Allowed',
  code: 'method_not_allowed',
  message: `CONNECT is not served: this server is an API, not a proxy. Its routes answer ${SERVED_METHODS}; GET / describes them.`,
  headers: { allow: SERVED_METHODS },
}

/** The JSON of an answer, in the envelope of every other error of the API. */
const bodyOf = (answer: Answer): string =>
  JSON.stringify(errorBody(answer.status, [{ error: answer.code, message: answer.message }]))

/** Writes an answer on a socket no response object owns, and closes it once written. */
const endSocket = (socket: Duplex, answer: Answer): void => {
  const body = bodyOf(answer)
  const extra = Object.entries(answer.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  )
}

/**
 * Answers in JSON, like every other answer of the API, the requests Node would refuse with a bare status or
 * a closed connection that clients cannot read:
 *
 * - those its HTTP parser refuses (bytes a request target may not hold, a malformed header, bad chunked
 *   framing, a head over the size limit): 400 `malformed_request`, 431 or 408, the connection closed, as the
 *   parser cannot find where the request ends; nothing is written once a response has started;
 * - an HTTP/1.1 request without `Host`, which Node answers with an empty 400: 400 `missing_host`;
 * - `CONNECT`, whose socket Node closes without a word when nobody listens for it: 405 `method_not_allowed`
 *   with `Allow`.
 *
 * Call it once the server's request listener is attached (`serve` and `createServer` attach theirs at once):
 * the Host check wraps it.
 */
export const answerClientErrors = (server: ClientErrorSource): void => {
  server.on('clientError', (error, socket) => {
    const started = (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0
    if (error.code !== 'ECONNRESET' && socket.writable && started === 0) {
      endSocket(socket, answerOf(error.code))
      return
    }
    socket.destroy()
  })

  server.on('connect', (_request, socket) => {
    if (socket.writable) endSocket(socket, CONNECT)
    else socket.destroy()
  })

  // Node's own check answers before any listener sees the request; ours answers the same refusal in JSON.
  // A server without the check (HTTP/2, or one created with requireHostHeader: false) is left as it is.
  if (server.requireHostHeader !== true) return
  server.requireHostHeader = false
  const handlers = server.listeners('request') as RequestListener[]
  server.removeAllListeners('request')
  server.on('request', (request, response) => {
    if (
      request.httpVersionMajor === 1 &&
      request.httpVersionMinor === 1 &&
      request.headers.host === undefined
    ) {
      const body = bodyOf(MISSING_HOST)
      response.writeHead(MISSING_HOST.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      })
      response.end(body)
      return
    }
    for (const handler of handlers) Reflect.apply(handler, server, [request, response])
  })
}
