// chdb, the ClickHouse engine the ClickHouse tests run on, is a test-only dependency of 543 MB that a plain
// `npm ci` leaves out: `npm run install:chdb` adds it (`.ci/run` does). Without it those tests skip and say
// why, unless OQLKIT_REQUIRE_CHDB=1 (as `.ci/run` sets it), when its absence fails them.
import { createRequire } from 'node:module'

export const REQUIRE_CHDB_VARIABLE = 'OQLKIT_REQUIRE_CHDB'

export type ChdbAvailability =
  | { readonly available: true }
  | { readonly available: false; readonly reason: string }

/** Where Node would load `chdb` from, or null when it is not installed. */
const installedChdb = (): string | null => {
  try {
    return createRequire(import.meta.url).resolve('chdb')
  } catch {
    return null
  }
}

/** Whether the ClickHouse tests run here; throws when they are required and chdb is not installed. */
export const chdbForTests = (
  env: Readonly<Record<string, string | undefined>> = process.env,
  resolved: string | null = installedChdb(),
): ChdbAvailability => {
  if (resolved !== null) return { available: true }
  const reason = 'chdb is not installed (`npm run install:chdb` adds it: 543 MB, for the tests only)'
  const required = env[REQUIRE_CHDB_VARIABLE] === '1' || env[REQUIRE_CHDB_VARIABLE] === 'true'
  if (required) throw new Error(`chdb is required (${REQUIRE_CHDB_VARIABLE}=1) but ${reason}.`)
  console.warn(`Skipping a file of ClickHouse tests: ${reason}.`)
  return { available: false, reason }
}

/** True where chdb is installed: `describe.skipIf(!chdbInstalled)` around each suite that runs on it. */
export const chdbInstalled = (): boolean => chdbForTests().available

/** What the tests use of chdb's API (its own declarations are missing where it is not installed). */
export interface ChdbResult {
  bytes(): Uint8Array
  readonly rowsRead: number
  readonly bytesRead: number
  readonly elapsed: number
}
export interface ChdbSession {
  /** The engine connection beneath the session, which the addon's calls take. */
  readonly connection: unknown
  queryAsync(sql: string, options?: { readonly format?: string }): Promise<ChdbResult>
  close(): void
}
export interface ChdbModule {
  readonly Session: new (path: string) => ChdbSession
  drainPending(): Promise<void>
}

// A specifier TypeScript does not resolve: the type check passes where chdb is not installed.
const CHDB_MODULE: string = 'chdb'
let loaded: Promise<ChdbModule> | undefined

/** chdb's module, loaded on first use (a suite that runs on it is skipped where it is not installed). */
export const loadChdb = (): Promise<ChdbModule> => {
  loaded ??= (import(CHDB_MODULE) as Promise<ChdbModule>).catch((error: unknown) => {
    loaded = undefined
    throw installedChdb() === null
      ? new Error('chdb is not installed: `npm run install:chdb` adds it (543 MB, for the tests only)')
      : error
  })
  return loaded
}
