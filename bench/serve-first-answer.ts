// `oqlkit serve`'s start: the time from spawning it to its first answered `/works?per_page=1` (issue 39's
// target: at most 2 s), and the server's CPU until then (Linux's /proc/PID/stat). With --against, a second
// `oqlkit` (another checkout's built bin/oqlkit.js) is started in turn with this one, run by run, so that both
// meet the same load: the figures are paired.
//
//   npm run bench:serve-start -- --catalog DIR [--runs 7] [--bin packages/cli/bin/oqlkit.js] [--against BIN]
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { median } from './bench-stats.ts'
import { startBuiltServe } from './built-serve-process.ts'

const { values } = parseArgs({
  options: {
    catalog: { type: 'string' },
    runs: { type: 'string', default: '7' },
    bin: { type: 'string', default: 'packages/cli/bin/oqlkit.js' },
    against: { type: 'string' },
  },
})
if (values.catalog === undefined) throw new Error('--catalog DIR: the catalog folder both servers serve')
const catalogDir = resolve(values.catalog)
const runs = Number(values.runs)
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs ${values.runs}: give a whole number of runs`)

async function firstAnswer(bin: string): Promise<{ ms: number; cpu: number }> {
  const server = await startBuiltServe({ cli: bin, catalogDir, timeoutMs: 120_000 })
  const cpu = server.cpuSeconds()
  await server.stop()
  return { ms: server.firstAnswerMs, cpu }
}

const contenders = [resolve(values.bin), ...(values.against === undefined ? [] : [resolve(values.against)])]
const times = contenders.map(() => ({ ms: [] as number[], cpu: [] as number[] }))
for (let run = 0; run < runs; run++)
  for (const [index, bin] of contenders.entries()) {
    const { ms, cpu } = await firstAnswer(bin)
    times[index]!.ms.push(ms)
    times[index]!.cpu.push(cpu)
  }
for (const [index, bin] of contenders.entries()) {
  const { ms, cpu } = times[index]!
  console.log(
    `${bin}: first answer median ${median(ms).toFixed(0)} ms (${Math.min(...ms).toFixed(0)}-${Math.max(...ms).toFixed(0)}), server CPU median ${median(cpu).toFixed(2)} s, ${runs} runs`,
  )
}
if (contenders.length === 2)
  console.log(`ratio (this / against): ${(median(times[0]!.ms) / median(times[1]!.ms)).toFixed(2)}`)
