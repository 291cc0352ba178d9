// `oqlkit serve` as a real process for the CLI tests: the built command (`bin/oqlkit.js`, which runs dist/ in
// its own process, so a SIGKILL sent to it reaches the server), or, for a test that preloads a TypeScript
// module into the server, the source through tsx's loader. Servers still running when a test file ends are
// killed.
import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { afterAll } from 'vitest'
import { builtCli } from './built-cli.ts'

const REPO = resolve(import.meta.dirname, '../../../..')
const SOURCE_ENTRY = resolve(REPO, 'packages/cli/src/bin.ts')

export interface ServerProcess {
  readonly child: ChildProcess
  /** `http://127.0.0.1:<port>` of the main API. */
  readonly url: string
  /** Everything the process wrote so far, stdout and stderr. */
  readonly output: () => string
  /** `signal` (SIGINT unless given), then the exit code. */
  readonly stop: (signal?: NodeJS.Signals) => Promise<number | null>
  /** SIGKILL: no chance to flush anything. Resolves once the process is gone. */
  readonly kill: () => Promise<void>
}

const running = new Set<ChildProcess>()
afterAll(() => {
  for (const child of running) child.kill('SIGKILL')
})

/**
 * A port unlikely to be taken, for a server of a test: below Linux's ephemeral range (32768 and up), where
 * the outgoing connections of everything else on the machine take theirs.
 */
export const randomPort = (): number => 20_000 + Math.floor(Math.random() * 12_000)

/** Starts before giving up when the port chosen turns out to be taken after all. */
const PORT_ATTEMPTS = 5

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms))

/**
 * Starts `oqlkit serve --catalog <dir> --port <random> ...args` and waits until it answers; on another
 * random port when the one chosen was taken meanwhile (EADDRINUSE). Without a folder (`undefined`), the
 * arguments say what to serve (`--clickhouse URL`). `nodeArgs` go to node itself (`--import` of a module
 * that a test runs inside the server process); with them the server runs from the source.
 */
export const startServerProcess = async (
  catalogDir: string | undefined,
  args: readonly string[] = [],
  nodeArgs: readonly string[] = [],
): Promise<ServerProcess> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(catalogDir, args, nodeArgs)
    } catch (error) {
      if (attempt >= PORT_ATTEMPTS || !(error instanceof PortTakenError)) throw error
    }
  }
}

class PortTakenError extends Error {}

const startOnce = async (
  catalogDir: string | undefined,
  args: readonly string[],
  nodeArgs: readonly string[],
): Promise<ServerProcess> => {
  const port = randomPort()
  // A preload written in TypeScript needs tsx's loader, and then the source runs through it too.
  const command =
    nodeArgs.length === 0
      ? [await builtCli()]
      : ['--conditions=@oqlkit/source', '--import', 'tsx', ...nodeArgs, SOURCE_ENTRY]
  const child = spawn(
    process.execPath,
    [
      ...command,
      'serve',
      ...(catalogDir === undefined ? [] : ['--catalog', catalogDir]),
      '--port',
      String(port),
      ...args,
    ],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  running.add(child)
  let output = ''
  const collect = (chunk: Buffer) => {
    output += chunk.toString()
  }
  child.stdout?.on('data', collect)
  child.stderr?.on('data', collect)
  const exited = new Promise<number | null>((done) =>
    child.on('exit', (code) => {
      running.delete(child)
      done(code)
    }),
  )
  const url = `http://127.0.0.1:${port}`
  const started = Date.now()
  for (;;) {
    if (child.exitCode !== null) {
      const message = `oqlkit serve exited (${child.exitCode}): ${output}`
      throw output.includes('EADDRINUSE') && output.includes(`:${port}`)
        ? new PortTakenError(message)
        : new Error(message)
    }
    try {
      await fetch(`${url}/`)
      break
    } catch (error) {
      if (Date.now() - started > 120_000) {
        child.kill('SIGKILL')
        throw error
      }
      await pause(150)
    }
  }
  return {
    child,
    url,
    output: () => output,
    stop: async (signal = 'SIGINT') => {
      child.kill(signal)
      return exited
    },
    kill: async () => {
      child.kill('SIGKILL')
      await exited
    },
  }
}
