import { join } from 'node:path'
import {
  CollectionLogError,
  type CollectionOperation,
  CollectionState,
  type CollectionStore,
  type Decision,
} from '@oqlkit/engine'
import { DurableAppendLog, readLogLines } from './durable-append-log.ts'
import { lockStateDirectory } from './state-directory-lock.ts'

export const COLLECTIONS_LOG_FILE = 'collections.log'

/** The version of the log's lines; a line of another version is refused rather than misread. */
const LOG_VERSION = 1

/** Past this size the log is rewritten as one line per collection (what it holds now). */
const COMPACT_AT_BYTES = 64 * 1024 * 1024

export interface FileCollectionStoreOptions {
  /** The state folder (created if missing); collections live in `collections.log` there. */
  readonly dir: string
  /** Log size in bytes past which it is compacted (default 64 MiB). */
  readonly compactAtBytes?: number
}

const lineOf = (operation: CollectionOperation): string => JSON.stringify({ v: LOG_VERSION, ...operation })

const operationOf = (line: string, number: number, path: string): CollectionOperation => {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    throw new CollectionLogError(
      `${path}, line ${number}: not JSON; the log is damaged (restore it from a backup)`,
    )
  }
  const { v, ...operation } = (value ?? {}) as { v?: unknown }
  if (v !== LOG_VERSION)
    throw new CollectionLogError(`${path}, line ${number}: log version ${String(v)}, expected ${LOG_VERSION}`)
  return operation as CollectionOperation
}

/**
 * Collections in a file, for a single server process: `collections.log` holds one JSON line per change.
 * Writes run one at a time (a promise chain is the mutex): each is decided against the limits, appended
 * and fdatasync'ed, and only then applied in memory and acknowledged, so an acknowledged write survives
 * a crash (SIGKILL included) and a refused one leaves no trace. Opening replays the log; a last line a
 * crash cut short was never acknowledged and is dropped. A lock file keeps a second process out.
 */
export const openFileCollectionStore = async (
  options: FileCollectionStoreOptions,
): Promise<CollectionStore> => {
  const release = await lockStateDirectory(options.dir, 'collections')
  const path = join(options.dir, COLLECTIONS_LOG_FILE)
  const state = new CollectionState()
  let log: DurableAppendLog
  // The line being written: part of a compacted log, though not yet of the state.
  let inFlight: string | null = null
  try {
    const { lines } = await readLogLines(path)
    lines.forEach((line, index) => {
      state.apply(operationOf(line, index + 1, path))
    })
    log = await DurableAppendLog.open(path, {
      compactAtBytes: options.compactAtBytes ?? COMPACT_AT_BYTES,
      snapshot: () => [...state.snapshot().map(lineOf), ...(inFlight === null ? [] : [inFlight])],
    })
  } catch (error) {
    await release()
    throw error
  }

  let tail: Promise<unknown> = Promise.resolve()
  let closed = false
  const commit = <R>(decide: () => Decision<R>): Promise<R> => {
    if (closed) return Promise.reject(new Error(`The collection store in ${options.dir} is closed`))
    const run = tail.then(async () => {
      const decision = decide()
      if (decision.operation !== null) {
        inFlight = lineOf(decision.operation)
        try {
          await log.append(inFlight)
        } finally {
          inFlight = null
        }
        state.apply(decision.operation)
      }
      return decision.result()
    })
    tail = run.catch(() => {})
    return run
  }

  return {
    create: (draft) => commit(() => state.decideCreate(draft)),
    get: async (id) => state.get(id),
    list: async (query) => state.list(query),
    update: (id, update) => commit(() => state.decideUpdate(id, update)),
    delete: (id) => commit(() => state.decideDelete(id)),
    addEntities: (id, entityIds, entityType, at) =>
      commit(() => state.decideAdd(id, entityIds, entityType, at)),
    removeEntities: (id, entityIds, at) => commit(() => state.decideRemove(id, entityIds, at)),
    members: async (id, offset, limit) => state.members(id, offset, limit),
    close: async () => {
      if (closed) return
      closed = true
      await tail
      await log.close()
      await release()
    },
  }
}
