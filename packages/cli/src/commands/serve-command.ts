// `oqlkit serve`: the HTTP API over a catalog (its settings read by serve-settings-reader.ts, the catalog
// opened by served-catalog-opener.ts), with its key, metering and collection stores, until a signal shuts it
// down in under 10 s.
import { availableParallelism } from 'node:os'
import { join, resolve } from 'node:path'
import { writeJsonLinesAsParquet } from '@oqlkit/adapter-duckdb'
import type { CollectionStore } from '@oqlkit/engine'
import { settlesWithin } from '@oqlkit/engine'
import { openFileCollectionStore, StateDirectoryInUseError } from '@oqlkit/file-stores'
import {
  type AccessLog,
  createApp,
  createCatalogsApp,
  createCollectionsApp,
  DEFAULT_EXPORT_SLOTS,
  keyStoreCallers,
  meteredCaller,
  type OpenResponses,
  openAccessLog,
  RequestLimits,
  type StartedServer,
  startServer,
  trackOpenResponses,
} from '@oqlkit/http'
import { type CliCommand, usageError } from './cli-command.ts'
import type { ClickHouseVersionCatalogs } from './clickhouse-versions-opener.ts'
import { parseCommandLine, UsageProblem } from './command-line-parser.ts'
import {
  connectedRedis,
  describeLocation,
  openServerKeys,
  openServerMetering,
  type StoreLocation,
} from './metering-setup.ts'
import { SERVE_COMMAND_LINE } from './serve-command-line.ts'
import { readServeSettings, type ServeSettings } from './serve-settings-reader.ts'
import { namedCatalog, type OpenedCatalog, openCatalogFolder } from './served-catalog-opener.ts'
import { guardUnhandledRejections } from './unhandled-rejection-guard.ts'

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
  const { client, migrateLegacyCollections, createRedisCollectionStore } = await connectedRedis(location.url)
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
/** A second server on the same state: which process holds it, and the ways out. */
const stateInUseMessage = (error: StateDirectoryInUseError): string =>
  `another server (process ${error.pid}) is using this state (${error.lockFile}): an embedded store serves one process. Stop that server, give this one its own --state or --collections-dir (or --no-collections), share the state through --redis, or delete ${error.lockFile} if no such server runs.`
export const serveCommand: CliCommand = {
  name: 'serve',
  usage: `${SERVE_COMMAND_LINE.synopsis}  (oqlkit serve --help describes every option)`,
  async run(args, context) {
    let settings: ServeSettings
    try {
      settings = readServeSettings(parseCommandLine(args, SERVE_COMMAND_LINE.options).values, process.env)
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

    // Every catalog served, the default first: one, or each `--catalog NAME=DIR` (data_version=NAME picks it),
    // or the versions a ClickHouse keeps, the newest first (asked again as the server runs).
    const catalogs: OpenedCatalog[] = []
    let clickhouse: ClickHouseVersionCatalogs | undefined
    const closeAdapters = async () => {
      await Promise.all(catalogs.map((opened) => opened.adapter.close()))
      await clickhouse?.close()
    }
    try {
      if (settings.clickhouse !== undefined) {
        // Loaded only to serve ClickHouse: its driver is some 65 modules a DuckDB server never needs.
        const { ClickHouseVersionCatalogs } = await import('./clickhouse-versions-opener.ts')
        const opened = await ClickHouseVersionCatalogs.open(this, settings.clickhouse, settings, (message) =>
          context.writeProgress(message),
        )
        if ('exitCode' in opened) return opened
        clickhouse = opened
        catalogs.push(opened.first)
      } else
        for (const folder of settings.catalogs) {
          const opened = await openCatalogFolder(
            this,
            { ...settings, catalogDir: folder.dir },
            concurrency.connections,
            context,
          )
          if ('exitCode' in opened) {
            await closeAdapters()
            return opened
          }
          catalogs.push(namedCatalog(opened, folder.name))
        }
    } catch (error) {
      // A later catalog that cannot be opened (a folder it may not read) closes those opened before it.
      await closeAdapters()
      throw error
    }
    const servingWhat = catalogs.map((opened) => opened.serving).join(', ')
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
      await closeAdapters()
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
    // Each catalog is an app of its own, sharing the limits, metering and collections; the serving layers wrap
    // them once, and data_version= picks the app.
    const versions =
      clickhouse === undefined
        ? catalogs.map((opened) => opened.catalogInfo.version!)
        : () => clickhouse!.versions()
    const appOf = (opened: OpenedCatalog) =>
      createApp({
        ...(collections === undefined ? {} : { collections: { store: collections, callers: mainCallers } }),
        adapter: opened.adapter,
        catalog: { ...opened.catalogInfo, versions },
        ...(metering === undefined ? {} : { metering: { keys: metering.keys, meter: metering.meter } }),
        ...(opened.tagger === undefined ? {} : { tagger: opened.tagger }),
        ...(maxPerPage === undefined ? {} : { maxPerPage }),
        limits,
        ...(settings.trustProxy === undefined ? {} : { trustProxy: settings.trustProxy }),
        writeParquet: writeJsonLinesAsParquet,
      })
    const app = createCatalogsApp({
      catalogs:
        clickhouse === undefined
          ? catalogs.map((opened) => ({ version: opened.catalogInfo.version!, app: appOf(opened) }))
          : clickhouse.directory(appOf),
      ...serving,
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
      await closeAdapters()
      return { exitCode: 1, stderr: `oqlkit serve: ${(error as Error).message}\n` }
    }
    for (const { adapter, vectors, unreadableSearchIndex, serving: what } of catalogs) {
      // Which catalog, when there are several.
      const where = catalogs.length > 1 ? ` in ${what}` : ''
      if (vectors !== undefined && !adapter.capabilities.semanticSearch)
        context.writeProgress(
          `Semantic search is off${where}: this catalog's vectors came from ${vectors.embedder.modelId} on an embeddings server; start with --embeddings-url URL to serve it.\n`,
        )
      if (unreadableSearchIndex === true)
        context.writeProgress(
          `Full-text search is off${where}: this catalog's search index is of an earlier format than this oqlkit reads; build it again with \`oqlkit index ${what}\`.\n`,
        )
    }
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
    if (catalogs[0]!.tagger === undefined)
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
        await closeAdapters()
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
    await Promise.all([closeStores(), closeAdapters()])
    unguard()
    return { exitCode: 0, stdout: 'oqlkit: stopped\n' }
  },
}
