import type { IncomingMessage, ServerResponse } from 'node:http'

/** What a shutdown asks of a server's open responses before it closes their sockets. */
export interface OpenResponses {
  /** Responses not yet ended. */
  readonly count: number
  /**
   * Sends the status line and headers of every open response whose head is set but not yet written, and
   * resolves once they are handed to the sockets. A streamed body (an export) sends its head with its first
   * chunk: closed before that, its client would get no status line at all, where it should get the 200 and
   * a body cut short. Responses without a head yet are left to their handlers (`RequestLimits.shutdown`
   * answers those 503).
   */
  flushHeads(): Promise<void>
}

/** Node's own mark of a head written to the socket (`headersSent` is true as soon as one is set). */
interface HeadState {
  readonly _header?: string | null
  readonly _headerSent?: boolean
}

/** A server that emits its requests: Node's HTTP servers (what `startServer` gives as `node.server`). */
export interface RequestEmitter {
  on(event: 'request', listener: (request: IncomingMessage, response: ServerResponse) => void): unknown
}

/** Tracks the responses of a Node HTTP server from their request to their close. */
export const trackOpenResponses = (server: RequestEmitter): OpenResponses => {
  const open = new Set<ServerResponse>()
  server.on('request', (_request, response: ServerResponse) => {
    open.add(response)
    response.once('close', () => open.delete(response))
  })
  return {
    get count() {
      return open.size
    },
    flushHeads: async () => {
      for (const response of open) {
        const head = response as unknown as HeadState
        if (response.writableEnded || response.destroyed) continue
        if (typeof head._header === 'string' && head._headerSent !== true) response.flushHeaders()
      }
      // Written on the next turn of the loop: the sockets may be closed after that.
      await new Promise((turn) => setImmediate(turn))
    },
  }
}
