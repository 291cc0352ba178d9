import { type FileHandle, open, readFile, rename, truncate } from 'node:fs/promises'
import { dirname } from 'node:path'

/** What an append log holds when opened: its complete lines, and how many of them could not be read. */
export interface AppendLogContents {
  readonly lines: readonly string[]
}

interface PendingLine {
  readonly line: string
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

export interface AppendLogOptions {
  /** Past this size the next flush rewrites the log as `snapshot()` instead of appending. */
  readonly compactAtBytes: number
  /**
   * The whole current state as lines (what a compacted log holds). Called when a batch is taken, so it
   * includes every line appended so far, the batch's too.
   */
  readonly snapshot: () => readonly string[]
}

const fsyncDirectory = async (path: string): Promise<void> => {
  const directory = await open(dirname(path), 'r')
  try {
    await directory.sync()
  } finally {
    await directory.close()
  }
}

/**
 * Reads a log file's complete lines (a missing file is empty). A last line without its newline is the
 * trace of a write a crash cut short: such a write was never acknowledged, so it is cut off here.
 */
export const readLogLines = async (path: string): Promise<AppendLogContents> => {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [] }
    throw error
  }
  const end = text.lastIndexOf('\n') + 1
  if (end < text.length) await truncate(path, Buffer.byteLength(text.slice(0, end)))
  return {
    lines: text
      .slice(0, end)
      .split('\n')
      .filter((line) => line !== ''),
  }
}

/**
 * An append-only file of JSON lines whose `append` resolves only once the line is on disk (fdatasync),
 * so an acknowledged write survives a crash, SIGKILL included. Appends made while a sync is under way
 * are written and synced together by the next one (group commit): one fsync serves many requests.
 * When the file outgrows `compactAtBytes`, a flush writes the snapshot to a new file, syncs it and
 * renames it over the log (then syncs the folder), so the log never grows without bound and is never
 * half-replaced.
 */
export class DurableAppendLog {
  readonly #path: string
  readonly #options: AppendLogOptions
  #handle: FileHandle
  #size: number
  #pending: PendingLine[] = []
  #flushing: Promise<void> | null = null
  // After a failed write the file may end mid-line; the next write starts on a fresh line.
  #needsNewline = false
  #closed = false

  private constructor(path: string, handle: FileHandle, size: number, options: AppendLogOptions) {
    this.#path = path
    this.#handle = handle
    this.#size = size
    this.#options = options
  }

  /** Opens (creating) the log for appending; read it first with `readLogLines`. */
  static async open(path: string, options: AppendLogOptions): Promise<DurableAppendLog> {
    const handle = await open(path, 'a')
    const { size } = await handle.stat()
    await fsyncDirectory(path)
    return new DurableAppendLog(path, handle, size, options)
  }

  get sizeBytes(): number {
    return this.#size
  }

  append(line: string): Promise<void> {
    if (this.#closed) return Promise.reject(new Error(`the log ${this.#path} is closed`))
    return new Promise((resolve, reject) => {
      this.#pending.push({ line, resolve, reject })
      this.#flushing ??= this.#flush()
    })
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    this.#closed = true
    await this.#flushing
    await this.#handle.close()
  }

  async #flush(): Promise<void> {
    // Let appends made in the same tick join this batch.
    await Promise.resolve()
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0)
      const compact = this.#size >= this.#options.compactAtBytes
      const snapshot = compact ? this.#options.snapshot() : []
      try {
        if (compact) await this.#rewrite(snapshot)
        else await this.#write(batch.map((pending) => pending.line))
        for (const pending of batch) pending.resolve()
      } catch (error) {
        this.#needsNewline = true
        for (const pending of batch) pending.reject(error)
      }
    }
    this.#flushing = null
  }

  async #write(lines: readonly string[]): Promise<void> {
    const text = `${this.#needsNewline ? '\n' : ''}${lines.join('\n')}\n`
    const bytes = Buffer.from(text)
    await this.#handle.write(bytes)
    this.#size += bytes.length
    await this.#handle.datasync()
    this.#needsNewline = false
  }

  async #rewrite(lines: readonly string[]): Promise<void> {
    const temporary = `${this.#path}.compacting`
    const bytes = Buffer.from(lines.map((line) => `${line}\n`).join(''))
    const handle = await open(temporary, 'w')
    try {
      await handle.write(bytes)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, this.#path)
    await fsyncDirectory(this.#path)
    const previous = this.#handle
    this.#handle = await open(this.#path, 'a')
    this.#size = bytes.length
    this.#needsNewline = false
    await previous.close()
  }
}
