// HTTP throughput side by side: autocannon (a maintained load generator) against a real listening server
// process, our `oqlkit serve` and a bare h3 server of the same body size, taking turns run after run so both
// meet the same machine. Also the serving process's peak resident memory (VmHWM), for the memory table.
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { median } from './bench-stats.ts'

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
const NODE_SOURCE_ARGS = ['--conditions=@oqlkit/source', '--import', 'tsx']

export interface ServerProcess {
  readonly url: string
  readonly pid: number
  /** Peak resident memory so far, in bytes (Linux: VmHWM of /proc/<pid>/status). */
  readonly peakRssBytes: () => number | undefined
  readonly stop: () => Promise<void>
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

/** VmHWM of a process in bytes, or undefined where /proc is not there. */
export function peakRssOf(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match === null ? undefined : Number(match[1]) * 1024
  } catch {
    return undefined
  }
}

async function startProcess(args: readonly string[], label: string): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [...NODE_SOURCE_ARGS, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start in 120 s:\n${output}`)), 120_000)
    const look = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/?/.exec(output)
      if (match !== null) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    }
    child.stdout!.on('data', look)
    child.stderr!.on('data', look)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${label} exited (${code}) before serving:\n${output}`))
    })
  })
  const pid = child.pid!
  return {
    url,
    pid,
    peakRssBytes: () => peakRssOf(pid),
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      await exited
    },
  }
}

export const startOqlkitServer = async (catalogDir: string): Promise<ServerProcess> =>
  startProcess(
    [
      'packages/cli/src/bin.ts',
      'serve',
      '--catalog',
      catalogDir,
      '--port',
      String(await freePort()),
      '--no-metering',
    ],
    'oqlkit serve',
  )

export const startBareH3Server = (bodyBytes: number): Promise<ServerProcess> =>
  startProcess(['bench/bare-h3-server.ts', '--port', '0', '--body-bytes', String(bodyBytes)], 'bare h3')

/** A bare h3 server answering through the same adapter as oqlkit: singletons by id, and one list plan. */
export const startBareAdapterServer = (catalogDir: string, listUrl: string): Promise<ServerProcess> =>
  startProcess(
    ['bench/bare-h3-server.ts', '--port', '0', '--catalog', catalogDir, '--list-url', listUrl],
    'bare h3 over the adapter',
  )

export interface LoadRun {
  readonly requestsPerSecond: number
  readonly latencyMedianMs: number
  readonly latencyMeanMs: number
  readonly errors: number
}

export async function runLoad(
  url: string,
  paths: readonly string[],
  connections: number,
  seconds: number,
): Promise<LoadRun> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    // Each connection walks the list of requests in turn (singletons cycle through 64 ids).
    requests: paths.map((path) => ({ method: 'GET', path })),
  })
  return {
    requestsPerSecond: result.requests.average,
    latencyMedianMs: result.latency.p50,
    latencyMeanMs: result.latency.mean,
    errors: result.errors + result.timeouts + result.non2xx,
  }
}

export interface LoadComparison {
  readonly shape: string
  readonly connections: number
  readonly ours: readonly LoadRun[]
  readonly bare: readonly LoadRun[]
  /** Bare h3 over the same adapter, when measured. */
  readonly floor: readonly LoadRun[]
}

/** `runs` runs of each, alternating which goes first, so drift in the machine's load falls on both. */
export async function compareLoad(options: {
  readonly shape: string
  readonly ours: { readonly url: string; readonly paths: readonly string[] }
  readonly bare: { readonly url: string }
  /** Bare h3 over the same adapter, asked the same paths as ours. */
  readonly floor?: { readonly url: string }
  readonly connections: number
  readonly seconds: number
  readonly runs: number
}): Promise<LoadComparison> {
  const ours: LoadRun[] = []
  const bare: LoadRun[] = []
  const floor: LoadRun[] = []
  const sides = ['ours', 'bare', ...(options.floor === undefined ? [] : ['floor'])] as const
  for (let run = 0; run < options.runs; run++) {
    // Each run starts with another side, so drift in the machine's load falls on all of them.
    const order = sides.map((_, index) => sides[(index + run) % sides.length]!)
    for (const side of order)
      if (side === 'ours')
        ours.push(await runLoad(options.ours.url, options.ours.paths, options.connections, options.seconds))
      else if (side === 'bare')
        bare.push(await runLoad(options.bare.url, ['/bench'], options.connections, options.seconds))
      else
        floor.push(
          await runLoad(options.floor!.url, options.ours.paths, options.connections, options.seconds),
        )
  }
  return { shape: options.shape, connections: options.connections, ours, bare, floor }
}

/** Medians of a comparison, and the per-request overhead as the difference of mean service times. */
export function summariseLoad(comparison: LoadComparison) {
  const side = (runs: readonly LoadRun[]) => ({
    requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
    latencyMedianMs: median(runs.map((run) => run.latencyMedianMs)),
    latencyMeanMs: median(runs.map((run) => run.latencyMeanMs)),
    errors: runs.reduce((sum, run) => sum + run.errors, 0),
  })
  const ours = side(comparison.ours)
  const bare = side(comparison.bare)
  const floor = comparison.floor.length === 0 ? undefined : side(comparison.floor)
  return {
    shape: comparison.shape,
    connections: comparison.connections,
    ours,
    bare,
    // With the server busy all the time, 1/throughput is the time it spends on one request.
    serviceOverheadMs: 1000 / ours.requestsPerSecond - 1000 / bare.requestsPerSecond,
    latencyOverheadMs: ours.latencyMeanMs - bare.latencyMeanMs,
    ...(floor === undefined
      ? {}
      : { floor, overFloorServiceMs: 1000 / ours.requestsPerSecond - 1000 / floor.requestsPerSecond }),
  }
}
