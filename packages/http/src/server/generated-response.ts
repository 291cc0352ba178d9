// A response whose body is written as the client reads it, from pieces an iterator makes one at a time: the
// answer of a lookup or a snowball, whose records are in memory once found. Written whole, 10,000 works made
// a 161 MB body beside the records it was made of, and held the main thread for the whole of its writing;
// made a chunk a pull, it is never all in memory twice, and other requests are answered between chunks. A
// small answer (one chunk) is still sent in one write, with its length (`bytesResponse`).
import { concatChunks } from './byte-chunks.ts'
import { bytesResponse } from './byte-responses.ts'

/** About this many bytes are made a pull: a few ms of work. */
const CHUNK_BYTES = 256 * 1024

/** How long a body waits for a client that stopped reading before it gives up (as an export does). */
export const READER_IDLE_MS = 60_000

/** The next pieces, up to about `CHUNK_BYTES`, as one array; `done` when the iterator has no more. */
const nextChunk = (pieces: Iterator<Uint8Array>): { readonly bytes: Uint8Array; readonly done: boolean } => {
  const taken: Uint8Array[] = []
  let size = 0
  while (size < CHUNK_BYTES) {
    const next = pieces.next()
    if (next.done === true) return { bytes: concatChunks(taken, size), done: true }
    taken.push(next.value)
    size += next.value.byteLength
  }
  return { bytes: concatChunks(taken, size), done: false }
}

/** Keeps a server's shutdown waiting while a body flows (`RequestLimits.holdOpen`), stopping it when told. */
export type HoldOpen = (stop: AbortController, finished: Promise<unknown>) => void

export interface GeneratedBodyOptions {
  /** How long the body waits for a reader that stopped (default `READER_IDLE_MS`). */
  readonly idleMs?: number
  /** Held open by a shutdown while it flows, and ended short if the shutdown's grace runs out. */
  readonly holdOpen?: HoldOpen
}

/**
 * A response of the bytes `pieces` makes, in order: whole when they fit one chunk, else a stream that makes the
 * next chunk when the client has taken the last. A client that goes away ends it (the iterator is returned);
 * one that reads nothing for `idleMs` is given up on, and the connection closed short of the end. A shutdown
 * waits for it (`holdOpen`), as for an export's rows, and cuts it when its grace runs out.
 */
export const generatedResponse = (
  pieces: Iterable<Uint8Array>,
  init: ResponseInit,
  options: GeneratedBodyOptions = {},
): Response => {
  const idleMs = options.idleMs ?? READER_IDLE_MS
  const iterator = pieces[Symbol.iterator]()
  const first = nextChunk(iterator)
  if (first.done) return bytesResponse(first.bytes, init)
  let pending: Uint8Array | undefined = first.bytes
  let idle: ReturnType<typeof setTimeout> | undefined
  let ended = false
  const stop = new AbortController()
  let finished: () => void = () => {}
  options.holdOpen?.(
    stop,
    new Promise<void>((resolve) => {
      finished = resolve
    }),
  )
  const end = () => {
    clearTimeout(idle)
    pending = undefined
    if (ended) return
    ended = true
    finished()
    try {
      iterator.return?.()
    } catch {
      // A maker that fails as it is stopped has nothing more to give: the body ends either way.
    }
  }
  const waitForReader = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    idle = setTimeout(() => {
      end()
      controller.error(new Error(`the client read nothing for ${idleMs / 1000} s`))
    }, idleMs)
    // A body waiting for its reader never keeps the process alive (a shutdown closes the sockets).
    idle.unref?.()
  }
  const body = new ReadableStream<Uint8Array>(
    {
      start: (controller) => {
        waitForReader(controller)
        // A shutdown whose grace ran out: the body ends here, short of its end, as an export's does.
        stop.signal.addEventListener('abort', () => {
          if (ended) return
          end()
          controller.error(new Error('the server is shutting down'))
        })
      },
      pull: (controller) => {
        clearTimeout(idle)
        if (pending !== undefined) {
          controller.enqueue(pending)
          pending = undefined
          waitForReader(controller)
          return
        }
        const chunk = nextChunk(iterator)
        if (chunk.bytes.byteLength > 0) controller.enqueue(chunk.bytes)
        if (chunk.done) {
          end()
          controller.close()
          return
        }
        waitForReader(controller)
      },
      cancel: () => end(),
    },
    { highWaterMark: 0 },
  )
  return new Response(body, init)
}

/** A 200 of JSON, or of JSON Lines (`jsonl`), made as it is sent: a lookup's, a snowball's. */
export const jsonOrLinesResponse = (
  pieces: Iterable<Uint8Array>,
  format: 'json' | 'jsonl',
  holdOpen?: HoldOpen,
): Response =>
  generatedResponse(
    pieces,
    {
      status: 200,
      headers: {
        'content-type':
          format === 'jsonl' ? 'application/x-ndjson; charset=utf-8' : 'application/json; charset=utf-8',
      },
    },
    holdOpen === undefined ? {} : { holdOpen },
  )
