// `oqlkit serve` from the built CLI (what users run), started on a free port and timed to its first answered
// `/works?per_page=1`: the scale run's serve step and `bench:serve-start` both start it so.
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { freePort } from './http-load-runner.ts'

export interface BuiltServeProcess {
  readonly base: string
  /** From the spawn to the first answered `/works?per_page=1`. */
  readonly firstAnswerMs: number
  /** The server's peak resident memory so far (Linux's VmHWM), in MB. */
  readonly peakRssMb: () => number
  /** The server's CPU so far, user and system (Linux's /proc/PID/stat, in clock ticks of 1/100 s). */
  readonly cpuSeconds: () => number
  readonly stop: () => Promise<void>
}

export async function startBuiltServe(options: {
  /** The CLI's bin (packages/cli/bin/oqlkit.js of a built checkout). */
  readonly cli: string
  readonly catalogDir: string
  readonly cwd?: string
  /** How long the first answer may take (default 10 minutes: a 10M catalog's open). */
  readonly timeoutMs?: number
}): Promise<BuiltServeProcess> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(
    process.execPath,
    [
      options.cli,
      'serve',
      '--catalog',
      options.catalogDir,
      '--port',
      String(port),
      '--access-log',
      'off',
      '--no-collections',
    ],
    { ...(options.cwd === undefined ? {} : { cwd: options.cwd }), stdio: ['ignore', 'ignore', 'pipe'] },
  )
  const exited = new Promise((done) => child.once('exit', done))
  let errors = ''
  child.stderr.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString('utf8')).slice(-4000)
  })
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
  }
  const base = `http://127.0.0.1:${port}`
  const timeoutMs = options.timeoutMs ?? 600_000
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`oqlkit serve exited (${child.exitCode}):\n${errors}`)
      const answered = await fetch(`${base}/works?per_page=1`).then(
        async (response) => {
          await response.arrayBuffer()
          return response.status === 200
        },
        () => false,
      )
      if (answered) break
      if (performance.now() - started > timeoutMs)
        throw new Error(`oqlkit serve gave no answer in ${timeoutMs / 1000} s:\n${errors}`)
      await new Promise((done) => setTimeout(done, 20))
    }
  } catch (error) {
    await stop()
    throw error
  }
  const firstAnswerMs = performance.now() - started
  const pid = child.pid!
  return {
    base,
    firstAnswerMs,
    peakRssMb: () =>
      Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024),
    cpuSeconds: () => {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      return (Number(fields[11]) + Number(fields[12])) / 100
    },
    stop,
  }
}
