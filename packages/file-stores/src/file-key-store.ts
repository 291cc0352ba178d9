import { mkdir, open, stat } from 'node:fs/promises'
import { join } from 'node:path'
import {
  type ApiKeyRecord,
  compareKeyRecords,
  type KeyStore,
  liveKeyRecord,
  readApiKeyRecord,
} from '@oqlkit/engine'

export const KEYS_LOG_FILE = 'keys.log'

/** How long a found key may be served from memory before the log is checked for a newer record. */
const REFRESH_AFTER_MS = 1000

/** A logged line's record (`{"put": record}`), or undefined for a damaged or foreign line. */
const readKeyLine = (value: unknown): ApiKeyRecord | undefined =>
  typeof value === 'object' && value !== null ? readApiKeyRecord((value as { put?: unknown }).put) : undefined

export interface FileKeyStoreOptions {
  /** The state folder (created if missing); keys live in `keys.log` there. */
  readonly dir: string
}

/**
 * API keys in a file: `keys.log`, one JSON line per written record (`{"put": ApiKeyRecord}`; the key
 * itself is never written, only its SHA-256). The last record of a hash wins. Each write is one
 * O_APPEND write followed by fdatasync before it resolves, so `oqlkit keys create` can add keys while a
 * server runs, and an acknowledged key survives a crash. The server reads what was appended since it
 * last looked when a key is not known (and at most a second after it last looked for a known one), so a
 * key revoked or updated by `oqlkit keys` takes effect within a second, with no restart.
 */
export const openFileKeyStore = async (options: FileKeyStoreOptions): Promise<KeyStore> => {
  await mkdir(options.dir, { recursive: true })
  const path = join(options.dir, KEYS_LOG_FILE)
  const byHash = new Map<string, ApiKeyRecord>()
  let offset = 0
  let lastRefresh = 0
  let refreshing: Promise<void> | null = null

  // Reads the complete lines appended since `offset`; a line still being written waits for next time.
  const readNew = async (): Promise<void> => {
    let size: number
    try {
      size = (await stat(path)).size
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
      throw error
    }
    if (size <= offset) return
    const handle = await open(path, 'r')
    try {
      const buffer = Buffer.alloc(size - offset)
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, offset)
      const text = buffer.subarray(0, bytesRead)
      const end = text.lastIndexOf(0x0a) + 1
      for (const line of text.subarray(0, end).toString('utf8').split('\n')) {
        if (line.trim() === '') continue
        let record: ApiKeyRecord | undefined
        try {
          record = readKeyLine(JSON.parse(line))
        } catch {
          record = undefined
        }
        if (record !== undefined) byHash.set(record.keyHash, record)
      }
      offset += end
    } finally {
      await handle.close()
    }
  }
  const refresh = (): Promise<void> => {
    lastRefresh = Date.now()
    refreshing ??= readNew().finally(() => {
      refreshing = null
    })
    return refreshing
  }

  await refresh()
  return {
    // A revoked key (a later line with `revokedAt`) is seen within REFRESH_AFTER_MS and then not found.
    findKey: async (keyHash) => {
      if (!byHash.has(keyHash) || Date.now() - lastRefresh > REFRESH_AFTER_MS) await refresh()
      return liveKeyRecord(byHash.get(keyHash))
    },
    listKeys: async () => {
      await refresh()
      return [...byHash.values()].sort(compareKeyRecords)
    },
    putKey: async (record) => {
      const handle = await open(path, 'a+')
      try {
        // A write cut short by a crash leaves a line without its newline: start a fresh one.
        const { size } = await handle.stat()
        let lead = ''
        if (size > 0) {
          const last = Buffer.alloc(1)
          await handle.read(last, 0, 1, size - 1)
          if (last[0] !== 0x0a) lead = '\n'
        }
        await handle.write(`${lead}${JSON.stringify({ put: record })}\n`)
        await handle.datasync()
      } finally {
        await handle.close()
      }
      await refresh()
      byHash.set(record.keyHash, record)
    },
    close: async () => {
      await refreshing
    },
  }
}
