// What the ingest's parse worker costs per work, whole: `PartParser` (the code a parse worker runs) over a
// snapshot's works parts on this thread, from a built tree's `dist/` (this repository's unless `--tree`), so
// that two commits can be compared side by side: build each in its own worktree and run this against each in
// turn. Prints the CPU per work and the bytes it wrote per work (the record segment and the staged rows),
// which must be the same for two trees that write the same files.
//
//   npm run bench:part-parser -- --snapshot DIR [--parts 2] [--tree DIR] [--runs 1]
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { buildRecordDictionary, RECORD_CODEC_ID } from '@oqlkit/catalog'
import { planSnapshot } from '@oqlkit/ingest'

const USAGE = 'usage: npm run bench:part-parser -- --snapshot DIR [--parts 2] [--tree DIR] [--runs 1]'
const { values } = parseArgs({
  options: {
    snapshot: { type: 'string' },
    parts: { type: 'string', default: '2' },
    tree: { type: 'string', default: resolve(import.meta.dirname, '../../..') },
    runs: { type: 'string', default: '1' },
  },
  strict: true,
})
const fail = (message: string): never => {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}
if (values.snapshot === undefined) fail('--snapshot is required')
const partCount = Number(values.parts)
const runs = Number(values.runs)
if (!Number.isSafeInteger(partCount) || partCount < 1)
  fail(`--parts must be a whole number above 0, not ${values.parts}`)
if (!Number.isSafeInteger(runs) || runs < 1) fail(`--runs must be a whole number above 0, not ${values.runs}`)

const dist = join(resolve(values.tree), 'packages/ingest/dist/parse')
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(dist, file)).href)) as T
const { PartParser } = await load<typeof import('../src/parse/part-parser.ts')>('part-parser.js').catch(() =>
  fail(`no built ingest in ${values.tree}: run \`npx tsc -b tsconfig.build.json\` there first`),
)
const { recordExtractionSpecs } =
  await load<typeof import('../src/parse/record-extraction-spec.ts')>('record-extraction-spec.js')

const plan = await planSnapshot(values.snapshot!)
const parts = plan.parts
  .filter((part) => part.entity.entity === 'works' && part.format === 'jsonl')
  .slice(0, partCount)
if (parts.length === 0) fail(`${values.snapshot} has no JSON Lines works parts`)

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-part-parser-bench-'))
try {
  // A raw dictionary (the codec's own form of the first records): the same for both trees, built by this one.
  const first = readFileSync(parts[0]!.path)
  const firstText = (first[0] === 0x1f && first[1] === 0x8b ? gunzipSync(first) : first).toString('utf8')
  const firstLines = firstText.split('\n').slice(0, 16)
  const dictionary = buildRecordDictionary(firstLines.filter((line) => line !== ''))
  const parser = new PartParser(
    {
      specs: recordExtractionSpecs(),
      parquetMemoryLimit: '512MiB',
      parquetTempDirectory: join(scratch, 'pq'),
    },
    'bench',
  )
  for (let run = 0; run < runs; run++) {
    let records = 0
    let micros = 0
    let segment = 0
    let rows = 0
    for (const [index, part] of parts.entries()) {
      const rowsPath = join(scratch, `${index}.rows`)
      const started = process.cpuUsage()
      const outcome = await parser.parse({
        index,
        entity: 'works',
        path: part.path,
        format: 'jsonl',
        codec: RECORD_CODEC_ID,
        dictionary,
        partitionDate: null,
        seqBase: 0,
        segmentPath: join(scratch, `${index}.records`),
        rowsPath,
      })
      const used = process.cpuUsage(started)
      if (outcome.kind !== 'done') fail(`${part.path}: ${JSON.stringify(outcome)}`)
      const done = outcome as Extract<typeof outcome, { kind: 'done' }>
      records += done.records
      micros += used.user + used.system
      segment += done.segmentBytes
      rows += statSync(rowsPath).size
    }
    console.log(
      `${values.tree}: ${records.toLocaleString('en-US')} works of ${parts.length} parts, ${(micros / records).toFixed(1)} µs of CPU a work; ` +
        `${Math.round(segment / records)} B of record and ${Math.round(rows / records)} B of staged row a work`,
    )
  }
  await parser.close()
} finally {
  rmSync(scratch, { recursive: true, force: true })
}
