import proxyaddr from 'proxy-addr'

/**
 * Which proxies to believe about the client's address: asked of each hop of a request, nearest first (the
 * socket's peer is hop 0, then the `X-Forwarded-For` entries from right to left). The client is the first
 * hop not trusted, so a client cannot push a fake entry past a proxy that appends what it saw.
 */
export type ProxyTrust = (address: string, hop: number) => boolean

/** The names `--trust-proxy` takes for ranges, as `proxy-addr` defines them. */
const RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const

/**
 * Reads a trust setting: a hop count (`1`: the peer is the one proxy in front, believe what it says, and
 * no more), or a comma-separated list of addresses, CIDR ranges and the names `loopback` (127.0.0.1/8,
 * ::1), `linklocal` and `uniquelocal` (private ranges): every proxy on the way whose address is listed is
 * believed. Addresses and ranges are checked by `proxy-addr`, the library Express uses for the same rule.
 * A bad value throws an Error that says what is wrong and what is taken.
 */
export const readProxyTrust = (text: string): ProxyTrust => {
  const value = text.trim()
  if (/^\d+$/.test(value)) {
    const hops = Number(value)
    if (hops < 1 || hops > 32) throw new Error(`--trust-proxy takes a hop count from 1 to 32 (was ${value})`)
    return (_address, hop) => hop < hops
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  if (entries.length === 0)
    throw new Error(
      `--trust-proxy needs a hop count or a list of proxy addresses, CIDR ranges or ${RANGE_NAMES.join('/')} (was '${text}')`,
    )
  try {
    const trusted = proxyaddr.compile(entries)
    return (address, hop) => trusted(address, hop)
  } catch (error) {
    throw new Error(
      `--trust-proxy: ${error instanceof Error ? error.message : String(error)}; give addresses (10.0.0.1, ::1), CIDR ranges (10.0.0.0/8) or ${RANGE_NAMES.join(', ')}, separated by commas, or a hop count`,
    )
  }
}
