/**
 * Which web pages may call the API from a browser: `'*'` any (what the public API answers, and what a
 * browser app on another port of the same machine needs), or a list of exact origins
 * (`https://app.example.org`, `http://localhost:5173`).
 */
export interface CorsOptions {
  readonly origins: '*' | readonly string[]
  /** How long a browser may keep a preflight's answer, in seconds (default 86,400; Chrome keeps 7,200 at most). */
  readonly maxAgeSeconds?: number
}

/** Methods a cross-origin call may use: every method a route of the API answers. */
export const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'] as const

/** Request headers a cross-origin call may send beyond the safelisted ones: the key's two transports and JSON. */
export const CORS_REQUEST_HEADERS = ['Authorization', 'api_key', 'Content-Type'] as const

/** Response headers scripts may read beyond the safelisted ones: the budget, when to retry, why a key failed. */
export const CORS_EXPOSED_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Credits-Used',
  'X-RateLimit-Reset',
  'Retry-After',
  'WWW-Authenticate',
  'Content-Disposition',
] as const

/**
 * Reads `--cors-origin` values (each may be a comma-separated list): `*`, origins as a browser sends them
 * (scheme, host and port, no path), or `off` alone for no CORS. Undefined for off; throws an Error naming
 * the value at fault.
 */
export const readCorsOrigins = (values: readonly string[]): CorsOptions['origins'] | undefined => {
  const entries = values.flatMap((value) => value.split(',')).map((entry) => entry.trim())
  if (entries.length === 1 && entries[0] === 'off') return undefined
  if (entries.includes('*')) {
    if (entries.some((entry) => entry !== '*'))
      throw new Error('--cors-origin: * allows every origin already; give it alone, or list origins')
    return '*'
  }
  const origins: string[] = []
  for (const entry of entries) {
    let url: URL | undefined
    try {
      url = new URL(entry)
    } catch {}
    if (url === undefined || url.origin === 'null' || url.origin !== entry.replace(/\/$/, ''))
      throw new Error(
        `--cors-origin takes origins like https://app.example.org or http://localhost:5173 (scheme, host and port, no path), * or off (was '${entry}')`,
      )
    origins.push(url.origin)
  }
  return origins
}
