// Where a catalog lives in ClickHouse, read from a URL. Apart from the driver (clickhouse-connection.ts), so
// that reading a command line's URL loads none of it: `oqlkit serve` checks --clickhouse before it knows
// whether it serves ClickHouse at all (`@oqlkit/adapter-clickhouse/target`).
import { isPlainName } from './clickhouse-identifiers.ts'

/** The catalog name a URL without a path stands for. */
export const DEFAULT_CATALOG_NAME = 'oqlkit'

export interface ClickHouseTarget {
  /** The server's HTTP interface, without credentials or path: what logs and messages show. */
  readonly endpoint: string
  /** The catalog's name: its versions are databases `<name>__v…`, its pointer is in database `<name>`. */
  readonly catalog: string
  readonly username?: string
  readonly password?: string
}

/**
 * Reads where a catalog lives in ClickHouse: `http(s)://[user[:password]@]host:port/<catalog>`, or the same
 * with `clickhouse://` (plain HTTP) and `clickhouses://` (HTTPS). Throws a message that says what to give.
 */
export const readClickHouseTarget = (text: string): ClickHouseTarget => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(
      `${JSON.stringify(text)} is not a URL: give the HTTP interface of a ClickHouse server and a catalog name, such as http://localhost:8123/oqlkit`,
    )
  }
  const schemes: Readonly<Record<string, string>> = {
    'http:': 'http:',
    'https:': 'https:',
    'clickhouse:': 'http:',
    'clickhouses:': 'https:',
  }
  const scheme = schemes[url.protocol]
  if (scheme === undefined)
    throw new Error(
      `${url.protocol} is not a ClickHouse URL scheme: use http://, https://, clickhouse:// or clickhouses://`,
    )
  const path = decodeURIComponent(url.pathname.replace(/^\/+|\/+$/g, ''))
  const catalog = path === '' ? DEFAULT_CATALOG_NAME : path
  if (!isPlainName(catalog) || catalog.includes('__'))
    throw new Error(
      `${JSON.stringify(catalog)} cannot name a catalog: use letters, digits and single underscores (it names ClickHouse databases)`,
    )
  const port = url.port === '' ? (scheme === 'https:' ? '8443' : '8123') : url.port
  return {
    endpoint: `${scheme}//${url.hostname}:${port}`,
    catalog,
    ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
  }
}
