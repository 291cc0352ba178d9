import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import {
  createDuckDbAdapter,
  hasUnreadableVectors,
  ingestSnapshot,
  loadCatalogTagger,
  openEmbeddedCollectionStore,
  readCatalogManifest,
  StateDirectoryInUseError,
  vectorIndexOf,
} from '@oqlkit/adapter-duckdb'
import { connectRedis, createRedisCollectionStore, probeRedis } from '@oqlkit/adapter-redis'
import type { CollectionStore } from '@oqlkit/engine'
import { DEFAULT_MAX_PER_PAGE, type Embedder, MAX_PAGE_DEPTH } from '@oqlkit/engine'
import {
  type AccessLog,
  type CorsOptions,
  createApp,
  createCollectionsApp,
  DEFAULT_HOST,
  DEFAULT_QUERY_TIMEOUT_MS,
  hostProblem,
  keyStoreCallers,
  meteredCaller,
  openAccessLog,
  type ProxyTrust,
  RequestLimits,
  readCorsOrigins,
  readProxyTrust,
  type StartedServer,
  startServer,
} from '@oqlkit/http'
import { createOpenAiEmbedder } from '@oqlkit/text-models'
import { type CliCommand, usageError } from './cli-command.ts'
import { DEFAULT_CATALOG_DIR } from './ingest-command.ts'
import {
  defaultStateDirOf,
  describeLocation,
  openServerKeys,
  openServerMetering,
  readStoreLocation,
} from './metering-setup.ts'
import { createProgressBar } from './progress-bar.ts'

/** The bundled sample snapshot, committed in the repository: what `npm start` serves. */
export const SAMPLE_SNAPSHOT_DIR = resolve(import.meta.dirname, '../../../../data/sample-snapshot')

const DEFAULT_PORT = 8080

/** The largest request head (request line and headers) the server reads. */
const MAX_REQUEST_HEAD_BYTES = 64 * 1024

/** How long a shutdown lets requests in flight finish before it interrupts them. */
const SHUTDOWN_GRACE_MS = 5_000
/** How long it then waits for the interrupted requests to be answered. */
const SHUTDOWN_INTERRUPT_MS = 2_000

/**
 * The storage concurrency of a server: heavy plans (search, group-by, sample) that may run at once, one per
 * core; and DuckDB connections, enough for each heavy plan's two statements (its count and its page) with
 * two more for light requests. Each running statement holds a thread of Node's libuv pool (4 unless
 * UV_THREADPOOL_SIZE says; the `oqlkit` command sets 16), which file reads of the record store need too: two
 * are left for them.
 */
export const storageConcurrency = (
  cores: number,
  libuvThreads: number,
): { readonly heavySlots: number; readonly connections: number } => {
  const connections = Math.max(2, Math.min(2 * cores + 2, libuvThreads - 2))
  return { heavySlots: Math.max(1, Math.min(cores, Math.floor((connections - 1) / 2))), connections }
}

const optionValue = (args: readonly string[], name: string): string | undefined => {
  const index = args.indexOf(name)
  return index === -1 ? undefined : args[index + 1]
}

// ---- Self-hosting flags (issue 21): --host, --trust-proxy, --cors-origin, --no-compression, --access-log,
// --metering, --no-collections. Read here in this file's style; what they do lives in @oqlkit/http.

interface HostingFlags {
  readonly host: string
  readonly trustProxy: ProxyTrust | undefined
  readonly cors: CorsOptions | undefined
  readonly compression: boolean
  /** `-` stdout, `stderr`, a file, or undefined for off. */
  readonly accessLog: string | undefined
  /** On with --metering, or when --keys or --redis says others use this server; off with --no-metering. */
  readonly metered: boolean
  readonly collections: boolean
}

const optionValues = (args: readonly string[], name: string): (string | undefined)[] =>
  args.flatMap((arg, index) => (arg === name ? [args[index + 1]] : []))

const readHostingFlags = (args: readonly string[]): HostingFlags | string => {
  for (const name of ['--host', '--trust-proxy', '--cors-origin', '--access-log'])
    for (const value of optionValues(args, name))
      if (value === undefined || (value.startsWith('--') && value !== '-'))
        return `${name} needs a value (see the usage)`
  const host = optionValue(args, '--host') ?? DEFAULT_HOST
  const badHost = hostProblem(host)
  if (badHost !== undefined) return badHost
  const trustText = optionValue(args, '--trust-proxy')
  let trustProxy: ProxyTrust | undefined
  let cors: CorsOptions | undefined
  try {
    trustProxy = trustText === undefined ? undefined : readProxyTrust(trustText)
    const origins = readCorsOrigins(optionValues(args, '--cors-origin') as string[])
    cors = args.includes('--cors-origin')
      ? origins === undefined
        ? undefined
        : { origins }
      : { origins: '*' }
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
  if (args.includes('--metering') && args.includes('--no-metering'))
    return '--metering and --no-metering contradict each other: give one'
  const accessLog = optionValue(args, '--access-log') ?? '-'
  return {
    host,
    trustProxy,
    cors,
    compression: !args.includes('--no-compression'),
    accessLog: accessLog === 'off' ? undefined : accessLog,
    metered:
      !args.includes('--no-metering') &&
      (args.includes('--metering') || args.includes('--keys') || args.includes('--redis')),
    collections: !args.includes('--no-collections'),
  }
}

/** The collections' store: a folder (one process, locked) or Redis beside the metering state. */
const openCollections = async (
  folder: string | undefined,
  location: Exclude<ReturnType<typeof readStoreLocation>, string>,
): Promise<{ readonly store: CollectionStore; readonly where: string }> => {
  if (folder !== undefined || location.kind === 'embedded') {
    const dir = resolve(folder ?? join((location as { dir: string }).dir, 'collections'))
    return { store: await openEmbeddedCollectionStore({ dir }), where: dir }
  }
  const probe = await probeRedis(location.url)
  if (!probe.reachable) throw new Error(`Redis at ${location.url} did not answer: ${probe.reason}`)
  const client = await connectRedis(location.url)
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

export const serveCommand: CliCommand = {
  name: 'serve',
  usage: `oqlkit serve [--catalog DIR] [--host ADDR] [--port N] [--keys FILE.json] [--state DIR | --redis URL [--redis-prefix P]] [--metering | --no-metering] [--collections-dir DIR | --no-collections] [--collections-port N] [--cors-origin ORIGIN|*|off ...] [--trust-proxy HOPS|ADDR,CIDR,...] [--access-log FILE|-|stderr|off] [--no-compression] [--embeddings-url URL [--embeddings-model M]] [--max-per-page N] [--query-timeout SECONDS]   (defaults: ${DEFAULT_CATALOG_DIR}, ${DEFAULT_HOST}, $PORT or ${DEFAULT_PORT}, state beside the catalog with collections in it, metering only with --metering/--keys/--redis, CORS for every origin, access log to stdout, ${DEFAULT_MAX_PER_PAGE} per page, ${DEFAULT_QUERY_TIMEOUT_MS / 1000} s per request)`,
  summary: 'Serve a catalog over HTTP; with no catalog yet, build one from the bundled sample first.',
  async run(args, context) {
    const catalogDir = resolve(optionValue(args, '--catalog') ?? DEFAULT_CATALOG_DIR)
    const portText = optionValue(args, '--port') ?? process.env.PORT ?? String(DEFAULT_PORT)
    const port = Number(portText)
    if (!Number.isInteger(port) || port < 0 || port > 65_535)
      return usageError(this, `--port needs a port number (was ${portText})`)
    const hosting = readHostingFlags(args)
    if (typeof hosting === 'string') return usageError(this, hosting)
    const metered = hosting.metered
    const location = readStoreLocation(args, defaultStateDirOf(catalogDir))
    if (typeof location === 'string') return usageError(this, location)
    const keysFile = optionValue(args, '--keys')
    if (args.includes('--keys') && (keysFile === undefined || keysFile.startsWith('--')))
      return usageError(this, '--keys needs a JSON file of keys')
    const collectionsDir = optionValue(args, '--collections-dir')
    if (
      args.includes('--collections-dir') &&
      (collectionsDir === undefined || collectionsDir.startsWith('--'))
    )
      return usageError(this, '--collections-dir needs a folder for the collections')
    if (collectionsDir !== undefined && !hosting.collections)
      return usageError(this, '--collections-dir and --no-collections contradict each other: give one')
    const collectionsPortText = optionValue(args, '--collections-port')
    const collectionsPort = collectionsPortText === undefined ? undefined : Number(collectionsPortText)
    if (args.includes('--collections-port')) {
      if (collectionsPort === undefined || !Number.isInteger(collectionsPort) || collectionsPort < 0)
        return usageError(this, `--collections-port needs a port number (was ${collectionsPortText})`)
      if (collectionsPort > 65_535 || (collectionsPort === port && port !== 0))
        return usageError(
          this,
          `--collections-port needs a port other than --port (was ${collectionsPortText})`,
        )
      if (!hosting.collections)
        return usageError(this, '--collections-port serves the collections: drop --no-collections')
    }
    // The largest page of a list: 200 as the public server takes by default; 100 is the API description's.
    const maxPerPageText = optionValue(args, '--max-per-page')
    const maxPerPage = maxPerPageText === undefined ? undefined : Number(maxPerPageText)
    if (
      args.includes('--max-per-page') &&
      (maxPerPage === undefined ||
        !Number.isInteger(maxPerPage) ||
        maxPerPage < 1 ||
        maxPerPage > MAX_PAGE_DEPTH)
    )
      return usageError(
        this,
        `--max-per-page needs a whole number from 1 to ${MAX_PAGE_DEPTH} (was ${maxPerPageText})`,
      )

    const timeoutText = optionValue(args, '--query-timeout')
    const queryTimeoutSeconds =
      timeoutText === undefined ? DEFAULT_QUERY_TIMEOUT_MS / 1000 : Number(timeoutText)
    if (!Number.isFinite(queryTimeoutSeconds) || queryTimeoutSeconds <= 0 || queryTimeoutSeconds > 3600)
      return usageError(
        this,
        `--query-timeout needs a number of seconds from 0.001 to 3600 (was ${timeoutText})`,
      )
    const concurrency = storageConcurrency(
      availableParallelism(),
      Number(process.env.UV_THREADPOOL_SIZE) || 4,
    )
    const limits = new RequestLimits({
      queryTimeoutMs: queryTimeoutSeconds * 1000,
      heavySlots: concurrency.heavySlots,
    })

    if (!existsSync(join(catalogDir, 'catalog.json')) || (await isStaleSampleCatalog(catalogDir))) {
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
    const embeddingsUrl = optionValue(args, '--embeddings-url')
    const embeddingsModel = optionValue(args, '--embeddings-model') ?? vectors?.embedder.model
    if (args.includes('--embeddings-url') && (embeddingsUrl === undefined || embeddingsUrl.startsWith('--')))
      return usageError(this, '--embeddings-url needs the URL of an OpenAI-compatible embeddings server')
    let embedder: Embedder | undefined
    if (embeddingsUrl !== undefined) {
      if (embeddingsModel === undefined || embeddingsModel.startsWith('--'))
        return usageError(
          this,
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
        connections: concurrency.connections,
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
    const entities = Object.fromEntries(
      Object.entries(manifest.manifest.entities).map(([entity, table]) => [entity, table.rowCount]),
    )
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
      if (hosting.collections) {
        if (!metered) keysOnly = await openServerKeys(location, keysPath, new Date())
        ;({ store: collections, where: collectionsWhere } = await openCollections(collectionsDir, location))
      }
      if (hosting.accessLog !== undefined) accessLog = await openAccessLog(hosting.accessLog)
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
      ...(hosting.cors === undefined ? {} : { cors: hosting.cors }),
      compression: hosting.compression,
      ...(accessLog === undefined ? {} : { accessLog: accessLog.log }),
      ...(hosting.trustProxy === undefined ? {} : { trustProxy: hosting.trustProxy }),
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
      catalog: { createdAt: manifest.manifest.createdAt, entities },
      ...(metering === undefined ? {} : { metering: { keys: metering.keys, meter: metering.meter } }),
      ...(tagger === undefined ? {} : { tagger }),
      ...(maxPerPage === undefined ? {} : { maxPerPage }),
      limits,
      ...serving,
    })
    // Node refuses request heads over 16 KB with a bare 431; a larger limit lets the app answer long GET
    // lines itself, with a 414 that says to POST the query instead.
    // Requests Node's parser refuses get a JSON error too, not a bare 400 (`startServer` sees to it).
    let server: StartedServer
    let collectionsServer: StartedServer | undefined
    try {
      server = await startServer(app, { host: hosting.host, port, maxHeaderSize: MAX_REQUEST_HEAD_BYTES })
    } catch (error) {
      await closeStores()
      await adapter.close()
      return { exitCode: 1, stderr: `oqlkit serve: ${(error as Error).message}\n` }
    }
    if (vectors !== undefined && !adapter.capabilities.semanticSearch)
      context.writeProgress(
        `Semantic search is off: this catalog's vectors came from ${vectors.embedder.modelId} on an embeddings server; start with --embeddings-url URL to serve it.\n`,
      )
    context.writeProgress(
      `oqlkit serving ${catalogDir} at ${server.url ?? `http://${hosting.host}:${port}/`} (Ctrl-C to stop)\n`,
    )
    context.writeProgress(
      metering === undefined
        ? `Metering is off: no budgets or rate limits${args.includes('--no-metering') ? '' : ' (a local server; --metering, --keys or --redis turn them on)'}.\n`
        : `Keys, budgets and rate limits in ${describeLocation(location)}${metering.provisioned > 0 ? `, with ${metering.provisioned} key(s) from ${keysFile}` : ''}.\n`,
    )
    if (metering === undefined && !/^(?:127\.|::1$|localhost$)/.test(hosting.host))
      context.writeProgress(
        `Listening on ${hosting.host} without metering: whoever reaches this server calls it without a budget; add --metering (or --keys) to meter it.\n`,
      )
    if (tagger === undefined)
      context.writeProgress(
        'This catalog has no text-tagging model: /text answers 501 until it is re-ingested.\n',
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
          { host: hosting.host, port: collectionsPort },
        )
      } catch (error) {
        await server.close(true)
        await closeStores()
        await adapter.close()
        return { exitCode: 1, stderr: `oqlkit serve: collections port: ${(error as Error).message}\n` }
      }
    if (collections !== undefined)
      context.writeProgress(
        `Collections in ${collectionsWhere}, served beside the API${collectionsServer === undefined ? '' : ` and at ${collectionsServer.url ?? `http://${hosting.host}:${collectionsPort}/`}`}.\n`,
      )
    context.writeProgress(
      `${accessLog === undefined ? 'No access log' : `Access log (JSON lines) to ${hosting.accessLog === '-' ? 'stdout' : hosting.accessLog}`}; CORS ${hosting.cors === undefined ? 'off' : `for ${hosting.cors.origins === '*' ? 'every origin' : hosting.cors.origins.join(', ')}`}; compression ${hosting.compression ? 'on' : 'off'}${hosting.trustProxy === undefined ? '' : '; client addresses from X-Forwarded-For behind trusted proxies'}.\n`,
    )
    await new Promise<void>((done) => {
      process.once('SIGINT', done)
      process.once('SIGTERM', done)
    })
    // Stop taking connections, let requests in flight finish, then interrupt what is left: the process exits
    // within the grace period and the interrupt wait, however long a query would have run.
    const closing = server.close()
    await limits.shutdown(SHUTDOWN_GRACE_MS, SHUTDOWN_INTERRUPT_MS)
    await Promise.race([closing, server.close(true)])
    await collectionsServer?.close(true)
    await closeStores()
    await adapter.close()
    return { exitCode: 0, stdout: 'oqlkit: stopped\n' }
  },
}
