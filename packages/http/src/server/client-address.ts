import proxyaddr from 'proxy-addr'
import type { ProxyTrust } from './proxy-trust.ts'

// IPv4, IPv6 (with an optional zone) and IPv4-mapped forms; anything else is not an address to key budgets by.
const ADDRESS = /^[0-9A-Fa-f:.]{2,45}(?:%[A-Za-z0-9_.-]{1,20})?$/

/** Trusts every hop: the left-most `X-Forwarded-For` entry wins (an in-process app with a test's header). */
const TRUST_ALL: ProxyTrust = () => true

/**
 * The client's address of a request: the socket's peer (srvx's `request.ip`), or, when a trust setting
 * says its peer is a proxy to believe, the right-most `X-Forwarded-For` entry that is not a trusted proxy.
 * An untrusted peer's `X-Forwarded-For` is ignored whole. `true` trusts every hop (the left-most entry;
 * only where something in front overwrites the header). `'unknown'` when no address is known (a request
 * served in process without one) or what was found is not an address.
 */
export const clientAddressOf = (request: Request, trust?: ProxyTrust | boolean): string => {
  const peer = (request as Request & { ip?: string }).ip
  let address: string | undefined = peer
  if (trust !== undefined && trust !== false) {
    const forwardedFor = request.headers.get('x-forwarded-for') ?? ''
    // proxy-addr reads a Node request: the peer's address and the header are all it looks at.
    const nodeLike = { headers: { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: peer } }
    address = proxyaddr(nodeLike as never, trust === true ? TRUST_ALL : trust)
  }
  const trimmed = address?.trim()
  return trimmed !== undefined && ADDRESS.test(trimmed) ? trimmed : 'unknown'
}
