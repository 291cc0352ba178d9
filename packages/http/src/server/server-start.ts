import { isIP } from 'node:net'
import { type H3, serve } from 'h3'
import { answerClientErrors } from './client-error-answer.ts'

export interface ServerStartOptions {
  /** The address to listen on (default 127.0.0.1: this machine only); `0.0.0.0` or `::` for every interface. */
  readonly host?: string
  readonly port: number
  /** The largest request head Node reads (its own default is 16 KB). */
  readonly maxHeaderSize?: number
}

export type StartedServer = ReturnType<typeof serve>

export const DEFAULT_HOST = '127.0.0.1'

// A DNS name of letters, digits and hyphens (`localhost`, `api.internal`), for hosts that are not addresses.
const HOST_NAME =
  /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/

/** A problem with a `--host` value, or undefined when it is an address or a host name. */
export const hostProblem = (host: string): string | undefined =>
  isIP(host) !== 0 || HOST_NAME.test(host)
    ? undefined
    : `--host needs an address to listen on, such as 127.0.0.1, 0.0.0.0, ::1 or :: (was '${host}')`

/**
 * Listens with an app on a host and port and resolves once it accepts connections. A port in use, an
 * address this machine does not have, or a privileged port reject with an Error that says which and what
 * to do. Requests Node's parser refuses are answered in JSON (`answerClientErrors`).
 */
export const startServer = async (app: H3, options: ServerStartOptions): Promise<StartedServer> => {
  const host = options.host ?? DEFAULT_HOST
  const server = serve(app, {
    port: options.port,
    hostname: host,
    silent: true,
    ...(options.maxHeaderSize === undefined ? {} : { node: { maxHeaderSize: options.maxHeaderSize } }),
  })
  try {
    await server.ready()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const where = `${host.includes(':') ? `[${host}]` : host}:${options.port}`
    const reason =
      code === 'EADDRINUSE'
        ? `${where} is in use by another process (EADDRINUSE): stop it or choose another --port`
        : code === 'EADDRNOTAVAIL'
          ? `this machine has no address ${host} (EADDRNOTAVAIL): give one of its own addresses to --host, or 0.0.0.0 / :: for all`
          : code === 'EACCES'
            ? `listening on ${where} is not permitted (EACCES): ports below 1024 need privileges; choose another --port`
            : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
              ? `the host name ${host} does not resolve (${code}): give an address to --host`
              : `cannot listen on ${where}: ${error instanceof Error ? error.message : String(error)}`
    throw new Error(reason)
  }
  if (server.node?.server !== undefined) answerClientErrors(server.node.server)
  return server
}
