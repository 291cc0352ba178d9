// An ingest never writes into the catalog folder. It builds beside it (`.<name>.ingest-XXXXXX`) and, only
// when everything is written, renames the old catalog away, the new one into place, and removes the old
// one. A failure before that point removes the build folder and leaves the catalog as it was. A lock file
// beside the catalog keeps two ingests from swapping over each other. What a killed ingest leaves (it can
// clean nothing up) is dealt with by the next one, under the lock: a build folder it can resume is built
// on, any other is removed, and a swap cut between its two renames is undone.
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { CATALOG_MANIFEST_FILE } from '@oqlkit/catalog'
import { IngestError, ingestErrorDetails } from '../ingest-error.ts'

export interface BuildFolder {
  readonly outDir: string
  readonly path: string
  readonly lockPath: string
  /** True when `outDir` holds a catalog now. */
  readonly hasCatalog: boolean
  /** True when `path` is a stopped ingest's build folder that `resume` accepted. */
  readonly resumed: boolean
  /** Build folders of stopped ingests that were removed (not resumable), with their sizes. */
  readonly removedLeftovers: readonly { readonly path: string; readonly bytes: number }[]
}

export interface BuildFolderOptions {
  /**
   * Asked of each build folder a stopped ingest of this catalog left, newest first, until one is accepted:
   * whether this run can build on it (`hasCatalog` as for the run). The rest are removed.
   */
  readonly resume?: (path: string, hasCatalog: boolean) => Promise<boolean>
}

export async function openBuildFolder(
  outDir: string,
  options: BuildFolderOptions = {},
): Promise<BuildFolder> {
  const target = resolve(outDir)
  const parent = dirname(target)
  const name = basename(target)
  await mkdir(parent, { recursive: true })
  const lockPath = join(parent, `.${name}.ingest-lock`)
  await acquireLock(lockPath)
  try {
    await undoCutSwap(parent, name, target)
    const hasCatalog = await checkOutDir(target)
    let resumed: string | undefined
    const removedLeftovers: { path: string; bytes: number }[] = []
    for (const leftover of await leftoverBuildFolders(parent, name)) {
      if (
        resumed === undefined &&
        options.resume !== undefined &&
        (await options.resume(leftover, hasCatalog))
      ) {
        resumed = leftover
        continue
      }
      removedLeftovers.push({ path: leftover, bytes: await folderBytes(leftover) })
      await rm(leftover, { recursive: true, force: true })
    }
    const path = resumed ?? (await mkdtemp(join(parent, `.${name}.ingest-`)))
    return { outDir: target, path, lockPath, hasCatalog, resumed: resumed !== undefined, removedLeftovers }
  } catch (error) {
    await rm(lockPath, { force: true })
    throw error
  }
}

/**
 * Whether `entry` is a build folder (`.<name>.ingest-` and mkdtemp's six characters) or a replaced catalog
 * (`.<name>.replaced-` and twelve hex digits) of the catalog `name`, exactly: a prefix alone would also take
 * the folders of a catalog named `<name>.ingest-x`, which another ingest may be writing.
 */
const isLeftoverOf = (name: string, entry: string, kind: 'ingest' | 'replaced'): boolean => {
  const prefix = `.${name}.${kind}-`
  const suffix = entry.slice(prefix.length)
  return (
    entry.startsWith(prefix) &&
    (kind === 'ingest' ? /^[A-Za-z0-9]{6}$/.test(suffix) : /^[0-9a-f]{12}$/.test(suffix))
  )
}

/**
 * The build folders left beside the catalog by ingests that did not finish, newest first. Only called under
 * the lock: no running ingest owns one then.
 */
async function leftoverBuildFolders(parent: string, name: string): Promise<string[]> {
  const entries = await readdir(parent, { withFileTypes: true })
  const folders = entries
    .filter((entry) => entry.isDirectory() && isLeftoverOf(name, entry.name, 'ingest'))
    .map((entry) => join(parent, entry.name))
  const dated = await Promise.all(folders.map(async (path) => ({ path, at: (await stat(path)).mtimeMs })))
  return dated.sort((a, b) => b.at - a.at).map(({ path }) => path)
}

/**
 * A swap killed between its renames leaves no catalog and the old one under `.<name>.replaced-…`: it is put
 * back (the new build was not committed, so the old catalog is the current one). A swap killed after them
 * leaves only the old copy, which is removed.
 */
async function undoCutSwap(parent: string, name: string, target: string): Promise<void> {
  const replaced = (await readdir(parent)).filter((entry) => isLeftoverOf(name, entry, 'replaced'))
  for (const entry of replaced) {
    const path = join(parent, entry)
    if (!(await exists(target)) && (await exists(join(path, CATALOG_MANIFEST_FILE))))
      await rename(path, target)
    else await rm(path, { recursive: true, force: true })
  }
}

/** Every byte of the files under `dir` (a file removed while it is counted counts nothing). */
export async function folderBytes(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  let bytes = 0
  for (const entry of entries)
    if (entry.isFile())
      bytes += (await stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size
  return bytes
}

/** Puts the build folder in place of the catalog; the old catalog is removed once the new one is there. */
export async function commitBuildFolder(build: BuildFolder): Promise<void> {
  const backup = join(
    dirname(build.outDir),
    `.${basename(build.outDir)}.replaced-${randomBytes(6).toString('hex')}`,
  )
  const replacing = await exists(build.outDir)
  if (replacing) await rename(build.outDir, backup)
  try {
    await rename(build.path, build.outDir)
  } catch (error) {
    if (replacing) await rename(backup, build.outDir)
    throw error
  }
  if (replacing) await rm(backup, { recursive: true, force: true })
  await rm(build.lockPath, { force: true })
}

/** Keeps the build folder for a later run to resume, and lets go of the catalog. */
export async function leaveBuildFolder(build: BuildFolder): Promise<void> {
  await rm(build.lockPath, { force: true })
}

export async function abandonBuildFolder(build: BuildFolder): Promise<void> {
  await rm(build.path, { recursive: true, force: true })
  await rm(build.lockPath, { force: true })
}

/** Whether outDir holds a catalog; throws when it holds something else that a swap would destroy. */
async function checkOutDir(outDir: string): Promise<boolean> {
  let info: Awaited<ReturnType<typeof stat>>
  try {
    info = await stat(outDir)
  } catch {
    return false
  }
  const notCatalog = () =>
    new IngestError({
      code: 'output-not-catalog',
      file: outDir,
      detail: ingestErrorDetails.outputNotCatalog(),
    })
  if (!info.isDirectory()) throw notCatalog()
  if (await exists(join(outDir, CATALOG_MANIFEST_FILE))) return true
  if ((await readdir(outDir)).length > 0) throw notCatalog()
  return false
}

async function acquireLock(lockPath: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx')
      await handle.writeFile(String(process.pid))
      await handle.close()
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const pid = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim())
    if (Number.isSafeInteger(pid) && pid > 0 && isAlive(pid)) {
      throw new IngestError({
        code: 'catalog-locked',
        file: lockPath,
        detail: ingestErrorDetails.catalogLocked(pid),
      })
    }
    // The process that wrote the lock is gone: the lock is stale.
    await rm(lockPath, { force: true })
  }
  throw new IngestError({
    code: 'catalog-locked',
    file: lockPath,
    detail: ingestErrorDetails.catalogLocked(0),
  })
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path)
    return true
  } catch {
    return false
  }
}
