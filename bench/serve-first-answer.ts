// `oqlkit serve`'s start: the time from spawning it to its first answered `/works?per_page=1` (issue 39's
// target: at most 2 s), and the server's CPU until then (Linux's /proc/PID/stat). With --against, a second
// `oqlkit` (another checkout's built bin/oqlkit.js) is started in turn with this one, run by run, so that both
// meet the same load: the figures are paired.
//
//   npm run bench:serve-start -- --catalog DIR [--runs 7] [--bin packages/cli/bin/oqlkit.js] [--against BIN]
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { median } from './bench-stats.ts'

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

const freePort = () =>
  new Promise<number>((done, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => done(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })

/** CPU seconds of a process so far (user + system, from /proc; clock ticks of 1/100 s). */
const cpuSecondsOf = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

async function firstAnswer(bin: string): Promise<{ ms: number; cpu: number }> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(
    process.execPath,
    [
      bin,
      'serve',
      '--catalog',
      catalogDir,
      '--port',
      String(port),
      '--access-log',
      'off',
      '--no-collections',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  const exited = new Promise((done) => child.once('exit', done))
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${bin} serve exited (${child.exitCode})`)
      const answered = await fetch(`http://127.0.0.1:${port}/works?per_page=1`).then(
        async (response) => {
          await response.arrayBuffer()
          return response.status === 200
        },
        () => false,
      )
      if (answered) break
      if (performance.now() - started > 120_000) throw new Error(`${bin} serve gave no answer in 2 minutes`)
      await new Promise((done) => setTimeout(done, 20))
    }
    return { ms: performance.now() - started, cpu: cpuSecondsOf(child.pid!) }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
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
