// Timing for the benchmarks: side-by-side runs, medians and percentiles. Each contender of a query runs in
// turn within every round, so a change in the machine's load falls on all of them alike; and the one that
// goes first changes from round to round (A B C, B C A, C A B, …), because the first to ask a new question
// pays for what the others then find in the operating system's cache.

export interface Contender {
  readonly name: string
  readonly run: () => Promise<unknown>
}

export interface ContenderTimes {
  readonly name: string
  /** Milliseconds, one per round. */
  readonly times: readonly number[]
}

export const median = (values: readonly number[]): number => percentile(values, 50)

/** Nearest-rank percentile. */
export const percentile = (values: readonly number[], p: number): number => {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[Math.min(rank, sorted.length) - 1]!
}

/**
 * Runs every contender `warmup` times untimed, then `rounds` times interleaved, the first of each round in
 * rotation. `onRoundEnd` runs after each round (warm-up rounds too): a round asks all contenders the same.
 */
export async function runSideBySide(
  contenders: readonly Contender[],
  rounds: number,
  options: { readonly warmup?: number; readonly onRoundEnd?: () => void } = {},
): Promise<ContenderTimes[]> {
  const warmup = options.warmup ?? 2
  for (let round = 0; round < warmup; round++) {
    for (const contender of contenders) await contender.run()
    options.onRoundEnd?.()
  }
  const times = contenders.map(() => [] as number[])
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < contenders.length; turn++) {
      const index = (round + turn) % contenders.length
      const started = performance.now()
      await contenders[index]!.run()
      times[index]!.push(performance.now() - started)
    }
    options.onRoundEnd?.()
  }
  return contenders.map((contender, index) => ({ name: contender.name, times: times[index]! }))
}

export const formatMs = (ms: number): string =>
  Number.isNaN(ms) ? '—' : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)
