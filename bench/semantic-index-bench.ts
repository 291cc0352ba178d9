// The list index of semantic search against the exact scan, on vectors synthesised here rather than on an
// ingested catalog (a 1M-work catalog takes hours to ingest; a million vectors take a minute or two to draw). Run by
// `npm run bench:semantic -- --synthetic ROWS`; see `runSemanticIndexBench` for what it reports.
//
// Two kinds of vectors, int8-quantised the way the catalog stores them:
//   - clustered: a topic model. 64 fields of random directions; rows/200 topics drawn around their field;
//     topic sizes by a Zipf law (exponent 0.7); each work a point around its topic. Queries are new points of
//     the same model (like a query text, not a stored work).
//   - random: directions uniform on the sphere. No structure for any index to use: the worst case, where the
//     builder should decline to build an index at all.
import { loadavg } from 'node:os'
import {
  answersExactly,
  buildIvfIndex,
  IvfVectorIndex,
  int8MemoryRowSource,
  WorkVectorMatrix,
} from '@oqlkit/catalog'
import { SeededGaussian } from '@oqlkit/text-models'
import { formatMs, median, percentile } from './bench-stats.ts'

export interface SemanticIndexBenchOptions {
  readonly rows: number
  readonly kind: 'clustered' | 'random'
  readonly dimensions: number
  readonly queries: number
  readonly seed: number
  /** Run the sweep of search sizes (0.25× to 4× the calibrated `scanRows`). */
  readonly sweep: boolean
}

/** Spread of a topic around its field and of a work around its topic (in units of a unit vector's length). */
const TOPIC_SPREAD = 1.0
const WORK_SPREAD = 1.3
const FIELDS = 64
const WORKS_PER_TOPIC = 200

class VectorModel {
  readonly #random: SeededGaussian
  readonly #d: number
  readonly #topics: Float64Array[] = []
  readonly #cumulative: Float64Array

  constructor(
    readonly kind: 'clustered' | 'random',
    rows: number,
    d: number,
    seed: number,
  ) {
    this.#random = new SeededGaussian(seed)
    this.#d = d
    const fields = Array.from({ length: FIELDS }, () => this.#around(undefined, 1))
    const topics = Math.max(1, Math.round(rows / WORKS_PER_TOPIC))
    for (let topic = 0; topic < topics; topic++)
      this.#topics.push(this.#around(fields[topic % FIELDS], TOPIC_SPREAD))
    this.#cumulative = new Float64Array(topics)
    let sum = 0
    for (let topic = 0; topic < topics; topic++) {
      sum += 1 / (topic + 1) ** 0.7
      this.#cumulative[topic] = sum
    }
  }

  /** A unit vector: `centre` plus Gaussian noise of length about `spread` (or a random direction). */
  #around(centre: Float64Array | undefined, spread: number): Float64Array {
    const d = this.#d
    const vector = new Float64Array(d)
    let length = 0
    for (let k = 0; k < d; k++) {
      vector[k] = (centre?.[k] ?? 0) + (spread * this.#random.next()) / Math.sqrt(d)
      length += vector[k]! ** 2
    }
    length = Math.sqrt(length)
    for (let k = 0; k < d; k++) vector[k] = vector[k]! / length
    return vector
  }

  next(): Float64Array {
    if (this.kind === 'random') return this.#around(undefined, 1)
    const total = this.#cumulative[this.#cumulative.length - 1]!
    const target = this.#random.uniform() * total
    let low = 0
    let high = this.#cumulative.length - 1
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.#cumulative[middle]! < target) low = middle + 1
      else high = middle
    }
    return this.#around(this.#topics[low], WORK_SPREAD)
  }
}

/** The int8 quantisation of the catalog (`vector-quantizer.ts`): largest component ±127, rounded. */
const quantizeInto = (vector: Float64Array, values: Int8Array, at: number): number => {
  let largest = 0
  for (const component of vector) largest = Math.max(largest, Math.abs(component))
  let squares = 0
  for (let k = 0; k < vector.length; k++) {
    const component = Math.round((vector[k]! * 127) / largest)
    values[at + k] = component
    squares += component * component
  }
  return Math.sqrt(squares)
}

const overlap = (found: readonly { id: string }[], truth: readonly { id: string }[], k: number): number => {
  const wanted = new Set(truth.slice(0, k).map((match) => match.id))
  if (wanted.size === 0) return 1
  return found.slice(0, k).filter((match) => wanted.has(match.id)).length / wanted.size
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length

export async function runSemanticIndexBench(options: SemanticIndexBenchOptions): Promise<void> {
  const { rows, dimensions: d } = options
  const model = new VectorModel(options.kind, rows, d, options.seed)
  let started = performance.now()
  const values = new Int8Array(rows * d)
  const norms = new Float32Array(rows)
  for (let row = 0; row < rows; row++) norms[row] = quantizeInto(model.next(), values, row * d)
  const ids = Array.from({ length: rows }, (_, row) => `W${String(row).padStart(10, '0')}`)
  const matrix = new WorkVectorMatrix(ids, values, norms, d)
  const queries = Array.from({ length: options.queries }, () => Float32Array.from(model.next()))
  console.log(
    `${rows.toLocaleString('en-US')} ${options.kind} vectors of ${d} dimensions drawn in ${formatMs(performance.now() - started)}`,
  )

  started = performance.now()
  const built = await buildIvfIndex(int8MemoryRowSource(values, d), { seed: options.seed })
  const buildMs = performance.now() - started
  const { calibration } = built
  console.log(
    `index build: ${formatMs(buildMs)}; ${calibration.lists} lists, trained on ${calibration.sampleRows.toLocaleString('en-US')} rows; calibrated on ${calibration.queries} sample rows: scanRows ${calibration.scanRows.toLocaleString('en-US')} (${((100 * calibration.scanRows) / rows).toFixed(2)}% of the rows) for recall ${calibration.recall.toFixed(3)}`,
  )
  if (built.index === undefined) console.log(`no index: ${built.reason}`)

  // The exact answers, once: the truth every variant is measured against, and the exact scan's latency.
  const exactMs: number[] = []
  const truth = queries.map((query) => {
    const begun = performance.now()
    const found = matrix.nearest(query, 50)
    exactMs.push(performance.now() - begun)
    return found
  })
  const tenth = mean(truth.map((found) => found[9]?.score ?? 0))
  console.log(`mean cosine of a query's 10th nearest work: ${tenth.toFixed(3)}\n`)

  const rowsOut: string[] = []
  const measure = (
    label: string,
    search: (query: Float32Array) => readonly { id: string }[],
    exact = truth,
  ) => {
    const times: number[] = []
    const at10: number[] = []
    const at50: number[] = []
    queries.forEach((query, index) => {
      const begun = performance.now()
      const found = search(query)
      times.push(performance.now() - begun)
      at10.push(overlap(found, exact[index]!, 10))
      at50.push(overlap(found, exact[index]!, 50))
    })
    rowsOut.push(
      `| ${label} | ${mean(at10).toFixed(3)} | ${mean(at50).toFixed(3)} | ${formatMs(median(times))} | ${formatMs(percentile(times, 95))} |`,
    )
  }
  rowsOut.push(`| exact scan | 1 | 1 | ${formatMs(median(exactMs))} | ${formatMs(percentile(exactMs, 95))} |`)
  const index = built.index
  if (index !== undefined) {
    measure(`index (scanRows ${index.scanRows.toLocaleString('en-US')})`, (query) =>
      index.nearest(matrix, query, 50),
    )
    if (options.sweep)
      for (const factor of [0.25, 0.5, 2, 4]) {
        const scanRows = Math.max(1, Math.round(index.scanRows * factor))
        if (scanRows >= rows) continue
        const resized = new IvfVectorIndex({ ...index, scanRows })
        measure(`index, ${factor}× scanRows (${scanRows.toLocaleString('en-US')})`, (query) =>
          resized.nearest(matrix, query, 50),
        )
      }
    // Filters: random masks that keep a share of the works (seeded), against the exact scan of the same mask.
    const random = new SeededGaussian(options.seed + 1)
    for (const share of [0.5, 0.1, 0.02, 0.01, 0.001]) {
      const kept = ids.filter(() => random.uniform() < share)
      const candidates = matrix.candidatesOf(kept)
      const exactTimes: number[] = []
      const exact = queries.map((query) => {
        const begun = performance.now()
        const found = matrix.nearest(query, 50, candidates)
        exactTimes.push(performance.now() - begun)
        return found
      })
      rowsOut.push(
        `| exact scan, filter keeping ${share * 100}% | 1 | 1 | ${formatMs(median(exactTimes))} | ${formatMs(percentile(exactTimes, 95))} |`,
      )
      const exactly = answersExactly(candidates.count, index.scanRows, rows)
      measure(
        `index, filter keeping ${share * 100}% (${candidates.count.toLocaleString('en-US')} rows)${exactly ? ': answered exactly' : ''}`,
        (query) => index.nearest(matrix, query, 50, candidates),
        exact,
      )
    }
  }
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(', ')
  console.log(
    `${options.queries} queries, 50 nearest each; recall against the exact scan of the same rows; load average ${load()}\n`,
  )
  console.log('| search | recall@10 | recall@50 | median | p95 |')
  console.log('|---|---:|---:|---:|---:|')
  for (const line of rowsOut) console.log(line)
}
