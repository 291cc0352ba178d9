import { CollectionError } from '@oqlkit/engine'
import { parseBoundedJson } from '@oqlkit/oqo-schema'
import { readCappedBody } from '../request/capped-body-reader.ts'

/** The largest body the collections API reads: 1,000 full id URLs take about 40 KB. */
export const MAX_COLLECTION_BODY_BYTES = 256 * 1024

const tooLarge = (limit: number) =>
  new CollectionError(
    'invalid_body',
    `The body is larger than ${limit} bytes, more than any collection request needs (1,000 ids fit in about 40 KB). Send fewer ids per request.`,
  )

/**
 * The JSON value of a request body, read up to `limit` bytes (a larger body is refused as soon as it
 * passes the limit, not buffered whole). An empty, non-UTF-8 or non-JSON body is an `invalid_body`.
 */
export const readJsonBody = async (request: Request, limit = MAX_COLLECTION_BODY_BYTES): Promise<unknown> => {
  const bytes = await readCappedBody(request, limit)
  if (bytes === undefined) throw tooLarge(limit)
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw new CollectionError('invalid_body', 'The body is not UTF-8 text; send a JSON object.')
  }
  if (text.trim() === '') throw new CollectionError('invalid_body', 'The body is empty; send a JSON object.')
  try {
    return parseBoundedJson(text)
  } catch (error) {
    throw new CollectionError(
      'invalid_body',
      `The body is not valid JSON (${error instanceof Error ? error.message : 'unreadable'}); send a JSON object.`,
    )
  }
}
