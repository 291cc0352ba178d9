import { existsSync, readdirSync, statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import {
  type ClickHouseTarget,
  connectClickHouse,
  createClickHouseAdapter,
  readClickHouseCatalogModels,
  readClickHouseTarget,
  servedVersion,
} from '@oqlkit/adapter-clickhouse'
import { createDuckDbAdapter, writeJsonLinesAsParquet } from '@oqlkit/adapter-duckdb'
import {
  connectRedis,
  createRedisCollectionStore,
  migrateLegacyCollections,
  probeRedis,
} from '@oqlkit/adapter-redis'
import { hasUnreadableVectors, loadCatalogTagger, readCatalogManifest, vectorIndexOf } from '@oqlkit/catalog'
import type { CollectionStore, StorageAdapter } from '@oqlkit/engine'
import {
  DEFAULT_MAX_PER_PAGE,
  type Embedder,
  embeddersMatch,
  MAX_PAGE_DEPTH,
  settlesWithin,
  writeEmbedderMismatchMessage,
} from '@oqlkit/engine'
import { openFileCollectionStore, StateDirectoryInUseError } from '@oqlkit/file-stores'
import {
  type AccessLog,
  type CorsOptions,
  createApp,
  createCollectionsApp,
  DEFAULT_EXPORT_SLOTS,
  DEFAULT_HOST,
  DEFAULT_QUERY_TIMEOUT_MS,
  hostProblem,
  keyStoreCallers,
  meteredCaller,
  type OpenResponses,
  openAccessLog,
  type ProxyTrust,
  RequestLimits,
  readCorsOrigins,
  readProxyTrust,
  type StartedServer,
  startServer,
  trackOpenResponses,
} from '@oqlkit/http'
import { ingestSnapshot } from '@oqlkit/ingest'
import { createOpenAiEmbedder } from '@oqlkit/text-models'
import { type CliCommand, type CommandContext, type CommandResult, usageError } from './cli-command.ts'
import {
  integerOption,
  numberOption,
  type OptionValues,
  parseCommandLine,
  UsageProblem,
} from './command-line-parser.ts'
import { DEFAULT_CATALOG_DIR } from './ingest-command.ts'
import {
  defaultStateDirOf,
  describeLocation,
  openServerKeys,
  openServerMetering,
  readStoreLocation,
  STORE_OPTIONS,
  type StoreLocation,
} from './metering-setup.ts'
import { createProgressBar } from './progress-bar.ts'
import { guardUnhandledRejections } from './unhandled-rejection-guard.ts'

/** The bundled sample snapshot, committed in the repository: what `npm start` serves. */
export const SAMPLE_SNAPSHOT_DIR = resolve(import.meta.dirname, '../../../../data/sample-snapshot')

const DEFAULT_PORT = 8080

/** The largest request head (request line and headers) the server reads. */
const MAX_REQUEST_HEAD_BYTES = 64 * 1024

/**
 * A shutdown (SIGTERM, SIGINT), from the signal: requests in flight may finish for `SHUTDOWN_GRACE_MS`; then
 * their storage work is interrupted, and those not answered within `SHUTDOWN_INTERRUPT_MS` more are answered
 * 503 without it; those answers, and the heads of exports whose first rows are not out yet, get
 * `SHUTDOWN_FLUSH_MS` to be written before the sockets close (an export still streaming is cut off); then the
 * stores and the catalog close (DuckDB waits up to a second for the statements it interrupts). Whatever still
 * runs at `SHUTDOWN_EXIT_MS` (a native statement that ignores its interrupt keeps the process alive) goes with
 * the process, which exits 0: the shutdown asked for is done. In all, under 10 s.
 */
const SHUTDOWN_GRACE_MS = 3_000
const SHUTDOWN_INTERRUPT_MS = 1_500
const SHUTDOWN_FLUSH_MS = 500
const SHUTDOWN_EXIT_MS = 7_500

/**
 * The storage concurrency of a server: heavy plans (search, group-by, sample) that may run at once, one per
 * core; exports, which have slots of their own (`DEFAULT_EXPORT_SLOTS`); and DuckDB connections, enough for
 * each heavy plan's two statements (its count and its page), one for each export's batch, and two more for
 * light requests. Each running statement holds a thread of Node's libuv pool (4 unless UV_THREADPOOL_SIZE
 * says; the `oqlkit` command sets 16), which file reads of the record store need too: two are left for them.
 */
export const storageConcurrency = (
  cores: number,
  libuvThreads: number,
): { readonly heavySlots: number; readonly exportSlots: number; readonly connections: number } => {
  const exportSlots = DEFAULT_EXPORT_SLOTS
  const connections = Math.max(2, Math.min(2 * cores + 2 + exportSlots, libuvThreads - 2))
  const heavySlots = Math.max(1, Math.min(cores, Math.floor((connections - exportSlots - 1) / 2)))
  return { heavySlots, exportSlots, connections }
}

/** The collections' store: a folder (one process, locked) or Redis beside the metering state. */
const openCollections = async (
  folder: string | undefined,
  location: StoreLocation,
): Promise<{ readonly store: CollectionStore; readonly where: string }> => {
  if (folder !== undefined || location.kind === 'embedded') {
    const dir = resolve(folder ?? join((location as { dir: string }).dir, 'collections'))
    return { store: await openFileCollectionStore({ dir }), where: dir }
  }
  const probe = await probeRedis(location.url)
  if (!probe.reachable) throw new Error(`Redis at ${location.url} did not answer: ${probe.reason}`)
  const client = await connectRedis(location.url)
  // Collections an 0.1 server stored in one slot move to their users' slots once; later starts find none.
  await migrateLegacyCollections(client, location.prefix)
  const store = createRedisCollectionStore({ client, prefix: location.prefix })
  return {
    store: {
      ...store,
      close: async () => {
        await store.close()
        await client.quit().catch(() => client.disconnect())
      },
    },
    where: describeLocation(location),
  }
}

/** A catalog served: its adapter, its text tagger, what the API says of it, and how the start message names it. */
interface OpenedCatalog {
  readonly adapter: StorageAdapter
  readonly tagger: Awaited<ReturnType<typeof loadCatalogTagger>>
  readonly catalogInfo: { readonly createdAt: string; readonly entities: Readonly<Record<string, number>> }
  readonly vectors: ReturnType<typeof vectorIndexOf>
  readonly serving: string
}

/** The catalog folder (the bundled sample built into it on a first start), on DuckDB. */
const openCatalogFolder = async (
  command: CliCommand,
  settings: ServeSettings,
  connections: number,
  context: CommandContext,
): Promise<OpenedCatalog | CommandResult> => {
  const { catalogDir, embeddingsUrl } = settings
  const hasCatalog = existsSync(join(catalogDir, 'catalog.json'))
  // A folder given with --catalog that holds other things is not the place to build the sample in.
  if (!hasCatalog && settings.catalogGiven && readdirSync(catalogDir).length > 0)
    return usageError(
      command,
      `--catalog ${catalogDir} holds no catalog (no catalog.json). Build one with \`oqlkit ingest <snapshot> --out ${catalogDir}\`, or give an empty folder to serve the bundled sample`,
    )
  if (!hasCatalog || (await isStaleSampleCatalog(catalogDir))) {
    // First start on a fresh clone: the catalog is built from the committed snapshot, once.
    context.writeProgress(
      `No catalog this oqlkit can read in ${catalogDir}: building it from the bundled sample (${SAMPLE_SNAPSHOT_DIR}).\n`,
    )
    const bar = createProgressBar(context.writeProgress, { interactive: context.interactive })
    try {
      await ingestSnapshot({
        snapshotDir: SAMPLE_SNAPSHOT_DIR,
        outDir: catalogDir,
        mode: 'replace',
        onProgress: (event) =>
          bar.update(
            event.phase === 'build' ? event.stepsDone : event.bytesDone,
            event.phase === 'build' ? event.stepsTotal : event.bytesTotal,
            event.phase,
          ),
      })
    } catch (error) {
      bar.finish()
      return {
        exitCode: 1,
        stderr: `oqlkit serve: could not build the sample catalog: ${error instanceof Error ? error.message : String(error)}\n`,
      }
    }
    bar.finish()
  }

  const manifest = await readCatalogManifest(catalogDir)
  if (!manifest.ok) return { exitCode: 1, stderr: `oqlkit serve: ${manifest.message}\n` }
  // Semantic search embeds queries with the catalog's own model, or with the embeddings server its vectors
  // came from; the model defaults to the one the catalog records.
  const vectors = vectorIndexOf(manifest.manifest)
  const embeddingsModel = settings.embeddingsModel ?? vectors?.embedder.model
  let embedder: Embedder | undefined
  if (embeddingsUrl !== undefined) {
    if (embeddingsModel === undefined)
      return usageError(
        command,
        '--embeddings-url needs --embeddings-model (this catalog records no served model)',
      )
    try {
      embedder = await createOpenAiEmbedder({ url: embeddingsUrl, model: embeddingsModel })
    } catch (error) {
      return {
        exitCode: 1,
        stderr: `oqlkit serve: ${error instanceof Error ? error.message : String(error)}\n`,
      }
    }
  }
  let adapter: Awaited<ReturnType<typeof createDuckDbAdapter>>
  try {
    adapter = await createDuckDbAdapter({
      catalogDir,
      connections,
      ...(embedder === undefined ? {} : { embedder }),
    })
  } catch (error) {
    return {
      exitCode: 1,
      stderr: `oqlkit serve: ${error instanceof Error ? error.message : String(error)}\n`,
    }
  }
  // The text-tagging model trained at ingest; a catalog without one serves everything but /text.
  let tagger: Awaited<ReturnType<typeof loadCatalogTagger>>
  try {
    tagger = await loadCatalogTagger(catalogDir)
  } catch (error) {
    await adapter.close()
    return {
      exitCode: 1,
      stderr: `oqlkit serve: the catalog's text-tagging model cannot be read (${error instanceof Error ? error.message : String(error)}); re-ingest the catalog.\n`,
    }
  }
  return {
    adapter,
    tagger,
    catalogInfo: {
      createdAt: manifest.manifest.createdAt,
      entities: Object.fromEntries(
        Object.entries(manifest.manifest.entities).map(([entity, table]) => [entity, table.rowCount]),
      ),
    },
    vectors,
    serving: catalogDir,
  }
}

/**
 * The catalog a ClickHouse serves (`oqlkit load`): its served version must exist; the API's entity counts are
 * that version's. Its text tagger and the model that embeds semantic queries are read from the version's
 * files, as a server of the catalog folder reads them from the folder (or queries are embedded by the
 * embeddings server given, for vectors made by one).
 */
const openClickHouseCatalog = async (
  command: CliCommand,
  target: ClickHouseTarget,
  settings: ServeSettings,
): Promise<OpenedCatalog | CommandResult> => {
  const client = connectClickHouse(target)
  try {
    const version = await servedVersion(client, target.catalog)
    if (version === undefined) {
      await client.close()
      return {
        exitCode: 1,
        stderr: `oqlkit serve: ${target.endpoint} holds no loaded version of the catalog ${target.catalog}: load one with oqlkit load --into ${target.endpoint}/${target.catalog}\n`,
      }
    }
    let models: Awaited<ReturnType<typeof readClickHouseCatalogModels>>
    try {
      models = await readClickHouseCatalogModels(client, version.database)
    } catch (error) {
      await client.close()
      return {
        exitCode: 1,
        stderr: `oqlkit serve: the models of ${version.database} cannot be read (${error instanceof Error ? error.message : String(error)}); load the catalog again.\n`,
      }
    }
    const { vectors } = models
    let embedder: Embedder | undefined = models.embedder
    if (settings.embeddingsUrl !== undefined) {
      const model = settings.embeddingsModel ?? vectors?.embedder.model
      if (model === undefined) {
        await client.close()
        return usageError(
          command,
          '--embeddings-url needs --embeddings-model (this catalog records no served model)',
        )
      }
      try {
        embedder = await createOpenAiEmbedder({ url: settings.embeddingsUrl, model })
      } catch (error) {
        await client.close()
        return {
          exitCode: 1,
          stderr: `oqlkit serve: ${error instanceof Error ? error.message : String(error)}\n`,
        }
      }
    }
    // Refused at start, as a DuckDB server refuses the folder: queries embedded by another model than the
    // vectors' would be ranked by nonsense.
    if (vectors !== undefined && embedder !== undefined && !embeddersMatch(vectors.embedder, embedder)) {
      await client.close()
      return {
        exitCode: 1,
        stderr: `oqlkit serve: ${writeEmbedderMismatchMessage(vectors.embedder, embedder)}\n`,
      }
    }
    const adapter = createClickHouseAdapter({
      client,
      catalog: target.catalog,
      maxExecutionSeconds: settings.queryTimeoutSeconds,
      ...(settings.embeddingsUrl === undefined || embedder === undefined ? {} : { embedder }),
    })
    return {
      adapter: {
        ...adapter,
        capabilities: {
          ...adapter.capabilities,
          semanticSearch: vectors !== undefined && embedder !== undefined,
        },
        close: async () => client.close(),
      },
      tagger: models.tagger,
      catalogInfo: { createdAt: version.catalogCreatedAt, entities: version.entityRows },
      vectors,
      serving: `the catalog ${target.catalog} in ClickHouse at ${target.endpoint} (${version.database})`,
    }
  } catch (error) {
    await client.close()
    return {
      exitCode: 1,
      stderr: `oqlkit serve: ClickHouse at ${target.endpoint} did not answer: ${error instanceof Error ? error.message : String(error)}\n`,
    }
  }
}

/** A second server on the same state: which process holds it, and the ways out. */
const stateInUseMessage = (error: StateDirectoryInUseError): string =>
  `another server (process ${error.pid}) is using this state (${error.lockFile}): an embedded store serves one process. Stop that server, give this one its own --state or --collections-dir (or --no-collections), share the state through --redis, or delete ${error.lockFile} if no such server runs.`

/**
 * A catalog built from the bundled sample by an older oqlkit (another catalog format, or vectors of an older
 * format): rebuilt on start, since it holds nothing but the sample. Any other catalog of another format is
 * the user's to re-ingest.
 */
const isStaleSampleCatalog = async (catalogDir: string): Promise<boolean> => {
  const manifest = await readCatalogManifest(catalogDir)
  // Vectors of an older format are not read (semantic search would answer 501): a sample rebuilt has them.
  if (manifest.ok && !hasUnreadableVectors(manifest.manifest)) return false
  try {
    const stated = JSON.parse(await readFile(join(catalogDir, 'catalog.json'), 'utf8')) as {
      ingests?: { snapshotDir?: unknown }[]
    }
    const sources = (stated.ingests ?? []).map((ingest) => ingest.snapshotDir)
    return sources.length > 0 && sources.every((source) => source === SAMPLE_SNAPSHOT_DIR)
  } catch {
    return false
  }
}

/**
 * Every option of `oqlkit serve`, declared once: the parser, the messages and `readServeSettings` read
 * this table. A new option is one line here and one reading below.
 */
export const SERVE_OPTIONS = {
  catalog: { type: 'string', value: 'a catalog folder' },
  port: { type: 'string', value: 'a port number' },
  keys: { type: 'string', value: 'a JSON file of keys' },
  ...STORE_OPTIONS,
  metering: { type: 'boolean' },
  'no-metering': { type: 'boolean' },
  'collections-dir': { type: 'string', value: 'a folder for the collections' },
  'no-collections': { type: 'boolean' },
  'collections-port': { type: 'string', value: 'a port number' },
  'embeddings-url': { type: 'string', value: 'the URL of an OpenAI-compatible embeddings server' },
  'embeddings-model': { type: 'string', value: 'the name of the server’s model' },
  'max-per-page': { type: 'string', value: `a whole number from 1 to ${MAX_PAGE_DEPTH}` },
  'query-timeout': { type: 'string', value: 'a number of seconds from 0.001 to 3600' },
  host: { type: 'string', value: 'an address to listen on (127.0.0.1, 0.0.0.0, ::)' },
  'trust-proxy': { type: 'string', value: 'a hop count or a list of proxy addresses and CIDR ranges' },
  'cors-origin': { type: 'string', value: 'an origin such as https://app.example, * or off', multiple: true },
  'access-log': { type: 'string', value: 'a file, - (stdout), stderr or off' },
  'no-compression': { type: 'boolean' },
  clickhouse: { type: 'string', value: 'a ClickHouse URL such as http://localhost:8123/oqlkit' },
} as const

/** What a `serve` command line asks for, checked: every problem is a UsageProblem naming its flag. */
export interface ServeSettings {
  readonly catalogDir: string
  /** Serve the catalog loaded into this ClickHouse (`oqlkit load`) instead of a catalog folder. */
  readonly clickhouse: ClickHouseTarget | undefined
  /** False for the default folder, which the bundled sample may be built into. */
  readonly catalogGiven: boolean
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
  values: OptionValues<typeof SERVE_OPTIONS>,
  env: Readonly<Record<string, string | undefined>>,
): ServeSettings => {
  const catalogDir = resolve(values.catalog ?? DEFAULT_CATALOG_DIR)
  // A folder named with --catalog must exist: a typo must not quietly serve the bundled sample instead.
  // The default folder is created (the sample is built there on a fresh clone).
  if (values.catalog !== undefined && !isDirectory(catalogDir))
    throw new UsageProblem(
      `--catalog ${values.catalog}: ${existsSync(catalogDir) ? 'is not a folder' : 'no such folder'}. Give a catalog folder (\`oqlkit ingest <snapshot> --out DIR\` builds one), or leave --catalog out to serve the bundled sample from ${DEFAULT_CATALOG_DIR}`,
    )
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
    if (values.catalog !== undefined)
      throw new UsageProblem(
        '--clickhouse serves the catalog loaded into ClickHouse (oqlkit load): drop --catalog, or drop --clickhouse to serve the folder',
      )
    try {
      clickhouse = readClickHouseTarget(values.clickhouse)
    } catch (error) {
      throw new UsageProblem(`--clickhouse: ${(error as Error).message}`)
    }
  }
  return {
    catalogDir,
    clickhouse,
    catalogGiven: values.catalog !== undefined,
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
        'a number of seconds from 0.001 to 3600',
        (seconds) => seconds > 0 && seconds <= 3600,
      ) ?? DEFAULT_QUERY_TIMEOUT_MS / 1000,
  }
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

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: `oqlkit serve [--catalog DIR | --clickhouse URL] [--host ADDR] [--port N] [--keys FILE.json] [--state DIR | --redis URL [--redis-prefix P]] [--metering | --no-metering] [--collections-dir DIR | --no-collections] [--collections-port N] [--cors-origin ORIGIN|*|off ...] [--trust-proxy HOPS|ADDR,CIDR,...] [--access-log FILE|-|stderr|off] [--no-compression] [--embeddings-url URL [--embeddings-model M]] [--max-per-page N] [--query-timeout SECONDS]   (defaults: ${DEFAULT_CATALOG_DIR}, ${DEFAULT_HOST}, $PORT or ${DEFAULT_PORT}, state beside the catalog with collections in it, metering only with --metering/--keys/--redis, CORS for every origin, access log to stdout, ${DEFAULT_MAX_PER_PAGE} per page, ${DEFAULT_QUERY_TIMEOUT_MS / 1000} s per request)`,
  async run(args, context) {
    let settings: ServeSettings
    try {
      settings = readServeSettings(parseCommandLine(args, SERVE_OPTIONS).values, process.env)
    } catch (error) {
      if (error instanceof UsageProblem) return usageError(this, error.message)
      throw error
    }
    const {
      port,
      metered,
      location,
      keysFile,
      collectionsDir,
      collectionsPort,
      maxPerPage,
      queryTimeoutSeconds,
    } = settings
    const concurrency = storageConcurrency(
      availableParallelism(),
      Number(process.env.UV_THREADPOOL_SIZE) || 4,
    )
    const limits = new RequestLimits({
      queryTimeoutMs: queryTimeoutSeconds * 1000,
      heavySlots: concurrency.heavySlots,
      exportSlots: concurrency.exportSlots,
    })

    const opened =
      settings.clickhouse === undefined
        ? await openCatalogFolder(this, settings, concurrency.connections, context)
        : await openClickHouseCatalog(this, settings.clickhouse, settings)
    if ('exitCode' in opened) return opened
    const { adapter, tagger, catalogInfo, vectors, serving: servingWhat } = opened
    let metering: Awaited<ReturnType<typeof openServerMetering>> | undefined
    // Without metering, collections still need to know who calls: the key store alone.
    let keysOnly: Awaited<ReturnType<typeof openServerKeys>> | undefined
    let collections: CollectionStore | undefined
    let collectionsWhere = ''
    let accessLog: { readonly log: AccessLog; readonly close: () => void } | undefined
    const closeStores = async () => {
      accessLog?.close()
      await collections?.close()
      await keysOnly?.close()
      await metering?.close()
    }
    try {
      const keysPath = keysFile === undefined ? undefined : resolve(keysFile)
      if (metered) metering = await openServerMetering(location, keysPath, new Date())
      if (settings.collections) {
        if (!metered) keysOnly = await openServerKeys(location, keysPath, new Date())
        ;({ store: collections, where: collectionsWhere } = await openCollections(collectionsDir, location))
      }
      if (settings.accessLog !== undefined) accessLog = await openAccessLog(settings.accessLog)
    } catch (error) {
      await closeStores()
      await adapter.close()
      return {
        exitCode: 1,
        stderr: `oqlkit serve: ${error instanceof StateDirectoryInUseError ? stateInUseMessage(error) : error instanceof Error ? error.message : String(error)}\n`,
      }
    }
    // CORS, compression, the access log and the proxies believed: the same on both ports.
    const serving = {
      ...(settings.cors === undefined ? {} : { cors: settings.cors }),
      compression: settings.compression,
      ...(accessLog === undefined ? {} : { accessLog: accessLog.log }),
      ...(settings.trustProxy === undefined ? {} : { trustProxy: settings.trustProxy }),
    }
    const keyStore = metering?.keys ?? keysOnly?.keys
    // On the main port, metering has identified the caller already; elsewhere the key store answers.
    const mainCallers =
      metering === undefined && keyStore !== undefined ? keyStoreCallers(keyStore) : meteredCaller
    // Collection filters need the store on the main API; the management API is served there too (its
    // paths do not collide) and, when asked, on a port of its own.
    const app = createApp({
      ...(collections === undefined ? {} : { collections: { store: collections, callers: mainCallers } }),
      adapter,
      catalog: catalogInfo,
      ...(metering === undefined ? {} : { metering: { keys: metering.keys, meter: metering.meter } }),
      ...(tagger === undefined ? {} : { tagger }),
      ...(maxPerPage === undefined ? {} : { maxPerPage }),
      limits,
      ...serving,
      writeParquet: writeJsonLinesAsParquet,
    })
    // Node refuses request heads over 16 KB with a bare 431; a larger limit lets the app answer long GET
    // lines itself, with a 414 that says to POST the query instead.
    // Requests Node's parser refuses get a JSON error too, not a bare 400 (`startServer` sees to it).
    let server: StartedServer
    let collectionsServer: StartedServer | undefined
    const unguard = guardUnhandledRejections(context.writeProgress)
    // The responses of each server, whose heads a shutdown sends before it closes the sockets.
    const heads: OpenResponses[] = []
    try {
      server = await startServer(app, { host: settings.host, port, maxHeaderSize: MAX_REQUEST_HEAD_BYTES })
      if (server.node?.server !== undefined) heads.push(trackOpenResponses(server.node.server))
    } catch (error) {
      unguard()
      await closeStores()
      await adapter.close()
      return { exitCode: 1, stderr: `oqlkit serve: ${(error as Error).message}\n` }
    }
    if (vectors !== undefined && !adapter.capabilities.semanticSearch)
      context.writeProgress(
        `Semantic search is off: this catalog's vectors came from ${vectors.embedder.modelId} on an embeddings server; start with --embeddings-url URL to serve it.\n`,
      )
    context.writeProgress(
      `oqlkit serving ${servingWhat} at ${server.url ?? `http://${settings.host}:${port}/`} (Ctrl-C to stop)\n`,
    )
    context.writeProgress(
      metering === undefined
        ? `Metering is off: no budgets or rate limits${settings.meteringRefused ? '' : ' (a local server; --metering, --keys or --redis turn them on)'}.\n`
        : `Keys, budgets and rate limits in ${describeLocation(location)}${metering.provisioned > 0 ? `, with ${metering.provisioned} key(s) from ${keysFile}` : ''}.\n`,
    )
    if (metering === undefined && !/^(?:127\.|::1$|localhost$)/.test(settings.host))
      context.writeProgress(
        `Listening on ${settings.host} without metering: whoever reaches this server calls it without a budget; add --metering (or --keys) to meter it.\n`,
      )
    if (tagger === undefined)
      context.writeProgress(
        settings.clickhouse === undefined
          ? 'This catalog has no text-tagging model: /text answers 501 until it is re-ingested.\n'
          : 'This loaded catalog has no text-tagging model: /text answers 501 until a catalog with one is loaded (oqlkit load).\n',
      )
    // The collections API on a port of its own, when asked: same store; metered like the main port (same
    // request rate, X-RateLimit headers), or without metering with callers from the key store.
    if (collections !== undefined && collectionsPort !== undefined)
      try {
        collectionsServer = await startServer(
          createCollectionsApp(
            metering === undefined
              ? { store: collections, callers: keyStoreCallers(keyStore!), ...serving }
              : {
                  store: collections,
                  callers: meteredCaller,
                  metering: { keys: metering.keys, meter: metering.meter },
                  ...serving,
                },
          ),
          { host: settings.host, port: collectionsPort },
        )
        if (collectionsServer.node?.server !== undefined)
          heads.push(trackOpenResponses(collectionsServer.node.server))
      } catch (error) {
        await server.close(true)
        unguard()
        await closeStores()
        await adapter.close()
        return { exitCode: 1, stderr: `oqlkit serve: collections port: ${(error as Error).message}\n` }
      }
    if (collections !== undefined)
      context.writeProgress(
        `Collections in ${collectionsWhere}, served beside the API${collectionsServer === undefined ? '' : ` and at ${collectionsServer.url ?? `http://${settings.host}:${collectionsPort}/`}`}.\n`,
      )
    context.writeProgress(
      `${accessLog === undefined ? 'No access log' : `Access log (JSON lines) to ${settings.accessLog === '-' ? 'stdout' : settings.accessLog}`}; CORS ${settings.cors === undefined ? 'off' : `for ${settings.cors.origins === '*' ? 'every origin' : settings.cors.origins.join(', ')}`}; compression ${settings.compression ? 'on' : 'off'}${settings.trustProxy === undefined ? '' : '; client addresses from X-Forwarded-For behind trusted proxies'}.\n`,
    )
    await new Promise<void>((done) => {
      process.once('SIGINT', done)
      process.once('SIGTERM', done)
    })
    // The hard bound: the process is gone SHUTDOWN_EXIT_MS after the signal, with the exit code the command
    // returned (0), or 0 if it has not returned yet. Unreferenced: a process with nothing left exits before.
    setTimeout(() => process.exit(), SHUTDOWN_EXIT_MS).unref()
    // Stop taking connections, let requests in flight finish, interrupt what is left, answer what the
    // interrupt did not end: every request taken has its status line before the sockets close.
    const closing = Promise.all([server.close(), collectionsServer?.close()])
    await limits.shutdown(SHUTDOWN_GRACE_MS, SHUTDOWN_INTERRUPT_MS)
    await Promise.all(heads.map((open) => open.flushHeads()))
    await settlesWithin(closing, SHUTDOWN_FLUSH_MS)
    await Promise.all([server.close(true), collectionsServer?.close(true)])
    // Independent of each other: closed side by side.
    await Promise.all([closeStores(), adapter.close()])
    unguard()
    return { exitCode: 0, stdout: 'oqlkit: stopped\n' }
  },
}
