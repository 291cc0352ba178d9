// A stopped ingest resumes: a run killed while parsing (SIGKILL, nothing cleaned up) leaves its build folder,
// and the next run of the same command parses only the parts the first had not staged, and builds the catalog
// a run that never stopped builds. Folders that cannot be resumed are removed, with a warning, and a swap cut
// between its renames is undone. Real processes, real kills, the real staging database.
import { spawn } from 'node:child_process'
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { StagingDatabase } from '../src/build/staging-database.ts'
import type { IngestProgress, IngestSummary } from '../src/ingest-progress.ts'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import {
  createCheckpointTables,
  type ParseCheckpoint,
  readCheckpoint,
  sealCheckpoint,
  stageParsedTasks,
} from '../src/parse/parse-checkpoint.ts'
import { builtWorkspace } from './support/built-workspace.ts'
import { folderFingerprint } from './support/catalog-inspector.ts'
import { author, type FixturePart, work, writeLegacySnapshot } from './support/snapshot-fixtures.ts'

const core = { searchIndex: false, textTagger: false, vectors: false } as const
const childScript = resolve(import.meta.dirname, 'support/ingest-kill-child.mjs')

/** Six parts of works of falling sizes (the smallest is parsed last) and one of authors. */
function snapshotParts(): FixturePart[] {
  const sizes = [600, 500, 400, 300, 200, 100]
  const parts: FixturePart[] = []
  let next = 1
  sizes.forEach((size, at) => {
    const works = Array.from({ length: size }, () => {
      const n = next++
      return work(n, `2025-0${at + 1}-01T00:00:00`, {
        referenced_works: [`https://openalex.org/W${(n % 50) + 1}`],
        cited_by_count: n % 17,
      })
    })
    parts.push({ entity: 'works', partition: `2025-0${at + 1}-01`, content: works })
  })
  parts.push({
    entity: 'authors',
    partition: '2025-01-01',
    content: Array.from({ length: 40 }, (_, at) => author(at + 1, '2025-01-01T00:00:00')),
  })
  return parts
}

let root: string
let snapshot: string
/** The catalog of a run that never stopped. */
let uninterrupted: string

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-ingest-resume-'))
  snapshot = join(root, 'snapshot')
  writeLegacySnapshot(snapshot, snapshotParts())
  uninterrupted = join(root, 'uninterrupted')
  await ingestSnapshot({ snapshotDir: snapshot, outDir: uninterrupted, ...core })
}, 120_000)

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

/**
 * Runs the ingest in a child that SIGKILLs itself once at least `parts` part files are staged, and says how
 * many it had staged (parts finished together are staged in one transaction).
 */
async function ingestKilledAfter(outDir: string, parts: number): Promise<number> {
  await builtWorkspace()
  const child = spawn(process.execPath, [childScript, snapshot, outDir, String(parts)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString()
  })
  const signal = await new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_, sig) => done(sig)))
  expect(signal, `the child was not killed: ${output}`).toBe('SIGKILL')
  const staged = Number(/^staged (\d+)$/m.exec(output)?.[1])
  expect(staged, `the child said: ${output}`).toBeGreaterThanOrEqual(parts)
  return staged
}

/** The build folders and lock beside a catalog (what a stopped run leaves). */
const leftoversOf = (outDir: string): string[] =>
  readdirSync(dirname(outDir)).filter((name) => name.startsWith(`.${basename(outDir)}.`))

/** Every file of a catalog but catalog.json (dates) and the serving database (DuckDB's own file layout). */
const catalogFiles = (dir: string): Map<string, string> => {
  const files = folderFingerprint(dir)
  files.delete('catalog.json')
  files.delete('catalog.duckdb')
  return files
}

async function resume(
  outDir: string,
  options: { readonly resume?: boolean } = {},
): Promise<{ summary: IngestSummary; events: IngestProgress[] }> {
  const events: IngestProgress[] = []
  const summary = await ingestSnapshot({
    snapshotDir: snapshot,
    outDir,
    ...core,
    ...options,
    onProgress: (event) => events.push(event),
  })
  return { summary, events }
}

/** The parse checkpoint in a stopped run's build folder (its staging database, `.staging`). */
async function checkpointOf(folder: string): Promise<ParseCheckpoint | undefined> {
  const db = await StagingDatabase.open(join(folder, '.staging'))
  try {
    return await readCheckpoint(db)
  } finally {
    db.close()
  }
}

/** The build folder beside `outDir` (what a stopped run left, not its lock). */
const buildFolderOf = (outDir: string): string => {
  const folders = leftoversOf(outDir).filter((name) => name.includes('.ingest-') && !name.endsWith('lock'))
  expect(folders).toHaveLength(1)
  return join(dirname(outDir), folders[0]!)
}

describe('an ingest killed while parsing', () => {
  /** How many parts the killed run had staged. */
  let staged: number
  beforeAll(async () => {
    // Killed as the first staging commits: parts that finish while a load runs are staged together after
    // it, so a kill at a later one could come when every part was staged (and nothing is left to resume).
    staged = await ingestKilledAfter(join(root, 'killed'), 1)
    // The folder and lock it left, copied beside the catalogs of the tests that start over from a stopped
    // run's folder (resumable as it stands; what each of them changes makes it not): one real kill, not a
    // child process of about 3 s of CPU for each of them. The build folder's name is all that names its
    // catalog (`.<catalog>.ingest-` and six characters).
    const folder = buildFolderOf(join(root, 'killed'))
    const suffix = folder.slice(-6)
    const original = await checkpointOf(folder)
    expect(original?.phase).toBe('parsing')
    for (const name of ['changed', 'no-resume']) {
      const copy = join(root, `.${name}.ingest-${suffix}`)
      cpSync(folder, copy, { recursive: true })
      cpSync(join(root, '.killed.ingest-lock'), join(root, `.${name}.ingest-lock`))
      // Resumable as the original is (the same sealed checkpoint, readable): what starts each test's run over
      // is what the test changes, not the copy.
      expect(await checkpointOf(copy)).toStrictEqual(original)
    }
  }, 120_000)

  it('leaves its build folder, and the next run parses only the parts it had not staged', async () => {
    const outDir = join(root, 'killed')
    expect(existsSync(outDir)).toBe(false)
    expect(leftoversOf(outDir).some((name) => name.includes('.ingest-') && !name.endsWith('lock'))).toBe(true)

    const { summary, events } = await resume(outDir)
    // The child saw `staged` parts staged; the transaction that staged the last of them may have held more.
    const resumed = summary.partsResumed
    expect(resumed).toBeGreaterThanOrEqual(staged)
    expect(resumed).toBeLessThan(7)
    expect(summary.warnings).toStrictEqual([])
    // The staged parts count as read before any other is: the progress goes on from where the run stopped.
    const firstRead = events.find((event) => event.phase === 'read')!
    expect(firstRead.partsResumed).toBe(1)
    const parsed = events.findIndex((event) => event.phase === 'read' && event.filesDone > event.partsResumed)
    expect(events[parsed - 1]).toMatchObject({
      filesDone: resumed,
      partsStaged: resumed,
      partsResumed: resumed,
    })
    expect(events.at(-1)!.partsStaged).toBe(7)
    // Every record was read once: 2,100 works and 40 authors, whichever run read them.
    expect(summary.recordsRead).toBe(2_140)
    expect(summary.entities.works.recordsWritten).toBe(2_100)

    // The same catalog as the run that never stopped: records, dictionaries, entity, link and id files.
    expect(catalogFiles(outDir)).toStrictEqual(catalogFiles(uninterrupted))
    // Nothing is left beside it: no build folder, no lock.
    expect(leftoversOf(outDir)).toStrictEqual([])
  }, 120_000)

  it('is started over, its folder removed with a warning, when a file changed since', async () => {
    // A stopped run's build folder (the killed run's, copied).
    const outDir = join(root, 'changed')
    expect(leftoversOf(outDir)).toHaveLength(2)
    const part = join(snapshot, 'authors', 'updated_date=2025-01-01', 'part_000.gz')
    const before = statSync(part)
    utimesSync(part, before.atime, new Date(before.mtimeMs + 60_000))
    try {
      const { summary } = await resume(outDir)
      expect(summary.partsResumed).toBe(0)
      expect(summary.warnings).toHaveLength(1)
      expect(summary.warnings[0]).toMatch(/^removed .*\.changed\.ingest-.* left by an ingest that stopped/)
      expect(summary.warnings[0]).toContain('not resumable by this one')
      expect(catalogFiles(outDir)).toStrictEqual(catalogFiles(uninterrupted))
      expect(leftoversOf(outDir)).toStrictEqual([])
    } finally {
      utimesSync(part, before.atime, before.mtime)
    }
  }, 120_000)

  it('is started over when the run says not to resume', async () => {
    // A stopped run's build folder (the killed run's, copied).
    const outDir = join(root, 'no-resume')
    expect(leftoversOf(outDir)).toHaveLength(2)
    const { summary } = await resume(outDir, { resume: false })
    expect(summary.partsResumed).toBe(0)
    expect(summary.warnings).toHaveLength(1)
    expect(summary.warnings[0]).toMatch(/left by an ingest that stopped before it finished$/)
    expect(catalogFiles(outDir)).toStrictEqual(catalogFiles(uninterrupted))
    expect(leftoversOf(outDir)).toStrictEqual([])
  }, 120_000)
})

describe('an ingest that fails while parsing', () => {
  it('keeps what it staged when the failure is not its input, and the same command resumes', async () => {
    const outDir = join(root, 'failed')
    // Once `staged` parts are staged, the folder the parse workers write their rows to goes (as a disk fault
    // would take it): the parts being parsed cannot be staged, a failure of the machine's, not the input's.
    const failingAfter = async (staged: number): Promise<unknown> => {
      try {
        await ingestSnapshot({
          snapshotDir: snapshot,
          outDir,
          threads: 1,
          ...core,
          onProgress: (event) => {
            if (event.partsStaged !== staged) return
            for (const name of leftoversOf(outDir).filter(
              (entry) => entry.includes('.ingest-') && !entry.endsWith('lock'),
            ))
              rmSync(join(root, name, '.staging', 'rows'), { recursive: true, force: true })
          },
        })
      } catch (error) {
        return error
      }
      return undefined
    }
    // Parts that finish together are staged together: the failure comes after the group holding the first.
    const stagedCount = (error: unknown): number =>
      Number(
        /The (\d+) part files staged so far are kept in .*: the same command resumes from them/.exec(
          (error as Error).message,
        )?.[1],
      )
    const failure = await failingAfter(1)
    expect(failure).toBeInstanceOf(Error)
    const first = stagedCount(failure)
    expect(first, (failure as Error).message).toBeGreaterThanOrEqual(1)
    expect(existsSync(outDir)).toBe(false)
    // The folder stays; the lock does not (no run holds the catalog).
    expect(leftoversOf(outDir).filter((name) => name.endsWith('lock'))).toStrictEqual([])
    expect(leftoversOf(outDir)).toHaveLength(1)

    // The run that resumes it fails the same way after more parts: it keeps the first's parts and its own.
    const again = await failingAfter(first + 1)
    const second = stagedCount(again)
    expect(second, (again as Error).message).toBeGreaterThan(first)
    expect(leftoversOf(outDir)).toHaveLength(1)

    const { summary } = await resume(outDir)
    expect(summary.partsResumed).toBe(second)
    expect(catalogFiles(outDir)).toStrictEqual(catalogFiles(uninterrupted))
    expect(leftoversOf(outDir)).toStrictEqual([])
  }, 180_000)

  it('removes its folder when the input is at fault (a bad line): nothing is left to resume', async () => {
    const bad = join(root, 'bad-snapshot')
    writeLegacySnapshot(bad, [
      ...snapshotParts().slice(0, 2),
      { entity: 'authors', partition: '2025-01-01', content: ['{"id": "https://openalex.org/A1", oops'] },
    ])
    const outDir = join(root, 'bad')
    await expect(ingestSnapshot({ snapshotDir: bad, outDir, ...core })).rejects.toThrow(/part_000\.gz/)
    expect(existsSync(outDir)).toBe(false)
    expect(leftoversOf(outDir)).toStrictEqual([])
  }, 120_000)
})

describe('a swap cut between its renames', () => {
  it('is undone by the next run: the old catalog is put back, then updated', async () => {
    const outDir = join(root, 'cut-swap')
    // The catalog the swap replaced: the one the same ingest built, copied rather than built again.
    cpSync(uninterrupted, outDir, { recursive: true })
    const before = catalogFiles(outDir)
    // As a run killed after moving the old catalog away and before moving the new one in leaves it.
    renameSync(outDir, join(root, '.cut-swap.replaced-0123456789ab'))
    const summary = await ingestSnapshot({ snapshotDir: snapshot, outDir, ...core })
    expect(summary.mode).toBe('updated')
    expect(summary.entities.works.previousRecords).toBe(2_100)
    expect(leftoversOf(outDir)).toStrictEqual([])
    expect(catalogFiles(outDir).get('records/authors.dict')).toBe(before.get('records/authors.dict'))
  }, 120_000)

  it('after the second rename leaves only the old copy, which the next run removes', async () => {
    const outDir = join(root, 'cut-after')
    cpSync(uninterrupted, outDir, { recursive: true })
    mkdirSync(join(root, '.cut-after.replaced-0123456789ab'))
    await ingestSnapshot({ snapshotDir: snapshot, outDir, ...core, mode: 'replace' })
    expect(leftoversOf(outDir)).toStrictEqual([])
  }, 120_000)
})

describe('what an ingest removes beside its catalog', () => {
  it('is only its own leftovers, not the folders of a catalog whose name begins the same', async () => {
    const outDir = join(root, 'lookalike')
    // The build folder of an ingest into `lookalike.ingest-x` (perhaps running now), and a folder that is
    // no replaced catalog's.
    const others = ['.lookalike.ingest-x.ingest-Ab12Cd', '.lookalike.replaced-kept-by-someone']
    for (const name of others) mkdirSync(join(root, name))
    await ingestSnapshot({ snapshotDir: snapshot, outDir, ...core })
    for (const name of others) expect(existsSync(join(root, name)), name).toBe(true)
    expect(leftoversOf(outDir).sort()).toStrictEqual([...others].sort())
  }, 120_000)
})

describe('the parse checkpoint', () => {
  it('records a part only with its staged rows: a load that fails leaves neither', async () => {
    const dir = mkdtempSync(join(root, 'checkpoint-'))
    const db = await StagingDatabase.open(dir)
    try {
      await db.run('CREATE TABLE staged_rows (n INTEGER)')
      await createCheckpointTables(db)
      await sealCheckpoint(db, 'inputs')
      const segment = join(dir, 'segment')
      writeFileSync(segment, 'bytes')
      const task = (index: number) => ({ index, records: 2, rewritten: 0, longestRow: 10, rowsBytes: 20 })
      await stageParsedTasks(db, [{ task: task(0), segmentPath: segment }], async () => {
        await db.run('INSERT INTO staged_rows VALUES (1), (2)')
      })
      await expect(
        stageParsedTasks(
          db,
          [
            { task: task(1), segmentPath: segment },
            { task: task(2), segmentPath: segment },
          ],
          async () => {
            await db.run('INSERT INTO staged_rows VALUES (3), (4)')
            throw new Error('out of disk')
          },
        ),
      ).rejects.toThrow('out of disk')
      const checkpoint = await readCheckpoint(db)
      expect([...checkpoint!.parsed.keys()]).toStrictEqual([0])
      expect(checkpoint!.fingerprint).toBe('inputs')
      expect(checkpoint!.phase).toBe('parsing')
      expect(await db.rows('SELECT count(*)::INTEGER AS n FROM staged_rows')).toStrictEqual([{ n: 2 }])
    } finally {
      db.close()
    }
  })

  it('is no checkpoint until sealed: a run stopped during its setup is started over', async () => {
    const dir = mkdtempSync(join(root, 'unsealed-'))
    const db = await StagingDatabase.open(dir)
    try {
      await createCheckpointTables(db)
      expect(await readCheckpoint(db)).toBeUndefined()
    } finally {
      db.close()
    }
  })
})
