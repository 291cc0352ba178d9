#!/usr/bin/env node
// Runs the CLI from its TypeScript source (there is no build step yet): a child node with the
// source export condition and the tsx loader, so `oqlkit` behaves the same as `npm run oqlkit`.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const entry = fileURLToPath(new URL('../src/bin.ts', import.meta.url))
const result = spawnSync(
  process.execPath,
  ['--conditions=@oqlkit/source', '--import', 'tsx', entry, ...process.argv.slice(2)],
  { stdio: 'inherit' },
)
process.exit(result.status ?? 1)
