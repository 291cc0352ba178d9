// Streams the lines of a text file, gunzipping it when it starts with the gzip magic bytes. Memory holds
// one chunk and one line at a time, never the file. A gzip stream that ends early or is corrupt becomes an
// IngestError at the line that could not be completed.
import { createReadStream } from 'node:fs'
import { open } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import { IngestError, ingestErrorDetails } from '../ingest-error.ts'

export interface TextLine {
  /** 1-based. */
  readonly lineNumber: number
  /** The line without its `\n` (and without a `\r` before it). */
  readonly text: string
  /**
   * The same line's bytes as the file holds them (not checked to be UTF-8), when the reader had them: valid
   * UTF-8, they are the text's bytes, which the record store can take without encoding the text again.
   */
  readonly bytes?: Buffer
}

const NEWLINE = 0x0a
const CARRIAGE_RETURN = 0x0d
const READ_CHUNK = 1 << 20
const GUNZIP_CHUNK = 1 << 18

export async function isGzipFile(path: string): Promise<boolean> {
  const handle = await open(path, 'r')
  try {
    const head = Buffer.alloc(2)
    const { bytesRead } = await handle.read(head, 0, 2, 0)
    return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b
  } finally {
    await handle.close()
  }
}

export async function* readTextLines(path: string): AsyncGenerator<TextLine> {
  let gzip: boolean
  try {
    gzip = await isGzipFile(path)
  } catch (error) {
    throw new IngestError(
      {
        code: 'unreadable-file',
        file: path,
        detail: ingestErrorDetails.unreadableFile((error as Error).message),
      },
      { cause: error },
    )
  }
  const file = createReadStream(path, { highWaterMark: READ_CHUNK })
  const source: Readable = gzip ? file.pipe(createGunzip({ chunkSize: GUNZIP_CHUNK })) : file
  if (gzip) file.on('error', (error) => source.destroy(error))

  let lineNumber = 0
  let carry: Buffer | undefined
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      let start = 0
      for (let end = chunk.indexOf(NEWLINE, start); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, end)
        const bytes = carry === undefined ? piece : Buffer.concat([carry, piece])
        carry = undefined
        lineNumber++
        yield lineOf(lineNumber, bytes)
        start = end + 1
      }
      if (start < chunk.length) {
        const rest = chunk.subarray(start)
        carry = carry === undefined ? Buffer.from(rest) : Buffer.concat([carry, rest])
      }
    }
  } catch (error) {
    if (error instanceof IngestError) throw error
    throw streamError(path, lineNumber + 1, error as NodeJS.ErrnoException, gzip)
  } finally {
    file.destroy()
  }
  if (carry !== undefined && carry.length > 0) {
    lineNumber++
    yield lineOf(lineNumber, carry)
  }
}

function lineOf(lineNumber: number, bytes: Buffer): TextLine {
  const end =
    bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length
  const line = bytes.subarray(0, end)
  return { lineNumber, text: line.toString('utf8'), bytes: line }
}

function streamError(path: string, line: number, error: NodeJS.ErrnoException, gzip: boolean): IngestError {
  // zlib reports a stream that stops mid-member as Z_BUF_ERROR ("unexpected end of file").
  if (gzip && error.code === 'Z_BUF_ERROR') {
    return new IngestError(
      { code: 'truncated-gzip', file: path, line, detail: ingestErrorDetails.truncatedGzip() },
      { cause: error },
    )
  }
  if (gzip && typeof error.code === 'string' && error.code.startsWith('Z_')) {
    return new IngestError(
      { code: 'corrupt-gzip', file: path, line, detail: ingestErrorDetails.corruptGzip(error.message) },
      { cause: error },
    )
  }
  return new IngestError(
    { code: 'unreadable-file', file: path, line, detail: ingestErrorDetails.unreadableFile(error.message) },
    { cause: error },
  )
}
