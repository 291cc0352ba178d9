// Timing for the benchmarks: side-by-side runs, medians and percentiles. Each contender of a query runs in
// turn within every round (A, B, C, A, B, C, …), so a change in the machine's load falls on all of them alike.

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

/** Runs every contender `warmup` times untimed, then `rounds` times interleaved. */
export async function runSideBySide(
  contenders: readonly Contender[],
  rounds: number,
  warmup = 2,
): Promise<ContenderTimes[]> {
  for (let round = 0; round < warmup; round++) for (const contender of contenders) await contender.run()
  const times = contenders.map(() => [] as number[])
  for (let round = 0; round < rounds; round++)
    for (const [index, contender] of contenders.entries()) {
      const started = performance.now()
      await contender.run()
      times[index]!.push(performance.now() - started)
    }
  return contenders.map((contender, index) => ({ name: contender.name, times: times[index]! }))
}

export const formatMs = (ms: number): string =>
  Number.isNaN(ms) ? '—' : ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)
