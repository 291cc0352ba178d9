// Builds the bundled real-text sample (this package's `real-sample-snapshot/`) from the shared real works and
// prints what it wrote. Rerunnable: the output is replaced and byte-identical for the same input.
//
//   npm run build:real-sample -w @oqlkit/snapshot [-- --source <works.jsonl.gz>] [-- --out <dir>]
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildRealSampleSnapshot, REAL_SAMPLE_SNAPSHOT_DIR } from '../src/index.ts'

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))
const { values } = parseArgs({
  options: { source: { type: 'string' }, out: { type: 'string' } },
  allowPositionals: false,
})
const sourceFile = resolve(
  values.source ?? resolve(repoRoot, '..', 'shared', 'data', 'real-works', 'works.jsonl.gz'),
)
const outDir = resolve(values.out ?? REAL_SAMPLE_SNAPSHOT_DIR)
rmSync(join(outDir, 'works'), { recursive: true, force: true })
const written = buildRealSampleSnapshot({ sourceFile, outDir })
console.log(
  `wrote ${written.recordCount.toLocaleString('en')} works in ${written.parts.length} parts (${(written.contentLength / 1024 / 1024).toFixed(2)} MiB) to ${outDir}`,
)
