import type { ClickHouseClient } from '@clickhouse/client'
import { servedVersion } from './catalog-versions.ts'

/** How long a server keeps reading one version after a load published another, at most. */
const DEFAULT_TTL_MS = 1000

/**
 * The database of the version a catalog serves, asked again at most once a `ttlMs`: a query reads all its
 * tables from the one name it was given, so a load switches every later query at once. Concurrent callers
 * share one question.
 */
export class ServedVersionCache {
  readonly #client: ClickHouseClient
  readonly #catalog: string
  readonly #ttlMs: number
  #known: { readonly database: string; readonly at: number } | undefined
  #asking: Promise<string> | undefined

  constructor(client: ClickHouseClient, catalog: string, ttlMs = DEFAULT_TTL_MS) {
    this.#client = client
    this.#catalog = catalog
    this.#ttlMs = ttlMs
  }

  database(): Promise<string> {
    const known = this.#known
    if (known !== undefined && performance.now() - known.at < this.#ttlMs)
      return Promise.resolve(known.database)
    this.#asking ??= servedVersion(this.#client, this.#catalog)
      .then((version) => {
        if (version === undefined)
          throw new Error(
            `ClickHouse holds no loaded version of the catalog ${this.#catalog}: load one with oqlkit load --into <url>/${this.#catalog}`,
          )
        this.#known = { database: version.database, at: performance.now() }
        return version.database
      })
      .finally(() => {
        this.#asking = undefined
      })
    return this.#asking
  }
}
