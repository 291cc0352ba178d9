// The versions of a catalog that `oqlkit load` keeps in a ClickHouse, each served as a data version: the newest
// is the default, and those a load keeps beside it (`--keep-versions`) are picked by name (`data_version=` the
// version's database) or by fingerprint. The list is asked again at most once a second, so a load switches
// the default at once without a restart, and every answer names the version that answered it: each version
// is read by an adapter pinned to its database, never by one that follows the newest mid-request.
import {
  type CatalogVersion,
  type ClickHouseTarget,
  connectClickHouse,
  createClickHouseAdapter,
  listVersions,
  readClickHouseCatalogModels,
} from '@oqlkit/adapter-clickhouse'
import { type Embedder, embeddersMatch, writeEmbedderMismatchMessage } from '@oqlkit/engine'
import type { CatalogDirectory, DataVersion, ServedCatalog } from '@oqlkit/http'
import { createOpenAiEmbedder } from '@oqlkit/text-models'
import { type CliCommand, type CommandResult, usageError } from './cli-command.ts'
import type { ServeSettings } from './serve-settings-reader.ts'
import { messageOf, type OpenedCatalog, serveFailure } from './served-catalog-opener.ts'

/** How long the list of versions is believed: a load is served as the default within this time. */
const VERSIONS_TTL_MS = 1000

/**
 * How long a version that could not be opened is left out before it is tried again: its models are read whole
 * at each try, which every request would otherwise pay (and wait for) while the version stays broken.
 */
const FAILED_VERSION_RETRY_MS = 30_000

type ClickHouseClient = ReturnType<typeof connectClickHouse>

export class ClickHouseVersionCatalogs {
  readonly #client: ClickHouseClient
  readonly #target: ClickHouseTarget
  readonly #settings: ServeSettings
  /** The embeddings server's client (`--embeddings-url`), shared by every version; else each its own model. */
  readonly #embedder: Embedder | undefined
  #listed: { readonly versions: readonly CatalogVersion[]; readonly at: number }
  #asking: Promise<readonly CatalogVersion[]> | undefined
  readonly #opened = new Map<string, Promise<OpenedCatalog>>()
  /** Versions that could not be opened, until when they are left out. */
  readonly #failed = new Map<string, number>()
  /** Says, once a try, why a version is not served (the server's progress output). */
  readonly #report: (message: string) => void
  readonly #apps = new WeakMap<OpenedCatalog, ServedCatalog['app']>()
  /** The newest version when the server started, opened: what the start messages describe. */
  readonly first: OpenedCatalog

  private constructor(
    client: ClickHouseClient,
    target: ClickHouseTarget,
    settings: ServeSettings,
    embedder: Embedder | undefined,
    versions: readonly CatalogVersion[],
    first: OpenedCatalog,
    report: (message: string) => void,
  ) {
    this.#client = client
    this.#target = target
    this.#settings = settings
    this.#embedder = embedder
    this.#listed = { versions, at: performance.now() }
    this.first = first
    this.#report = report
    this.#opened.set(versions[0]!.database, Promise.resolve(first))
  }

  /**
   * The catalog's versions in the ClickHouse of `target`, the newest opened (and every other kept one, so that
   * a version that cannot be served is said at the start, through `report`): a failure to start, saying why,
   * when none is loaded, the server does not answer, or the newest cannot be served.
   */
  static async open(
    command: CliCommand,
    target: ClickHouseTarget,
    settings: ServeSettings,
    report: (message: string) => void,
  ): Promise<ClickHouseVersionCatalogs | CommandResult> {
    const client = connectClickHouse(target)
    const fail = async (result: CommandResult): Promise<CommandResult> => {
      await client.close()
      return result
    }
    let embedder: Embedder | undefined
    try {
      const versions = await listVersions(client, target.catalog)
      const newest = versions[0]
      if (newest === undefined)
        return await fail(
          serveFailure(
            `${target.endpoint} holds no loaded version of the catalog ${target.catalog}: load one with oqlkit load --into ${target.endpoint}/${target.catalog}`,
          ),
        )
      if (settings.embeddingsUrl !== undefined) {
        const model =
          settings.embeddingsModel ??
          (await readClickHouseCatalogModels(client, newest.database).catch(() => undefined))?.vectors
            ?.embedder.model
        if (model === undefined)
          return await fail(
            usageError(
              command,
              '--embeddings-url needs --embeddings-model (this catalog records no served model)',
            ),
          )
        try {
          embedder = await createOpenAiEmbedder({ url: settings.embeddingsUrl, model })
        } catch (error) {
          return await fail(serveFailure(messageOf(error)))
        }
      }
      let first: OpenedCatalog
      try {
        first = await openVersion(client, target, settings, newest, embedder)
      } catch (error) {
        return await fail(serveFailure(messageOf(error)))
      }
      const catalogs = new ClickHouseVersionCatalogs(
        client,
        target,
        settings,
        embedder,
        versions,
        first,
        report,
      )
      // The kept versions are opened now too, so that the first request naming one does not wait for its
      // models; one that cannot be served is reported as it fails.
      await Promise.allSettled(versions.slice(1).map((version) => catalogs.#openedVersion(version)))
      return catalogs
    } catch (error) {
      return await fail(serveFailure(`ClickHouse at ${target.endpoint} did not answer: ${messageOf(error)}`))
    }
  }

  /** The versions loaded now, newest first: asked again once the last answer is a second old. */
  async #versionsNow(): Promise<readonly CatalogVersion[]> {
    if (performance.now() - this.#listed.at < VERSIONS_TTL_MS) return this.#listed.versions
    this.#asking ??= listVersions(this.#client, this.#target.catalog)
      .then((versions) => {
        // An empty list is a catalog being reloaded from nothing or dropped: the versions known still answer
        // (their databases stand until a load drops them), and the list is asked again a second later.
        if (versions.length === 0) {
          this.#listed = { ...this.#listed, at: performance.now() }
          return this.#listed.versions
        }
        this.#listed = { versions, at: performance.now() }
        for (const database of this.#opened.keys())
          if (!versions.some((version) => version.database === database)) this.#opened.delete(database)
        return versions
      })
      // A ClickHouse that does not answer the list now: the versions known, asked again a second later (not
      // by every request meanwhile).
      .catch(() => {
        this.#listed = { ...this.#listed, at: performance.now() }
        return this.#listed.versions
      })
      .finally(() => {
        this.#asking = undefined
      })
    return this.#asking
  }

  /** The version opened (once), or undefined while one that failed is left out. */
  #openedVersion(version: CatalogVersion): Promise<OpenedCatalog> | undefined {
    const { database } = version
    let opened = this.#opened.get(database)
    if (opened !== undefined) return opened
    if ((this.#failed.get(database) ?? 0) > performance.now()) return undefined
    opened = openVersion(this.#client, this.#target, this.#settings, version, this.#embedder)
    this.#opened.set(database, opened)
    const tried = opened
    opened.then(
      () => this.#failed.delete(database),
      (error: unknown) => {
        // Left out for a while, said once a try; a later entry (re-opened meanwhile) is not this one's to drop.
        if (this.#opened.get(database) === tried) this.#opened.delete(database)
        this.#failed.set(database, performance.now() + FAILED_VERSION_RETRY_MS)
        this.#report(`The version ${database} is not served: ${messageOf(error)}\n`)
      },
    )
    return opened
  }

  /** Every version loaded now that can be served, opened, newest first. */
  async #catalogsNow(): Promise<OpenedCatalog[]> {
    const versions = await this.#versionsNow()
    const opened = await Promise.allSettled(versions.map((version) => this.#openedVersion(version)))
    // A version that cannot be served is left out of the list (the newest one too: the next answers then).
    return opened.flatMap((outcome) =>
      outcome.status === 'fulfilled' && outcome.value !== undefined ? [outcome.value] : [],
    )
  }

  /** The catalogs for `createCatalogsApp`, each version's app made once by `appOf`. */
  directory(appOf: (opened: OpenedCatalog) => ServedCatalog['app']): CatalogDirectory {
    return async () =>
      (await this.#catalogsNow()).map((opened) => {
        let app = this.#apps.get(opened)
        if (app === undefined) {
          app = appOf(opened)
          this.#apps.set(opened, app)
        }
        return { version: opened.catalogInfo.version!, app }
      })
  }

  /** The data versions served now, the default first (`GET /`). */
  async versions(): Promise<DataVersion[]> {
    return (await this.#catalogsNow()).map((opened) => opened.catalogInfo.version!)
  }

  async close(): Promise<void> {
    await this.#client.close()
  }
}

/**
 * One loaded version, served by an adapter pinned to its database: its text tagger and the model that embeds
 * semantic queries read from the version's files, or queries embedded by the embeddings server given, for
 * vectors made by one. Throws, saying why, when it cannot be served.
 */
const openVersion = async (
  client: ClickHouseClient,
  target: ClickHouseTarget,
  settings: ServeSettings,
  version: CatalogVersion,
  embeddingsServer: Embedder | undefined,
): Promise<OpenedCatalog> => {
  let models: Awaited<ReturnType<typeof readClickHouseCatalogModels>>
  try {
    models = await readClickHouseCatalogModels(client, version.database)
  } catch (error) {
    throw new Error(
      `the models of ${version.database} cannot be read (${messageOf(error)}); load the catalog again.`,
    )
  }
  const { vectors } = models
  const embedder = embeddingsServer ?? models.embedder
  // Refused, as a DuckDB server refuses the folder: queries embedded by another model than the vectors'
  // would be ranked by nonsense.
  if (vectors !== undefined && embedder !== undefined && !embeddersMatch(vectors.embedder, embedder))
    throw new Error(writeEmbedderMismatchMessage(vectors.embedder, embedder))
  const adapter = createClickHouseAdapter({
    client,
    catalog: target.catalog,
    version: version.database,
    maxExecutionSeconds: settings.queryTimeoutSeconds,
    ...(embeddingsServer === undefined ? {} : { embedder: embeddingsServer }),
  })
  return {
    adapter: {
      ...adapter,
      capabilities: {
        ...adapter.capabilities,
        semanticSearch: vectors !== undefined && embedder !== undefined,
      },
      // The versions share one client, closed with them (`ClickHouseVersionCatalogs.close`).
      close: async () => {},
    },
    tagger: models.tagger,
    catalogInfo: {
      createdAt: version.catalogCreatedAt,
      entities: version.entityRows,
      // Named by the version's database, as `oqlkit load` published it; one loaded without its catalog.json
      // is fingerprinted by that name.
      version: {
        name: version.database,
        ...(models.dataVersion ?? { snapshotDate: null, fingerprint: version.database }),
      },
    },
    vectors,
    serving: `the catalog ${target.catalog} in ClickHouse at ${target.endpoint} (${version.database})`,
  }
}
