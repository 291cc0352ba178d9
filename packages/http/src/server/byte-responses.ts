// Responses whose body is bytes already in memory (a stored record, an envelope around stored records, a
// compressed answer). They are srvx's `FastResponse` (h3's own response class for Node), which h3's Node
// adapter writes to the socket as they are, in one write with their length; undici's `Response` copied the
// bytes into a stream that the adapter then read back chunk by chunk. The bytes stay known to the serving
// layers (`bytesOf`), so compression takes them whole in one call instead of piping a web stream through a
// Node stream, zlib and back. `withEditedHeaders` changes a response's headers in place where it can, so a
// layer that adds a header (CORS, metering) passes on the response it was given, bytes and all.
import { FastResponse } from 'srvx'

const knownBytes = new WeakMap<Response, Uint8Array>()

/** A response of these bytes, known as bytes to the layers after it. */
export const bytesResponse = (bytes: Uint8Array, init: ResponseInit): Response => {
  const response: Response = new FastResponse(bytes as Uint8Array<ArrayBuffer>, init)
  knownBytes.set(response, bytes)
  return response
}

/** The body of a response made by `bytesResponse`, or undefined for any other (a stream, a text). */
export const bytesOf = (response: Response): Uint8Array | undefined => knownBytes.get(response)

/**
 * The response with `edit` applied to its headers: in place when they can be changed (every response the app
 * makes), or on a copy for one whose headers are immutable (a response from `fetch`).
 */
export const withEditedHeaders = (response: Response, edit: (headers: Headers) => void): Response => {
  try {
    edit(response.headers)
    return response
  } catch (error) {
    // Immutable headers refuse the first change, so none was made.
    if (!(error instanceof TypeError)) throw error
  }
  const headers = new Headers(response.headers)
  edit(headers)
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers })
}
