// `npm test`: the static checks (`npm run typecheck`, then `npm run lint`) run beside the test files instead of
// before them. Run first, they were 27 s of a CI run's wall clock (typecheck 20.6 s, lint 6.7 s, on 2 cores)
// during which no test ran, while the test files leave about a tenth of the two cores idle (1.84-1.88 cores
// busy over ~10 minutes): beside them the checks take mostly time that was idle.
//
// The packages' dist/ is brought up to date first (`tsc -b tsconfig.build.json`: 0.4 s when nothing changed,
// as after `npm ci`): the type check's `tsc -b` and the tests that run the built packages
// (support/built-workspace.ts, pack-and-import) would otherwise write the same files at once.
//
// A failing check still fails the run at once: its output is printed and the test run stopped. The checks'
// output is held until they end (the test files' progress owns the terminal), and the run's status is the
// checks' when they failed, else the tests'. Arguments are passed to vitest (`npm test -- packages/oql`).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { resolve } from 'node:path'

const started = performance.now()
const seconds = () => `${((performance.now() - started) / 1000).toFixed(1)} s`

/** A child in a process group of its own, so that stopping it stops what `npm run` started beneath it too. */
const start = (args: readonly string[], captured: boolean): ChildProcess =>
  spawn('npm', ['run', '--silent', ...args], {
    stdio: captured ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    detached: true,
  })

const stop = (child: ChildProcess): void => {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch {
    // Gone already.
  }
}

const exitOf = (child: ChildProcess): Promise<number> =>
  new Promise((settle) => {
    child.on('error', (error) => {
      process.stderr.write(`${error.message}\n`)
      settle(1)
    })
    child.on('close', (code, signal) => settle(code ?? (signal === null ? 1 : 128)))
  })

const build = spawnSync(
  process.execPath,
  [resolve(import.meta.dirname, '../node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
  { cwd: resolve(import.meta.dirname, '..'), stdio: 'inherit' },
)
if (build.status !== 0) {
  process.stderr.write(`\nThe build of the packages (tsc -b tsconfig.build.json) failed: no test was run.\n`)
  process.exit(build.status ?? 1)
}

const checks = start(['check:static'], true)
let checksOutput = ''
checks.stdout?.on('data', (chunk: Buffer) => {
  checksOutput += chunk.toString('utf8')
})
checks.stderr?.on('data', (chunk: Buffer) => {
  checksOutput += chunk.toString('utf8')
})
const tests = start(['test:unit', '--', ...process.argv.slice(2)], false)

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    stop(checks)
    stop(tests)
  })

let checksTook = ''
const checksExit = exitOf(checks).then((code) => {
  checksTook = seconds()
  if (code !== 0) {
    const running = tests.exitCode === null && tests.signalCode === null
    process.stderr.write(
      `\n${checksOutput}\nThe type check or the lint failed (exit ${code}, after ${seconds()})${running ? ': the test run is stopped' : ''}.\n`,
    )
    stop(tests)
  }
  return code
})
const testsExit = await exitOf(tests)
const checksCode = await checksExit
if (checksCode === 0)
  process.stdout.write(
    `\nTypecheck and lint passed beside the tests, in ${checksTook} (the run: ${seconds()}).\n`,
  )
process.exitCode = checksCode !== 0 ? checksCode : testsExit
