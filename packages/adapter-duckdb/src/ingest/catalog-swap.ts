// An ingest never writes into the catalog folder. It builds beside it (`.<name>.ingest-XXXXXX`) and, only
// when everything is written, renames the old catalog away, the new one into place, and removes the old
// one. A failure before that point removes the build folder and leaves the catalog as it was. A lock file
// beside the catalog keeps two ingests from swapping over each other.
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { CATALOG_MANIFEST_FILE } from '../catalog/catalog-layout.ts'
import { IngestError, ingestErrorDetails } from './ingest-error.ts'

export interface BuildFolder {
  readonly outDir: string
  readonly path: string
  readonly lockPath: string
  /** True when `outDir` holds a catalog now. */
  readonly hasCatalog: boolean
}

export async function openBuildFolder(outDir: string): Promise<BuildFolder> {
  const target = resolve(outDir)
  const parent = dirname(target)
  const name = basename(target)
  const hasCatalog = await checkOutDir(target)
  await mkdir(parent, { recursive: true })
  const lockPath = join(parent, `.${name}.ingest-lock`)
  await acquireLock(lockPath)
  try {
    const path = await mkdtemp(join(parent, `.${name}.ingest-`))
    return { outDir: target, path, lockPath, hasCatalog }
  } catch (error) {
    await rm(lockPath, { force: true })
    throw error
  }
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
