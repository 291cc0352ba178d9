import { ApiError } from '../errors/api-error.ts'
import { concatChunks } from '../server/byte-chunks.ts'

/**
 * The bytes of a request body, read up to `limit`, or undefined once it is larger (declared or read):
 * a body over the cap is refused as soon as it passes it, not buffered whole first. A body that cannot be
 * read to its end (the client closed the connection mid-body, or its chunked framing was broken) is the
 * request's fault: a 400, not a server fault logged as a 500.
 */
export const readCappedBody = async (request: Request, limit: number): Promise<Uint8Array | undefined> => {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN)
  if (Number.isFinite(declared) && declared > limit) return undefined
  if (request.body === null) return new Uint8Array()
  const reader = request.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    let read: Awaited<ReturnType<typeof reader.read>>
    try {
      read = await reader.read()
    } catch {
      throw ApiError.of(
        400,
        'invalid_body',
        'The request body could not be read to its end: the connection closed, or its length or chunked framing was wrong, before the body was complete.',
      )
    }
    const { done, value } = read
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      return undefined
    }
    chunks.push(value)
  }
  return concatChunks(chunks, size)
}
