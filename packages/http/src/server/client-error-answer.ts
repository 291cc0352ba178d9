import type { Duplex } from 'node:stream'
import { errorBody } from '../errors/error-response.ts'

/** A Node HTTP server, as far as its `clientError` event goes (h3's `serve(…).node.server`). */
export interface ClientErrorSource {
  on(event: 'clientError', listener: (error: Error & { code?: string }, socket: Duplex) => void): unknown
}

const answerOf = (code: string | undefined): { status: string; error: string; message: string } => {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: '431 Request Header Fields Too Large',
        error: 'request_head_too_large',
        message:
          'The request line and headers are larger than this server reads. POST a long query to / as a JSON object with "oql" or "oqo" and Content-Type: application/json instead.',
      }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        status: '408 Request Timeout',
        error: 'request_timeout',
        message: 'The request was not received in time.',
      }
    default:
      return {
        status: '400 Bad Request',
        error: 'malformed_request',
        message: `The request is not valid HTTP/1.1 (${code ?? 'unreadable'}). Request targets are ASCII: percent-encode other bytes as UTF-8; header names are tokens and values have no control characters; a body has a correct Content-Length or chunked framing.`,
      }
  }
}

/**
 * Answers requests Node's HTTP parser refuses (bytes a request target may not hold, a malformed header,
 * bad chunked framing, a head over the size limit) with a JSON error like every other answer of the
 * API, where Node alone writes a bare `400 Bad Request` without a body that clients cannot read.
 * Nothing is written once a response has started; the connection is closed either way.
 */
export const answerClientErrors = (server: ClientErrorSource): void => {
  server.on('clientError', (error, socket) => {
    const started = (socket as Duplex & { bytesWritten?: number }).bytesWritten ?? 0
    if (error.code !== 'ECONNRESET' && socket.writable && started === 0) {
      const answer = answerOf(error.code)
      // The envelope of every other error of the API: `error` in words, the stable code in `code`.
      const body = JSON.stringify(
        errorBody(Number.parseInt(answer.status, 10), [{ error: answer.error, message: answer.message }]),
      )
      // Closed once written: the parser cannot find where this request ends, so no next one is read.
      socket.end(
        `HTTP/1.1 ${answer.status}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
        () => socket.destroy(),
      )
      return
    }
    socket.destroy()
  })
}
