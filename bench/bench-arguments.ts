// The command line of `npm run bench`: which catalog sizes, how many rounds, which parts to run, where the
// cache and the results go. Pure, so the parsing is tested without running anything.
import { parseArgs } from 'node:util'

export const BENCH_PARTS = ['queries', 'postgres', 'load', 'memory'] as const
export type BenchPart = (typeof BENCH_PARTS)[number]

export interface BenchArguments {
  readonly sizes: readonly number[]
  readonly seed: number
  readonly rounds: number
  readonly warmup: number
  readonly parts: ReadonlySet<BenchPart>
  readonly only: readonly string[]
  readonly cacheDir: string
  readonly resultsDir: string
  /** Seconds of each autocannon run, runs per target, and the connection counts. */
  readonly loadSeconds: number
  readonly loadRuns: number
  readonly connections: readonly number[]
  readonly postgres: { readonly host: string; readonly port: number; readonly user: string }
  readonly ingestMemoryLimit: string | undefined
  /** Only rewrite the report and the plot from the results already in the folder. */
  readonly reportOnly: boolean
  /**
   * Keep each size's PostgreSQL database after the run, and use one a previous run kept (the load of 1M works
   * takes half an hour).
   */
  readonly keepPostgres: boolean
  /** Only load (or find) the kept PostgreSQL database of each size, from its snapshot, and stop. */
  readonly preparePostgres: boolean
}

export const BENCH_USAGE = `npm run bench -- [--sizes 100k,1M,10M] [--seed 1] [--rounds 15] [--warmup 3]
  [--skip postgres,load,memory] [--only 'shape|shape'] [--cache-dir .bench-cache] [--results-dir bench/results]
  [--load-seconds 5] [--load-runs 3] [--connections 1,2,8] [--pg-host 127.0.0.1] [--pg-port 5432]
  [--pg-user postgres] [--ingest-memory-limit 8GB] [--report-only] [--keep-postgres] [--prepare-postgres]`

export class BenchArgumentError extends Error {
  constructor(message: string) {
    super(`${message}\nusage: ${BENCH_USAGE}`)
    this.name = 'BenchArgumentError'
  }
}

/** `20k`, `100k`, `1M`, `10M` or a plain number of works. */
export function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kKmM]?)$/.exec(text.trim())
  if (match === null)
    throw new BenchArgumentError(
      `'${text}' is not a catalog size: write a number of works such as 100k or 1M`,
    )
  const scale = { '': 1, k: 1000, K: 1000, m: 1_000_000, M: 1_000_000 }[match[2]!]!
  const works = Number(match[1]) * scale
  if (!Number.isInteger(works) || works < 1)
    throw new BenchArgumentError(`'${text}' is not a whole positive number of works`)
  return works
}

const positiveInteger = (name: string, text: string): number => {
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1)
    throw new BenchArgumentError(`--${name} needs a whole number of at least 1, got '${text}'`)
  return value
}

const list = (text: string): string[] =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)

const readOptions = (argv: readonly string[]) =>
  parseArgs({
    args: [...argv],
    options: {
      sizes: { type: 'string', default: '100k,1M,10M' },
      seed: { type: 'string', default: '1' },
      rounds: { type: 'string', default: '15' },
      warmup: { type: 'string', default: '3' },
      skip: { type: 'string', default: '' },
      only: { type: 'string', default: '' },
      'cache-dir': { type: 'string', default: '.bench-cache' },
      'results-dir': { type: 'string', default: 'bench/results' },
      'load-seconds': { type: 'string', default: '5' },
      'load-runs': { type: 'string', default: '3' },
      connections: { type: 'string', default: '1,2,8' },
      'pg-host': { type: 'string', default: '127.0.0.1' },
      'pg-port': { type: 'string', default: '5432' },
      'pg-user': { type: 'string', default: 'postgres' },
      'ingest-memory-limit': { type: 'string' },
      'report-only': { type: 'boolean', default: false },
      'keep-postgres': { type: 'boolean', default: false },
      'prepare-postgres': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  }).values

export function parseBenchArguments(argv: readonly string[]): BenchArguments {
  let values: ReturnType<typeof readOptions>
  try {
    values = readOptions(argv)
  } catch (error) {
    throw new BenchArgumentError(error instanceof Error ? error.message : String(error))
  }
  if (values['prepare-postgres'] && !argv.some((arg) => arg === '--sizes' || arg.startsWith('--sizes=')))
    throw new BenchArgumentError(
      '--prepare-postgres loads a database of every size it is given: name them with --sizes (10M would need about 180 GB)',
    )
  const sizes = [...new Set(list(values.sizes!).map(parseSize))].sort((a, b) => a - b)
  if (sizes.length === 0) throw new BenchArgumentError('--sizes needs at least one size, such as 100k')
  const skipped = list(values.skip!)
  for (const part of skipped)
    if (!(BENCH_PARTS as readonly string[]).includes(part))
      throw new BenchArgumentError(`--skip knows ${BENCH_PARTS.join(', ')}; '${part}' is none of them`)
  const seed = Number(values.seed)
  if (!Number.isInteger(seed))
    throw new BenchArgumentError(`--seed needs a whole number, got '${values.seed}'`)
  const warmup = Number(values.warmup)
  if (!Number.isInteger(warmup) || warmup < 0)
    throw new BenchArgumentError(`--warmup needs a whole number of at least 0, got '${values.warmup}'`)
  const memoryLimit = values['ingest-memory-limit']
  if (memoryLimit !== undefined && !/^\d+(\.\d+)?\s*[KMGT]i?B$/i.test(memoryLimit))
    throw new BenchArgumentError(`--ingest-memory-limit needs a size such as 8GB, got '${memoryLimit}'`)
  return {
    sizes,
    seed,
    rounds: positiveInteger('rounds', values.rounds!),
    warmup,
    parts: new Set(BENCH_PARTS.filter((part) => !skipped.includes(part))),
    only: values.only!.split('|').filter((part) => part.length > 0),
    cacheDir: values['cache-dir']!,
    resultsDir: values['results-dir']!,
    loadSeconds: positiveInteger('load-seconds', values['load-seconds']!),
    loadRuns: positiveInteger('load-runs', values['load-runs']!),
    connections: list(values.connections!).map((text) => positiveInteger('connections', text)),
    postgres: {
      host: values['pg-host']!,
      port: positiveInteger('pg-port', values['pg-port']!),
      user: values['pg-user']!,
    },
    ingestMemoryLimit: memoryLimit,
    reportOnly: values['report-only'],
    keepPostgres: values['keep-postgres'] || values['prepare-postgres'],
    preparePostgres: values['prepare-postgres'],
  }
}
