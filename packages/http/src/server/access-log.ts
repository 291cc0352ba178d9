import { open as openFile } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { promisify } from 'node:util'
import { apiKeyIdOf, hashApiKey } from '@oqlkit/engine'
import type { Middleware } from 'h3'
import { type DestinationStream, type Logger, pino } from 'pino'
import { readCredential } from '../metering/credential-reader.ts'
import { clientAddressOf } from './client-address.ts'
import { responseOfNext } from './next-response.ts'
import type { ProxyTrust } from './proxy-trust.ts'

/** One request as the access log writes it (one JSON line, with pino's `level`, `time` and `msg`). */
export interface AccessLogEntry {
  readonly method: string
  /** Path and query string, the `api_key` parameter's value replaced by `[redacted]`. */
  readonly path: string
  readonly status: number
  /** Time from the request's arrival to its response head (a streamed body may go on after). */
  readonly duration_ms: number
  /** What the call was charged (`X-RateLimit-Credits-Used`), USD; null on a server without metering. */
  readonly cost_usd: number | null
  /** The key's id, as `oqlkit keys list` shows it (the start of its SHA-256, never the key); null without one. */
  readonly key_id: string | null
  /** The client's address, behind trusted proxies the forwarded one (`--trust-proxy`). */
  readonly client: string
}

export type AccessLog = (entry: AccessLogEntry) => void

/**
 * The short id of a key in logs: the id `oqlkit keys list` shows and `keys revoke --key-id` takes, from the
 * stored hash, so a log line leads to its key's record and never reveals the key.
 */
export const keyIdOf = async (key: string): Promise<string> => apiKeyIdOf(await hashApiKey(key))

/** The request target with every `api_key` parameter's value hidden (names are matched decoded). */
export const loggedPathOf = (url: URL): string => {
  const query = url.search.slice(1)
  if (query === '') return url.pathname
  const parts = query.split('&').map((part) => {
    const equals = part.indexOf('=')
    const rawName = equals === -1 ? part : part.slice(0, equals)
    let name = rawName
    try {
      name = decodeURIComponent(rawName.replaceAll('+', ' '))
    } catch {}
    return name === 'api_key' && equals !== -1 ? `${rawName}=[redacted]` : part
  })
  return `${url.pathname}?${parts.join('&')}`
}

/**
 * Writes one access-log entry per request: registered first, so it sees the final status (refusals,
 * 429s and preflights included) and times the whole chain. The key id comes from the credential
 * as sent (a refused key is logged with no id); the cost from the metering's header.
 */
export const accessLogMiddleware = (
  log: AccessLog,
  trustProxy?: ProxyTrust | boolean,
  logError?: (error: unknown) => void,
): Middleware => {
  return async (event, next) => {
    const started = performance.now()
    const response = await responseOfNext(event, next, logError)
    const credential = readCredential(event.req)
    const credits = response.headers.get('x-ratelimit-credits-used')
    try {
      log({
        method: event.req.method,
        path: loggedPathOf(event.url),
        status: response.status,
        duration_ms: Math.round((performance.now() - started) * 100) / 100,
        cost_usd: credits === null ? null : Number(credits),
        key_id: credential.kind === 'key' ? await keyIdOf(credential.key) : null,
        client: clientAddressOf(event.req, trustProxy),
      })
    } catch (error) {
      // A log that cannot be written never fails the request it describes.
      ;(logError ?? console.error)(error)
    }
    return response
  }
}

/**
 * A JSON-lines access log with pino: to a destination stream (a file, stdout) or any writable. No pid or
 * hostname in the lines; ISO times. `flush` before exit writes what is buffered.
 */
export const createAccessLog = (
  destination: DestinationStream,
): { readonly log: AccessLog; readonly logger: Logger } => {
  const logger = pino({ base: null, timestamp: pino.stdTimeFunctions.isoTime }, destination)
  return { log: (entry) => logger.info(entry, 'request'), logger }
}

/**
 * The access log of a server: `'-'` stdout, `'stderr'`, or a file appended to (created with its folder).
 * Writes are asynchronous, each line as it comes (no buffering a `tail -f` would wait on); `close` flushes
 * what is still pending. Rejects with the reason when the file cannot be opened.
 */
export const openAccessLog = async (
  target: string,
): Promise<{ readonly log: AccessLog; readonly close: () => void }> => {
  // The file is opened here, not by pino: a stream that fails to open stays registered for pino's flush at
  // exit, which then throws ("sonic boom is not ready yet") in whatever process tried.
  const dest = target === '-' ? 1 : target === 'stderr' ? 2 : await openForAppend(target)
  const destination = pino.destination({ dest, sync: false })
  const { log } = createAccessLog(destination)
  return {
    log,
    close: () => {
      try {
        destination.flushSync()
      } catch {
        // Nothing pending, or the descriptor is gone: there is nothing left to write.
      }
    },
  }
}

/** A file descriptor appending to `path`, its folder created; the error names the access log. */
async function openForAppend(path: string): Promise<number> {
  try {
    await mkdir(dirname(path), { recursive: true })
    return await promisify(openFile)(path, 'a')
  } catch (error) {
    throw new Error(`the access log ${path} cannot be opened: ${(error as Error).message}`)
  }
}
