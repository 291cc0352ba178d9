import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { translate } from '@oqlkit/oql'

// Translation throughput over the normative corpus: OQL → full `/query` result, and classic URL →
// full result. It measures the built package (`npm run bench` builds it first), the code a user of
// @oqlkit/oql runs: run from source, tsx's transform adds a call per function created (its keepNames
// helper), which costs 7-8% here. Each run translates every corpus query ROUNDS times; we report the median of RUNS runs, per
// second of this process' CPU time (user + system) and per second of wall clock. Node runs this on one core
// (the translation is synchronous), so both are per core; on a shared machine the CPU figure is the one that
// compares between runs, since the wall clock counts the time other processes held the core.

const RUNS = 7
const ROUNDS = 40
const WARMUP_PASSES = 3

interface Row {
  readonly status: string
  readonly oql: string
  readonly oxurl?: string | null
}

const corpusFile = resolve(import.meta.dirname, '../../../spec/conformance/oql-corpus.json')
const rows = (JSON.parse(readFileSync(corpusFile, 'utf8')) as { rows: Row[] }).rows.filter(
  (row) => row.status === 'ok',
)
const oqlInputs = rows.map((row) => ({ oql: row.oql }))
const urlInputs = rows.flatMap((row) => (row.oxurl == null ? [] : [{ oxurl: row.oxurl }]))

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const measure = (name: string, inputs: readonly object[]): void => {
  let failures = 0
  for (const input of inputs) if (!translate(input).validation.valid) failures++
  // Warm-up: let the JIT settle before timing. One pass of ROUNDS left the first timed run a quarter
  // slower than the rest (functions still being optimised); three leave it with them.
  for (let round = 0; round < WARMUP_PASSES * ROUNDS; round++) for (const input of inputs) translate(input)
  const rates: number[] = []
  const cpuRates: number[] = []
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now()
    const cpuStarted = process.cpuUsage()
    for (let round = 0; round < ROUNDS; round++) for (const input of inputs) translate(input)
    const cpu = process.cpuUsage(cpuStarted)
    const seconds = (performance.now() - started) / 1000
    rates.push((inputs.length * ROUNDS) / seconds)
    cpuRates.push((inputs.length * ROUNDS) / ((cpu.user + cpu.system) / 1e6))
  }
  const medianRate = median(rates)
  const medianCpuRate = median(cpuRates)
  const count = (rate: number) => Math.round(rate).toLocaleString('en-US')
  console.log(
    `${name.padEnd(14)} ${inputs.length} queries × ${ROUNDS} rounds × ${RUNS} runs: median ${count(medianCpuRate)}/s of CPU ` +
      `(${(1_000_000 / medianCpuRate).toFixed(1)} µs each; runs ${count(Math.min(...cpuRates))}-${count(Math.max(...cpuRates))}); ` +
      `wall clock ${count(medianRate)}/s (runs ${count(Math.min(...rates))}-${count(Math.max(...rates))}); ${failures} invalid`,
  )
}

const measured = import.meta.resolve('@oqlkit/oql').includes('/dist/') ? 'the built package' : 'the source'
console.log(`node ${process.version}, one core, ${measured}`)
measure('OQL → result', oqlInputs)
measure('URL → result', urlInputs)
