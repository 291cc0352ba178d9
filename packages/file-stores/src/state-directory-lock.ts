import { mkdir, open, readFile, unlink } from 'node:fs/promises'
import { join } from 'node:path'

const held = new Set<string>()

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** What each lock guards, and where a second server finds it shared, for the message of a lock in use. */
const GUARDED: Readonly<Record<string, { readonly what: string; readonly shared: string }>> = {
  meter: { what: 'The metering state', shared: 'share budgets through Redis (--redis)' },
  collections: { what: 'The collections', shared: 'keep collections in Redis (--redis)' },
}

export class StateDirectoryInUseError extends Error {
  override get name(): string {
    return 'StateDirectoryInUseError'
  }
  readonly lockFile: string
  readonly pid: number
  constructor(lockFile: string, pid: number, lockName = 'meter') {
    const guarded = GUARDED[lockName] ?? { what: 'The state', shared: 'share it through Redis (--redis)' }
    super(
      `${guarded.what} in ${lockFile} is in use by process ${pid}: the embedded store serves one process. Stop that server, ${guarded.shared}, or delete ${lockFile} if no such server runs.`,
    )
    this.lockFile = lockFile
    this.pid = pid
  }
}

/**
 * Takes the lock file `<dir>/<name>.lock` for this process, or throws `StateDirectoryInUseError` when a
 * running process (this one included) holds it. A lock left by a process that died (a crash, SIGKILL)
 * is taken over. Resolves to the function that releases it.
 */
export const lockStateDirectory = async (dir: string, name: string): Promise<() => Promise<void>> => {
  await mkdir(dir, { recursive: true })
  const lockFile = join(dir, `${name}.lock`)
  if (held.has(lockFile)) throw new StateDirectoryInUseError(lockFile, process.pid, name)
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(lockFile, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error
      const pid = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim())
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isRunning(pid))
        throw new StateDirectoryInUseError(lockFile, pid, name)
      await unlink(lockFile).catch(() => {})
    }
  }
  held.add(lockFile)
  return async () => {
    held.delete(lockFile)
    await unlink(lockFile).catch(() => {})
  }
}
