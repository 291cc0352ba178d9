// What an `oqlkit serve` command line asks for: every option declared once, read and checked into the
// settings the server starts with, each problem a usage problem naming its flag.
import { existsSync, statSync } from 'node:fs'
import { resolve } from 'node:path'
import { type ClickHouseTarget, readClickHouseTarget } from '@oqlkit/adapter-clickhouse/target'
import { MAX_PAGE_DEPTH } from '@oqlkit/engine'
import {
  type CorsOptions,
  DEFAULT_HOST,
  DEFAULT_QUERY_TIMEOUT_MS,
  hostProblem,
  type ProxyTrust,
  readCorsOrigins,
  readProxyTrust,
} from '@oqlkit/http'
import { integerOption, numberOption, type OptionValues, UsageProblem } from './command-line-parser.ts'
import { DEFAULT_CATALOG_DIR } from './ingest-command-line.ts'
import { defaultStateDirOf, readStoreLocation, type StoreLocation } from './metering-setup.ts'
import {
  DEFAULT_PORT,
  DEFAULT_REAL_SAMPLE_CATALOG_DIR,
  SAMPLES,
  type SampleName,
  type SERVE_COMMAND_LINE,
} from './serve-command-line.ts'

/** What a `serve` command line asks for, checked: every problem is a UsageProblem naming its flag. */
/** One catalog a server answers from, by the name `data_version=` picks it with. */
export interface ServedCatalogFolder {
  readonly name: string
  readonly dir: string
}

export interface ServeSettings {
  /** The default catalog's folder (the first of `catalogs`). */
  readonly catalogDir: string
  /** Every catalog folder served, the default first; one unless `--catalog NAME=DIR` was repeated. */
  readonly catalogs: readonly ServedCatalogFolder[]
  /** Serve the catalog loaded into this ClickHouse (`oqlkit load`) instead of a catalog folder. */
  readonly clickhouse: ClickHouseTarget | undefined
  /** False for the default folder, which the bundled sample may be built into. */
  readonly catalogGiven: boolean
  /** The bundled sample a catalog is built from when the folder has none yet. */
  readonly sample: SampleName
  readonly port: number
  readonly metered: boolean
  readonly location: StoreLocation
  readonly keysFile: string | undefined
  readonly collectionsDir: string | undefined
  readonly collectionsPort: number | undefined
  readonly embeddingsUrl: string | undefined
  readonly embeddingsModel: string | undefined
  readonly maxPerPage: number | undefined
  readonly queryTimeoutSeconds: number
  readonly host: string
  readonly trustProxy: ProxyTrust | undefined
  /** Undefined when CORS is off. */
  readonly cors: CorsOptions | undefined
  readonly compression: boolean
  /** `-` stdout, `stderr`, a file, or undefined for off. */
  readonly accessLog: string | undefined
  readonly collections: boolean
  /** --no-metering was given (rather than metering being off because nothing asked for it). */
  readonly meteringRefused: boolean
}

const PORT = 'a port number from 0 to 65535'

export const readServeSettings = (
  values: OptionValues<typeof SERVE_COMMAND_LINE.options>,
  env: Readonly<Record<string, string | undefined>>,
): ServeSettings => {
  const sample = SAMPLES.find((name) => name === (values.sample ?? 'small'))
  if (sample === undefined)
    throw new UsageProblem(
      `--sample ${values.sample}: no such sample. Give small (the default) or real (4,431 real works with abstracts)`,
    )
  const given = values.catalog ?? []
  const catalogs = readCatalogFolders(
    given,
    sample === 'real' ? DEFAULT_REAL_SAMPLE_CATALOG_DIR : DEFAULT_CATALOG_DIR,
  )
  const catalogDir = catalogs[0]!.dir
  const port =
    values.port === undefined
      ? (integerOption('$PORT', env.PORT, PORT, 0, 65_535) ?? DEFAULT_PORT)
      : integerOption('--port', values.port, PORT, 0, 65_535)!
  // The keys file is read at start and must exist; --state and --collections-dir are created when missing,
  // since a first start has neither yet.
  if (values.keys !== undefined && !existsSync(values.keys))
    throw new UsageProblem(`--keys ${values.keys}: no such file. Give a JSON file of keys`)
  const collectionsPort = integerOption('--collections-port', values['collections-port'], PORT, 0, 65_535)
  if (collectionsPort !== undefined) {
    if (collectionsPort === port && port !== 0)
      throw new UsageProblem(
        `--collections-port needs a port other than --port (was ${values['collections-port']})`,
      )
  }
  if (values['embeddings-model'] !== undefined && values['embeddings-url'] === undefined)
    throw new UsageProblem('--embeddings-model goes with --embeddings-url (the server that has the model)')
  if (values.metering === true && values['no-metering'] === true)
    throw new UsageProblem('--metering and --no-metering contradict each other: give one')
  const collections = values['no-collections'] !== true
  if (!collections && values['collections-dir'] !== undefined)
    throw new UsageProblem('--collections-dir and --no-collections contradict each other: give one')
  if (!collections && collectionsPort !== undefined)
    throw new UsageProblem('--collections-port serves the collections: drop --no-collections')
  const host = values.host ?? DEFAULT_HOST
  const badHost = hostProblem(host)
  if (badHost !== undefined) throw new UsageProblem(badHost)
  const accessLog = values['access-log'] ?? '-'
  let clickhouse: ClickHouseTarget | undefined
  if (values.clickhouse !== undefined) {
    if (given.length > 0)
      throw new UsageProblem(
        '--clickhouse serves the catalog loaded into ClickHouse (oqlkit load): drop --catalog, or drop --clickhouse to serve the folder',
      )
    if (values.sample !== undefined)
      throw new UsageProblem(
        '--sample builds a catalog folder from a bundled sample, and --clickhouse serves what oqlkit load put there: give one',
      )
    try {
      clickhouse = readClickHouseTarget(values.clickhouse)
    } catch (error) {
      throw new UsageProblem(`--clickhouse: ${(error as Error).message}`)
    }
  }
  return {
    catalogDir,
    catalogs,
    clickhouse,
    catalogGiven: given.length > 0,
    sample,
    port,
    // A server meters when asked to, or when keys or a shared Redis say others call it; a local explorer is
    // never locked out of their own server (README, "Hosting a server").
    metered:
      values['no-metering'] !== true &&
      (values.metering === true || values.keys !== undefined || values.redis !== undefined),
    meteringRefused: values['no-metering'] === true,
    host,
    trustProxy: asUsageProblem(() =>
      values['trust-proxy'] === undefined ? undefined : readProxyTrust(values['trust-proxy']),
    ),
    cors: asUsageProblem(() => {
      if (values['cors-origin'] === undefined) return { origins: '*' } as CorsOptions
      const origins = readCorsOrigins([...values['cors-origin']])
      return origins === undefined ? undefined : { origins }
    }),
    compression: values['no-compression'] !== true,
    accessLog: accessLog === 'off' ? undefined : accessLog,
    collections,
    location: readStoreLocation(values, defaultStateDirOf(catalogDir)),
    keysFile: values.keys,
    collectionsDir: values['collections-dir'],
    collectionsPort,
    embeddingsUrl: values['embeddings-url'],
    embeddingsModel: values['embeddings-model'],
    // The largest page of a list: 200 as the public server takes by default; 100 is the API description's.
    maxPerPage: integerOption(
      '--max-per-page',
      values['max-per-page'],
      `a whole number from 1 to ${MAX_PAGE_DEPTH}`,
      1,
      MAX_PAGE_DEPTH,
    ),
    queryTimeoutSeconds:
      numberOption(
        '--query-timeout',
        values['query-timeout'],
        'a number of seconds above 0, at most 3600',
        (seconds) => seconds > 0 && seconds <= 3600,
      ) ?? DEFAULT_QUERY_TIMEOUT_MS / 1000,
  }
}

/** The name a server gives the one catalog it serves. */
export const DEFAULT_CATALOG_NAME = 'default'

const CATALOG_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/**
 * The catalog folders of `--catalog`: none (the default folder), one `DIR` (named `default`), or `NAME=DIR`
 * each. A folder named must exist: a typo must not quietly serve the bundled sample instead (the default folder
 * is created: the sample is built there on a fresh clone).
 */
const readCatalogFolders = (given: readonly string[], defaultDir: string): ServedCatalogFolder[] => {
  if (given.length === 0) return [{ name: DEFAULT_CATALOG_NAME, dir: resolve(defaultDir) }]
  const named = given.map((value) => {
    const equals = value.indexOf('=')
    // A plain folder, unless what comes before `=` is a name (a folder may hold `=` in its path).
    const name = equals > 0 ? value.slice(0, equals) : undefined
    return name !== undefined && CATALOG_NAME.test(name)
      ? { name, dir: value.slice(equals + 1), written: value }
      : { name: undefined, dir: value, written: value }
  })
  if (named.length > 1 && named.some((folder) => folder.name === undefined))
    throw new UsageProblem(
      `--catalog given ${named.length} times needs NAME=DIR each (such as --catalog 2025-01=/data/c1 --catalog 2025-02=/data/c2), so that data_version=NAME can pick one`,
    )
  const seen = new Set<string>()
  return named.map(({ name, dir, written }) => {
    const folder = resolve(dir)
    if (!isDirectory(folder))
      throw new UsageProblem(
        `--catalog ${written}: ${existsSync(folder) ? 'is not a folder' : 'no such folder'}. Give a catalog folder (\`oqlkit ingest <snapshot> --out DIR\` builds one), or leave --catalog out to serve the bundled sample from ${DEFAULT_CATALOG_DIR}`,
      )
    const chosen = name ?? DEFAULT_CATALOG_NAME
    if (seen.has(chosen))
      throw new UsageProblem(`--catalog names ${chosen} twice: give each catalog its own name`)
    seen.add(chosen)
    return { name: chosen, dir: folder }
  })
}

/** A reader of @oqlkit/http that throws plain errors, its message made a usage problem. */
const asUsageProblem = <T>(read: () => T): T => {
  try {
    return read()
  } catch (error) {
    throw new UsageProblem(error instanceof Error ? error.message : String(error))
  }
}

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}
