// The ingest benchmark's numbers and its Markdown section. Pure: ingest-bench.ts does the measuring. Each
// contender's runs come from the same rounds, so the ratios to the DuckDB floor are taken within one run.
import { ratio } from './bench-report-writer.ts'
import { median } from './bench-stats.ts'
import { formatWorks } from './latency-plot-writer.ts'

export type ContenderName = 'floor' | 'core' | 'full' | 'parquet'

export interface RunMeasure {
  readonly wallMs: number
  readonly peakRssBytes: number
  /** What the run left on disk: the floor's parquet file, an ingest's catalog folder. */
  readonly outputBytes: number
}

export interface ContenderRuns {
  readonly name: ContenderName
  readonly label: string
  readonly runs: readonly RunMeasure[]
}

export interface IngestBenchResult {
  readonly command: string
  readonly date: string
  readonly machine: string
  readonly loadBefore: readonly number[]
  readonly loadAfter: readonly number[]
  readonly snapshotDir: string
  readonly works: number
  /** The snapshot's gzipped files, all entities. */
  readonly snapshotBytes: number
  /** The same JSON at gzip's default level 6 (issue 39's yardstick of a catalog's size); absent if not measured. */
  readonly snapshotGzip6Bytes?: number
  readonly rounds: number
  readonly contenders: readonly ContenderRuns[]
}

export interface ContenderSummary {
  readonly name: ContenderName
  readonly label: string
  readonly medianMs: number
  readonly worksPerSecond: number
  /** The highest of the rounds: the issue's target is a ceiling. */
  readonly peakRssBytes: number
  readonly outputBytes: number
  readonly outputRatio: number
  /** Works per second over the floor's (the floor's median time over this one's). */
  readonly speedOverFloor: number
}

export function summarize(result: IngestBenchResult): ContenderSummary[] {
  const floorMs = median(result.contenders.find((c) => c.name === 'floor')?.runs.map((r) => r.wallMs) ?? [])
  return result.contenders.map(({ name, label, runs }) => {
    const medianMs = median(runs.map((run) => run.wallMs))
    const outputBytes = median(runs.map((run) => run.outputBytes))
    return {
      name,
      label,
      medianMs,
      worksPerSecond: result.works / (medianMs / 1000),
      peakRssBytes: Math.max(...runs.map((run) => run.peakRssBytes)),
      outputBytes,
      outputRatio: outputBytes / result.snapshotBytes,
      speedOverFloor: floorMs / medianMs,
    }
  })
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
export const formatBytes = (bytes: number): string =>
  `${(bytes / 1_048_576).toLocaleString('en-US', { maximumFractionDigits: bytes < 100 * 1_048_576 ? 1 : 0 })} MB`
const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—')
const load = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(' / ')

export function renderContenderTable(summaries: readonly ContenderSummary[]): string {
  return [
    '| contender | median wall | works/s | peak RSS (max of rounds) | on disk | ÷ gzipped snapshot | works/s ÷ floor |',
    '|---|---|---|---|---|---|---|',
    ...summaries.map(
      (s) =>
        `| ${s.label} | ${seconds(s.medianMs)} | ${Math.round(s.worksPerSecond).toLocaleString('en-US')} | ${formatBytes(s.peakRssBytes)} | ${formatBytes(s.outputBytes)} | ${ratio(s.outputRatio, 1)} | ${ratio(s.speedOverFloor, 1)} |`,
    ),
  ].join('\n')
}

/**
 * Issue 39's targets against what was measured: the core ingest at the floor's works/s or better, the full ingest
 * at a quarter of it, the Parquet layout at 1.5×, every ingest within 4 GB, and the core catalog within 1.3× the
 * snapshot's JSON at gzip level 6 (when that was measured).
 */
export function renderTargetTable(
  summaries: readonly ContenderSummary[],
  snapshotGzip6Bytes?: number,
): string {
  const find = (name: ContenderName) => summaries.find((s) => s.name === name)
  const ingests = summaries.filter((s) => s.name !== 'floor')
  const rows: [string, string, boolean | undefined][] = []
  const core = find('core')
  const full = find('full')
  const parquet = find('parquet')
  if (core !== undefined)
    rows.push(['core ingest ≥ 1× the floor’s works/s', times(core.speedOverFloor), core.speedOverFloor >= 1])
  if (full !== undefined)
    rows.push([
      'full ingest ≥ 0.25× the floor’s works/s',
      times(full.speedOverFloor),
      full.speedOverFloor >= 0.25,
    ])
  if (parquet !== undefined)
    rows.push([
      'core ingest from the Parquet layout ≥ 1.5× the floor’s works/s',
      times(parquet.speedOverFloor),
      parquet.speedOverFloor >= 1.5,
    ])
  if (ingests.length > 0) {
    const peak = Math.max(...ingests.map((s) => s.peakRssBytes))
    rows.push(['peak RSS of ingest ≤ 4 GB', formatBytes(peak), peak <= 4 * 2 ** 30])
  }
  if (core !== undefined && snapshotGzip6Bytes !== undefined) {
    const ratio = core.outputBytes / snapshotGzip6Bytes
    rows.push(['core catalog ≤ 1.3× the snapshot’s JSON at gzip level 6', times(ratio), ratio <= 1.3])
  }
  return [
    '| target | measured | met |',
    '|---|---|---|',
    ...rows.map(([target, measured, met]) => `| ${target} | ${measured} | ${met ? 'yes' : 'no'} |`),
  ].join('\n')
}

export function renderIngestSection(result: IngestBenchResult): string {
  const summaries = summarize(result)
  return [
    `## Ingest: ${formatWorks(result.works)} works, ${result.date}`,
    '',
    `\`${result.command}\``,
    '',
    `Snapshot ${result.snapshotDir}: ${result.works.toLocaleString('en-US')} works, ${formatBytes(result.snapshotBytes)} gzipped${result.snapshotGzip6Bytes === undefined ? '' : ` (${formatBytes(result.snapshotGzip6Bytes)} at gzip level 6)`}. ${result.machine}. ${result.rounds} round${result.rounds === 1 ? '' : 's'}, the contenders interleaved (the first of each round in rotation); each a whole child process, wall time and peak RSS by GNU time. Load average (1 / 5 / 15 min) ${load(result.loadBefore)} before, ${load(result.loadAfter)} after.`,
    '',
    renderContenderTable(summaries),
    '',
    renderTargetTable(summaries, result.snapshotGzip6Bytes),
    '',
  ].join('\n')
}
