// The peer benchmark's results, one file per catalog size, and the Markdown tables and plot made from all the
// sizes measured so far. Pure: run-bench.ts does the measuring and the writing.
import { formatMs } from './bench-stats.ts'
import { formatWorks, type LatencySeries, renderLatencyPlot } from './latency-plot-writer.ts'

export interface ContenderSummary {
  readonly name: string
  readonly medianMs: number
  readonly p95Ms: number
  readonly rounds: number
}

export interface ShapeResult {
  readonly shape: string
  readonly growth: string
  readonly path: string
  readonly contenders: readonly ContenderSummary[]
  /** The number the answers should agree on (a list's count, a group-by's largest bucket), per contender. */
  readonly check?: Readonly<Record<string, number>>
}

export interface LoadSummary {
  readonly shape: string
  readonly connections: number
  readonly bodyBytes: number
  readonly ours: {
    readonly requestsPerSecond: number
    readonly latencyMedianMs: number
    readonly latencyMeanMs: number
    readonly errors: number
  }
  readonly bare: {
    readonly requestsPerSecond: number
    readonly latencyMedianMs: number
    readonly latencyMeanMs: number
    readonly errors: number
  }
  readonly serviceOverheadMs: number
  readonly latencyOverheadMs: number
  /** Bare h3 answering through the same adapter (the storage's work on both sides), when measured. */
  readonly floor?: {
    readonly requestsPerSecond: number
    readonly latencyMedianMs: number
    readonly latencyMeanMs: number
    readonly errors: number
  }
  /** Our service time minus the floor's: oqlkit's own per-request work over the framework. */
  readonly overFloorServiceMs?: number
}

export interface SizeResult {
  readonly works: number
  readonly seed: number
  readonly date: string
  readonly machine: string
  /** The machine's 1-minute load average when the size's run started and when it ended. */
  readonly loadAverage?: readonly [number, number]
  readonly rounds: number
  readonly warmup: number
  readonly build: { readonly generateMs?: number; readonly ingestMs?: number }
  readonly postgresLoad?: {
    readonly copyMs: number
    readonly indexMs: number
    readonly analyzeMs: number
    readonly sizeBytes: number
    readonly rows: Record<string, number>
  }
  readonly shapes: readonly ShapeResult[]
  readonly load: readonly LoadSummary[]
  readonly serverPeakRssBytes?: number
}

const medianOf = (shape: ShapeResult, name: string): number =>
  shape.contenders.find((contender) => contender.name === name)?.medianMs ?? Number.NaN

/** `ours ÷ theirs` to two places, or a dash where either side was not measured. */
export const ratio = (ours: number, theirs: number): string =>
  Number.isFinite(ours) && Number.isFinite(theirs) && theirs > 0 ? (ours / theirs).toFixed(2) : '—'

const ms = (value: number) => (Number.isFinite(value) ? `${formatMs(value)} ms` : '—')
const seconds = (value: number | undefined) => (value === undefined ? '—' : `${(value / 1000).toFixed(1)} s`)
const megabytes = (bytes: number | undefined) =>
  bytes === undefined ? '—' : `${Math.round(bytes / 1_048_576).toLocaleString('en-US')} MB`

export function renderQueryTable(result: SizeResult): string {
  const lines = [
    `| query (${formatWorks(result.works)} works) | ours (app) median | ours p95 | DuckDB SQL median | PostgreSQL median | PostgreSQL p95 | ours ÷ DuckDB | ours ÷ PostgreSQL |`,
    '|---|---|---|---|---|---|---|---|',
  ]
  for (const shape of result.shapes) {
    const app = shape.contenders.find((contender) => contender.name === 'app')
    const pg = shape.contenders.find((contender) => contender.name === 'postgres')
    lines.push(
      `| ${shape.shape} | ${ms(app?.medianMs ?? Number.NaN)} | ${ms(app?.p95Ms ?? Number.NaN)} | ${ms(medianOf(shape, 'duckdb'))} | ${ms(pg?.medianMs ?? Number.NaN)} | ${ms(pg?.p95Ms ?? Number.NaN)} | ${ratio(medianOf(shape, 'app'), medianOf(shape, 'duckdb'))} | ${ratio(medianOf(shape, 'app'), medianOf(shape, 'postgres'))} |`,
    )
  }
  return lines.join('\n')
}

/** The shapes whose contenders disagreed on their check number, as lines for the report. */
export function checkDisagreements(result: SizeResult): string[] {
  return result.shapes.flatMap((shape) => {
    const values = Object.entries(shape.check ?? {})
    return new Set(values.map(([, value]) => value)).size > 1
      ? [`${shape.shape}: ${values.map(([name, value]) => `${name} ${value}`).join(', ')}`]
      : []
  })
}

export function renderLoadTable(result: SizeResult): string {
  const lines = [
    `| ${formatWorks(result.works)} works: request | connections | oqlkit req/s | bare h3 req/s | bare h3 + adapter req/s | oqlkit latency median / mean | bare h3 latency median / mean | service time difference (1/req/s) | service time over bare h3 + adapter | mean latency difference |`,
    '|---|---|---|---|---|---|---|---|---|---|',
  ]
  const rate = (value: number) => Math.round(value).toLocaleString('en-US')
  for (const load of result.load)
    lines.push(
      `| ${load.shape} (${(load.bodyBytes / 1024).toFixed(1)} KB) | ${load.connections} | ${rate(load.ours.requestsPerSecond)} | ${rate(load.bare.requestsPerSecond)} | ${load.floor === undefined ? '—' : rate(load.floor.requestsPerSecond)} | ${formatMs(load.ours.latencyMedianMs)} / ${formatMs(load.ours.latencyMeanMs)} ms | ${formatMs(load.bare.latencyMedianMs)} / ${formatMs(load.bare.latencyMeanMs)} ms | ${ms(load.serviceOverheadMs)} | ${load.overFloorServiceMs === undefined ? '—' : ms(load.overFloorServiceMs)} | ${ms(load.latencyOverheadMs)} |`,
    )
  return lines.join('\n')
}

/** Median latency of `contender` per shape (rows) and size (columns), the "how cost grows" table. */
export function renderGrowthTable(results: readonly SizeResult[], contender = 'app'): string {
  const sorted = [...results].sort((a, b) => a.works - b.works)
  const shapes = [...new Set(sorted.flatMap((result) => result.shapes.map((shape) => shape.shape)))]
  const lines = [
    `| query (${contender}) | growth | ${sorted.map((result) => formatWorks(result.works)).join(' | ')} |`,
    `|---|---|${sorted.map(() => '---|').join('')}`,
  ]
  for (const name of shapes) {
    const growth =
      sorted.flatMap((result) => result.shapes).find((shape) => shape.shape === name)?.growth ?? ''
    const cells = sorted.map((result) => {
      const shape = result.shapes.find((candidate) => candidate.shape === name)
      return shape === undefined ? '—' : ms(medianOf(shape, contender))
    })
    lines.push(`| ${name} | ${growth} | ${cells.join(' | ')} |`)
  }
  return lines.join('\n')
}

export function renderMemoryTable(results: readonly SizeResult[]): string {
  const sorted = [...results].sort((a, b) => a.works - b.works)
  const lines = [
    '| works | generate | ingest | PostgreSQL load (COPY + keys/indexes + analyse) | PostgreSQL database size | oqlkit serve peak RSS |',
    '|---|---|---|---|---|---|',
  ]
  for (const result of sorted) {
    const load = result.postgresLoad
    lines.push(
      `| ${formatWorks(result.works)} | ${seconds(result.build.generateMs)} | ${seconds(result.build.ingestMs)} | ${load === undefined ? '—' : `${seconds(load.copyMs + load.indexMs + load.analyzeMs)} (${seconds(load.copyMs)} + ${seconds(load.indexMs)} + ${seconds(load.analyzeMs)})`} | ${megabytes(load?.sizeBytes)} | ${megabytes(result.serverPeakRssBytes)} |`,
    )
  }
  return lines.join('\n')
}

export function growthSeries(results: readonly SizeResult[], contender = 'app'): LatencySeries[] {
  const shapes = [...new Set(results.flatMap((result) => result.shapes.map((shape) => shape.shape)))]
  return shapes.map((name) => ({
    name,
    points: results.flatMap((result) => {
      const shape = result.shapes.find((candidate) => candidate.shape === name)
      const value = shape === undefined ? Number.NaN : medianOf(shape, contender)
      return Number.isFinite(value) ? [{ works: result.works, ms: value }] : []
    }),
  }))
}

export const renderGrowthPlot = (results: readonly SizeResult[]): string =>
  renderLatencyPlot(growthSeries(results), {
    title: 'oqlkit: median latency per query shape against catalog size',
  })

export function renderReport(results: readonly SizeResult[]): string {
  const sorted = [...results].sort((a, b) => a.works - b.works)
  return [
    '# Peer benchmark results',
    '',
    ...sorted.flatMap((result) => [
      `## ${formatWorks(result.works)} works (seed ${result.seed}), ${result.date}`,
      '',
      `${result.machine}; ${result.rounds} rounds after ${result.warmup} warm-up rounds${result.loadAverage === undefined ? '' : `; load average ${result.loadAverage[0].toFixed(1)} at the start, ${result.loadAverage[1].toFixed(1)} at the end`}.`,
      '',
      renderQueryTable(result),
      '',
      ...(result.shapes.some((shape) => shape.check !== undefined)
        ? checkDisagreements(result).length === 0
          ? [
              'Every contender agreed on each checked count (lists: the total; group-bys: the largest bucket).',
              '',
            ]
          : [
              'Contenders that disagreed (lists: the total; group-bys: the largest bucket):',
              '',
              ...checkDisagreements(result).map((line) => `- ${line}`),
              '',
            ]
        : []),
      ...(result.load.length === 0 ? [] : [renderLoadTable(result), '']),
    ]),
    '## How cost grows',
    '',
    renderGrowthTable(sorted),
    '',
    '## Build, load and memory',
    '',
    renderMemoryTable(sorted),
    '',
  ].join('\n')
}
