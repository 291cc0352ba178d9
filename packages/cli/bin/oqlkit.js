#!/usr/bin/env node
// The `oqlkit` command: runs the CLI's built JavaScript (dist/, made by `npm run build`, which `npm ci` runs).
//
// This file is CommonJS (bin/package.json says so) for one reason: the server sizes its DuckDB connections from
// libuv's thread pool (each running statement holds a pool thread, which file reads need too), and the pool is
// sized from UV_THREADPOOL_SIZE once, when first used. Node loads an ES module entry with asynchronous file
// reads, which start the pool at its default 4 threads before the entry's first line runs; a CommonJS entry is
// read synchronously, so setting the variable here, before anything is imported, still takes effect (measured:
// 16 pool threads this way, 4 from an ES module entry). A value the user set is kept.
process.env.UV_THREADPOOL_SIZE ??= '16'

const { existsSync } = require('node:fs')
const { join } = require('node:path')
const { pathToFileURL } = require('node:url')

const entry = join(__dirname, '..', 'dist', 'bin.js')
if (existsSync(entry)) {
  // The CLI reports its own errors, expected or not (dist/bin.js); this catches only a CLI that failed to load.
  import(pathToFileURL(entry).href).catch((error) => {
    process.stderr.write(`oqlkit: the CLI failed to load: ${error instanceof Error ? error.stack : error}\n`)
    process.exitCode = 1
  })
} else {
  process.stderr.write(
    `oqlkit: the built CLI is missing (${entry}). Run \`npm run build\` at the repository root (\`npm ci\` runs it too).\n`,
  )
  process.exitCode = 1
}
