#!/usr/bin/env node
// Runs the CLI from its TypeScript source (there is no build step yet): a child node with the
// source export condition and the tsx loader, so `oqlkit` behaves the same as `npm run oqlkit`.
// Signals are passed on, so Ctrl-C stops a server cleanly instead of orphaning it.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const entry = fileURLToPath(new URL('../src/bin.ts', import.meta.url))
const child = spawn(
  process.execPath,
  ['--conditions=@oqlkit/source', '--import', 'tsx', entry, ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    // Each running DuckDB statement holds a thread of libuv's pool (4 by default), which file reads need too:
    // a server sizes its connections from this, and the pool is sized before any code of ours runs.
    env: { UV_THREADPOOL_SIZE: '16', ...process.env },
  },
)
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal === null ? 1 : 128 + 2)
})
