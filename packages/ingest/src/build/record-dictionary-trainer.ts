// Trains a zstd dictionary from example records with the zstd command (`zstd --train`), the zstd project's own
// trainer. A trained dictionary holds the strings records repeat most, where the raw dictionary is just the
// tail of the first records: on 2,000 generated works it made records 12% smaller and compressed them 1.2
// times faster (10% smaller on the committed sample's real works; BENCHMARKS.md). Neither zstd build the
// records run on (zstd-napi, zstd-wasm) binds the trainer (zstd's ZDICT functions), and no npm package that
// installs here does; the command is Debian's `zstd`, installed on most systems with the library. Where it is missing or fails, the
// ingest keeps the raw dictionary and says so: nothing depends on it but the records' size.
import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

/** What the trainer gave: a dictionary, or why there is none. */
export type DictionaryTraining =
  | { readonly dictionary: Buffer }
  | { readonly dictionary: null; readonly reason: string }

export interface DictionaryTrainingOptions {
  /** An empty folder the examples are written to for the command (removed afterwards). */
  readonly workDir: string
  /** The dictionary's largest size. */
  readonly maxBytes: number
  /** The zstd command (`zstd` on the PATH unless told). */
  readonly command?: string
  /** How long the command may take. */
  readonly timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 120_000

/**
 * zstd's fast trainer with its parameters fixed: `--train` alone tries several segment sizes (k), 2.7 s on
 * 1,800 generated works; k = 1000 gave the dictionary it found, within 0.3% of the size of the records, on
 * those works and on the committed sample's real ones, in 0.7 s.
 */
const TRAINER = '--train-fastcover=k=1000,d=8,f=20'

/**
 * A zstd dictionary trained on `examples` (each one sample, in the order given: the same examples give the same
 * dictionary with the same zstd), at most `maxBytes`. Never throws: a missing command, too few examples for
 * zstd or any failure of the command is a `reason`.
 */
export async function trainZstdDictionary(
  examples: readonly (string | Uint8Array)[],
  options: DictionaryTrainingOptions,
): Promise<DictionaryTraining> {
  const { workDir, maxBytes, command = 'zstd', timeoutMs = DEFAULT_TIMEOUT_MS } = options
  const samplesDir = samplesFolder(workDir)
  try {
    // One file per example, named in a list file, so the samples are the records and their order is ours.
    // Written synchronously: 1,800 awaited writes took 2.6 s (three thread-pool round trips each), ten times
    // zstd's own training.
    const names = examples.map((_, index) => join(samplesDir, `${index}.json`))
    for (const [index, example] of examples.entries()) writeFileSync(names[index]!, example)
    const list = join(samplesDir, 'samples.txt')
    writeFileSync(list, `${names.join('\n')}\n`)
    const output = join(samplesDir, 'dictionary')
    await run(
      command,
      [TRAINER, '-q', '-f', '--filelist', list, `--maxdict=${maxBytes}`, '-o', output],
      timeoutMs,
    )
    const dictionary = await readFile(output)
    if (dictionary.length === 0)
      return { dictionary: null, reason: `${command} --train wrote an empty dictionary` }
    return { dictionary }
  } catch (error) {
    return { dictionary: null, reason: describeFailure(command, error) }
  } finally {
    rmSync(samplesDir, { recursive: true, force: true })
    rmSync(workDir, { recursive: true, force: true })
  }
}

/** Linux's memory-backed folder, where the samples are written when it is there. */
const MEMORY_FOLDER = '/dev/shm'

/**
 * A fresh folder for the samples: in memory where the system has one (creating 1,800 sample files there took
 * 29 ms, on this machine's ext4 disk 1.3 s while it was busy), else `workDir`.
 */
function samplesFolder(workDir: string): string {
  try {
    if (statSync(MEMORY_FOLDER).isDirectory()) return mkdtempSync(join(MEMORY_FOLDER, 'oqlkit-zstd-samples-'))
  } catch {
    // No memory folder, or not ours to write: the build's own folder does.
  }
  mkdirSync(workDir, { recursive: true })
  return workDir
}

const run = (command: string, args: readonly string[], timeout: number): Promise<void> =>
  new Promise((resolve, reject) => {
    execFile(command, args, { timeout, maxBuffer: 1 << 20 }, (error, _stdout, stderr) => {
      if (error === null) resolve()
      else reject(Object.assign(error, { stderr: String(stderr).trim() }))
    })
  })

function describeFailure(command: string, error: unknown): string {
  const failure = error as NodeJS.ErrnoException & { stderr?: string; killed?: boolean }
  if (failure.code === 'ENOENT') return `the ${command} command was not found`
  if (failure.killed === true) return `${command} --train did not finish in time`
  const said = failure.stderr
    ?.split('\n')
    .filter((line) => line.trim() !== '')
    .pop()
  return `${command} --train failed${said === undefined ? '' : `: ${said}`}`
}
