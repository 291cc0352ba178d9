// SIGTERM sent to a real `oqlkit serve` while long requests run: what the shutdown tests and
// `npm run sigterm-under-load` (scripts/sigterm-under-load.ts) measure. The long requests are 100-word OR
// searches of the bundled sample (seconds each on this machine), as lists and as group-bys, a semantic search,
// and exports whose clients read nothing after the headers (they hold their slots until the shutdown).
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'
import type { ServerProcess } from './server-process.ts'

/** The distinct words of the sample's README longer than three letters, in order: terms the index knows. */
export const sampleWords = (count: number): readonly string[] => {
  const words = readFileSync(join(SAMPLE_SNAPSHOT_DIR, 'README.md'), 'utf8')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((word, i, all) => word.length > 3 && all.indexOf(word) === i)
    .slice(0, count)
  if (words.length < count) throw new Error(`the sample's README has ${words.length} words, not ${count}`)
  return words
}

/** The paths of the long requests: `searches` 100-word OR searches, then the other kinds, each once. */
export const longRequestPaths = (
  searches: number,
): readonly { readonly kind: string; readonly path: string }[] => {
  const any = encodeURIComponent(sampleWords(100).join('|'))
  return [
    ...Array.from({ length: searches }, () => ({ kind: 'search', path: `/works?search=${any}&per_page=1` })),
    { kind: 'group-by', path: `/works?search=${any}&group_by=type` },
    { kind: 'group-by', path: `/works?search=${any}&group_by=publication_year` },
    { kind: 'semantic', path: '/works?search.semantic=coral%20reef%20bleaching&group_by=publication_year' },
    { kind: 'export', path: '/works/export?format=jsonl' },
    { kind: 'export', path: '/works/export?format=csv' },
  ]
}

/** What became of one request: its status line, or none (`status` undefined: the socket closed first). */
export interface RequestOutcome {
  readonly kind: string
  readonly status: number | undefined
  /** The code of a JSON error body (a 503's `shutting_down`). */
  readonly error?: string
  /** An export's body ended without its last chunk (cut off by the shutdown). */
  readonly cutOff?: boolean
  /** When its status line came (or the socket closed without one), in ms of `performance.now()`. */
  readonly at: number
}

/**
 * One GET over its own socket. Errors are read in full; an export's body is not read at all after its
 * headers (a client that stalls), and only whether it ended whole is told.
 */
const get = (url: string, kind: string, serverGone: Promise<unknown>): Promise<RequestOutcome> =>
  new Promise((settle) => {
    let at = 0
    const done = (outcome: Omit<RequestOutcome, 'at'>) => settle({ ...outcome, at: at || performance.now() })
    // The status line, once it came: an error of the socket after it does not take it back.
    let status: number | undefined
    const req = request(url, { agent: false }, (response) => {
      status = response.statusCode
      at = performance.now()
      if (kind === 'export' && status === 200) {
        // Read once the server is gone (a paused socket does not even see its end): the rest of the body the
        // socket holds, then its end; `complete` tells whether the chunked body's last chunk came.
        response.pause()
        response.once('close', () => done({ kind, status, cutOff: !response.complete }))
        response.on('error', () => {})
        void serverGone.then(() => response.resume())
        return
      }
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.once('error', () => done({ kind, status }))
      response.once('end', () => {
        let error: string | undefined
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { code?: string; error?: string }
          error = body.code ?? body.error
        } catch {}
        done({ kind, status, ...(error === undefined ? {} : { error }) })
      })
    })
    req.once('error', () => {
      if (status === undefined) done({ kind, status })
    })
    req.end()
  })

export interface ShutdownRun {
  /** From the SIGTERM to the process's exit, in ms (Infinity: still running when given up on, and killed). */
  readonly exitMs: number
  /** Undefined when the process was still running when given up on. */
  readonly exitCode: number | null | undefined
  readonly outcomes: readonly RequestOutcome[]
  /** Whether the server printed `oqlkit: stopped`. */
  readonly stopped: boolean
  /** When the SIGTERM was sent, in ms of `performance.now()`. */
  readonly signalledAt: number
}

/**
 * Sends the long requests to a server, SIGTERM `afterMs` later, and waits for the process to exit (SIGKILL
 * after `giveUpMs`) and every request to end.
 */
export const sigtermUnderLoad = async (
  server: ServerProcess,
  options: { readonly searches?: number; readonly afterMs?: number; readonly giveUpMs?: number } = {},
): Promise<ShutdownRun> => {
  const exited = new Promise<number | null>((done) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) done(server.child.exitCode)
    else server.child.once('exit', (code) => done(code))
  })
  const outcomes = Promise.all(
    longRequestPaths(options.searches ?? 4).map(({ kind, path }) =>
      get(`${server.url}${path}`, kind, exited),
    ),
  )
  await new Promise((wait) => setTimeout(wait, options.afterMs ?? 2_000))
  const signalled = performance.now()
  server.child.kill('SIGTERM')
  let timer: ReturnType<typeof setTimeout> | undefined
  const gaveUp = new Promise<undefined>((done) => {
    timer = setTimeout(() => done(undefined), options.giveUpMs ?? 30_000)
  })
  const exitCode = await Promise.race([exited, gaveUp])
  clearTimeout(timer)
  const exitMs = exitCode === undefined ? Number.POSITIVE_INFINITY : performance.now() - signalled
  if (exitCode === undefined) await server.kill()
  return {
    exitMs,
    exitCode,
    outcomes: await outcomes,
    stopped: server.output().includes('oqlkit: stopped'),
    signalledAt: signalled,
  }
}
