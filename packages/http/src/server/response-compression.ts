import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { promisify } from 'node:util'
import { brotliCompress, constants, createBrotliCompress, createGzip, gzip } from 'node:zlib'
import type { Middleware } from 'h3'
import Negotiator from 'negotiator'
import { concatChunks } from './byte-chunks.ts'
import { bytesOf, bytesResponse, withEditedHeaders } from './byte-responses.ts'
import { appendVary } from './cors-middleware.ts'
import { responseOfNext } from './next-response.ts'

export interface CompressionOptions {
  /** Bodies smaller than this go as they are (default 1,024 bytes: below, headers outweigh the saving). */
  readonly thresholdBytes?: number
  /** Brotli's quality, 0-11 (default 4: near gzip's speed and smaller; 11 is for static files, not answers). */
  readonly brotliQuality?: number
  /** gzip's level, 1-9 (default 4: on a page of 100 works, 5% larger than zlib's default 6 for 60% of its CPU). */
  readonly gzipLevel?: number
}

const DEFAULT_THRESHOLD_BYTES = 1024
const gzipAsync = promisify(gzip)
const brotliCompressAsync = promisify(brotliCompress)
const ZLIB_CHUNK_BYTES = 64 * 1024

// What is worth compressing: JSON (and +json), JSON Lines, CSV, text. Parquet and images are compressed already.
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|[\w.+-]*\+json|x-ndjson|jsonl|xml|javascript)\b)/i

/**
 * The client's choice among gzip, br and identity by `Accept-Encoding`'s q-values. gzip wins a tie (browsers
 * send `gzip, deflate, br` unweighted): on a page of 100 works brotli is 19% smaller but added about
 * 1.5 times the CPU gzip adds in the server, which pays off only on links slower than some 50 Mbit/s; a client that ranks
 * br higher gets br.
 */
const negotiate = (acceptEncoding: string | null): 'br' | 'gzip' | undefined => {
  if (acceptEncoding === null) return undefined
  // negotiator 1.x takes the server's preference for ties; its published types predate that argument.
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as unknown as {
    encoding(available: readonly string[], options: { preferred: readonly string[] }): string | undefined
  }
  const chosen = negotiator.encoding(['gzip', 'br', 'identity'], { preferred: ['gzip', 'br', 'identity'] })
  return chosen === 'br' || chosen === 'gzip' ? chosen : undefined
}

/**
 * Compresses answers with gzip or brotli as the client's `Accept-Encoding` asks (q-values respected,
 * `identity` and `*` understood, `q=0` refusing), streaming through `node:zlib`, for compressible types at
 * or above a size threshold. The first bytes are read to learn whether a body reaches the threshold, so a
 * streamed body of unknown length is judged too. Compressible answers carry `Vary: Accept-Encoding`. HEAD,
 * 204/304, bodies already encoded and `Cache-Control: no-transform` are left alone.
 */
export const compressionMiddleware = (
  options: CompressionOptions = {},
  logError?: (error: unknown) => void,
): Middleware => {
  const threshold = options.thresholdBytes ?? DEFAULT_THRESHOLD_BYTES
  const brotliQuality = options.brotliQuality ?? 4
  const gzipLevel = options.gzipLevel ?? 4
  // A body held whole (`bytesResponse`) is compressed whole, in one call on libuv's thread pool, and sent as
  // bytes: the stream path below cost a web stream, a Node stream and zlib's chunks for each answer.
  const compressBytes = async (
    acceptEncoding: string | null,
    response: Response,
    bytes: Uint8Array,
  ): Promise<Response> => {
    if (bytes.byteLength < threshold) return response
    const encoding = negotiate(acceptEncoding)
    if (encoding === undefined)
      return withEditedHeaders(response, (headers) => appendVary(headers, 'Accept-Encoding'))
    const headers = new Headers(response.headers)
    appendVary(headers, 'Accept-Encoding')
    headers.delete('content-length')
    headers.set('content-encoding', encoding)
    const compressed =
      encoding === 'br'
        ? await brotliCompressAsync(bytes, {
            chunkSize: ZLIB_CHUNK_BYTES,
            params: {
              [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          })
        : await gzipAsync(bytes, { level: gzipLevel, chunkSize: ZLIB_CHUNK_BYTES })
    return bytesResponse(compressed, { status: response.status, statusText: response.statusText, headers })
  }
  return async (event, next) => {
    const response = await responseOfNext(event, next, logError)
    const type = response.headers.get('content-type') ?? ''
    if (
      event.req.method === 'HEAD' ||
      response.body === null ||
      response.status === 204 ||
      response.status === 304 ||
      response.headers.has('content-encoding') ||
      /no-transform/i.test(response.headers.get('cache-control') ?? '') ||
      !COMPRESSIBLE.test(type)
    )
      return response
    const bytes = bytesOf(response)
    if (bytes !== undefined) return compressBytes(event.req.headers.get('accept-encoding'), response, bytes)
    const declared = response.headers.get('content-length')
    if (declared !== null && Number(declared) < threshold) return response
    const headers = new Headers(response.headers)
    const init = () => ({ status: response.status, statusText: response.statusText, headers })
    const encoding = negotiate(event.req.headers.get('accept-encoding'))
    // Read up to the threshold: a body that ends before it goes whole and uncompressed.
    const reader = response.body.getReader()
    const head: Uint8Array[] = []
    let size = 0
    let ended = false
    while (size < threshold) {
      const { done, value } = await reader.read()
      if (done) {
        ended = true
        break
      }
      head.push(value)
      size += value.byteLength
    }
    if (ended && size < threshold) {
      headers.set('content-length', String(size))
      return new Response(concatChunks(head, size), init())
    }
    appendVary(headers, 'Accept-Encoding')
    // The body again, from its first bytes on; cancelling it (a client gone) cancels the answer's own stream.
    const rest = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        const buffered = head.shift()
        if (buffered !== undefined) return controller.enqueue(buffered)
        const { done, value } = await reader.read()
        if (done) controller.close()
        else controller.enqueue(value)
      },
      cancel: (reason) => reader.cancel(reason),
    })
    if (encoding === undefined) return new Response(rest, init())
    headers.delete('content-length')
    headers.set('content-encoding', encoding)
    // Output in 64 KB pieces rather than zlib's 16 KB: a page of works took twice the CPU with brotli in 16 KB.
    const zip =
      encoding === 'br'
        ? createBrotliCompress({
            chunkSize: ZLIB_CHUNK_BYTES,
            params: {
              [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
              [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            },
          })
        : createGzip({ level: gzipLevel, chunkSize: ZLIB_CHUNK_BYTES })
    // A client gone mid-body destroys the zlib stream; the pipeline then destroys its source, which cancels
    // the answer's stream (an export stops reading rows).
    pipeline(Readable.fromWeb(rest as NodeReadableStream<Uint8Array>), zip).catch(() => {})
    return new Response(Readable.toWeb(zip) as ReadableStream<Uint8Array>, init())
  }
}
