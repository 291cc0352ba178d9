// What each step of the ingest's parse worker costs per work in CPU, on the snapshot's own works, one step at a
// time on one thread: reading the gzipped part and splitting lines, `JSON.parse`, the extraction of every derived
// value, the staged row's JSON, and the record's compression for the record store. From the sum, the most
// works per second the parse workers could reach on this machine's cores if nothing else ran; and from the
// steps every ingest must take (read, parse, compress the record), the most any ingest written this way could.
// Compare those ceilings with the DuckDB floor (`bench/ingest-floor.ts`) on the same files. Every record codec is
// timed, compressing and decompressing, with the size of what it writes; the sums count the codec and
// dictionary new record stores are written with (zstd, trained by the zstd command where it is installed).
// Beside the worker's steps, the native path's (record-extraction-sql.ts): the lines framed with their
// number for DuckDB, and DuckDB's typed read of them with every staged value computed (one DuckDB thread).
//
//   npm run bench:parse-cost -- [--snapshot DIR] [--works 5000] [--rounds 5]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import {
  buildRecordDictionary,
  constantLiteral,
  quoteIdentifier,
  RECORD_CODEC_ID,
  RECORD_CODEC_IDS,
  type RecordCodecId,
  recordCodecOf,
} from '@oqlkit/catalog'
import {
  DICTIONARY_EXAMPLES,
  planSnapshot,
  recordCodingFor,
  recordExtractionSpecOf,
  recordExtractorOf,
} from '@oqlkit/ingest'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'
import { readTextLines } from '../src/parse/line-reader.ts'
import { stagedRowLine } from '../src/parse/part-parser.ts'
import { typedExtractionSql } from '../src/parse/record-extraction-sql.ts'

const { values } = parseArgs({
  options: {
    snapshot: { type: 'string', default: SAMPLE_SNAPSHOT_DIR },
    works: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '5' },
  },
})
const wanted = Number(values.works)
const rounds = Number(values.rounds)

// The works' parts holding at least `wanted` works, read through the worker's own line reader: each line's
// bytes and its text, as the worker gets both (the text for JSON.parse, the bytes for the record store, which
// takes them as they are when they are the text's). Every step below re-runs on these lines; the split re-reads
// the same parts.
const partPaths: string[] = []
const lineBytes: Buffer[] = []
const lines: string[] = []
// The works' JSON Lines parts, as the ingest plans them (every layout the ingest reads).
const plan = await planSnapshot(values.snapshot)
for (const part of plan.parts.filter((part) => part.entity.entity === 'works' && part.format === 'jsonl')) {
  partPaths.push(part.path)
  for await (const { text, bytes } of readTextLines(part.path)) {
    if (text === '') continue
    lines.push(text)
    lineBytes.push(bytes ?? Buffer.from(text))
  }
  if (lines.length >= wanted) break
}
/**
 * The timed split: the parts read again through the line reader (`readTextLines`: the file streamed through
 * node:zlib's gunzip, each line's bytes and text handed on and let go). Every timed step lets its outputs go
 * likewise: kept until the step ends (an array of 9,298 parsed works), they outlived the young generation, and
 * the collections they caused over the bench's other live data were timed as the step's (the split read 257 µs
 * a work so, against 90 µs now; BENCHMARKS.md, cn′).
 */
const split = async (): Promise<void> => {
  for (const path of partPaths) for await (const line of readTextLines(path)) void line
}
/** Runs `step` on every item, keeping nothing it returns (see `split`). */
const each =
  <T>(items: readonly T[], step: (item: T, index: number) => unknown) =>
  (): void => {
    for (let index = 0; index < items.length; index++) step(items[index]!, index)
  }
const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
const extract = recordExtractorOf(recordExtractionSpecOf('works'))
const extracted = records.map((record) => extract(record))
// Each codec with the raw dictionary (the tail of the first sixteen records, which format 6 and 7 wrote), and
// zstd with the dictionary ingest chooses now (trained by the zstd command on the first 2,000 works, when it
// compresses the held-out ones smaller), which the sums count.
const workDir = mkdtempSync(join(tmpdir(), 'oqlkit-parse-cost-'))
const chosenFor = (codec: RecordCodecId) =>
  recordCodingFor(undefined, async () => lines.slice(0, DICTIONARY_EXAMPLES), codec, {
    workDir: join(workDir, `dictionary-${codec}`),
  })
const chosen = await chosenFor(RECORD_CODEC_ID)
// The codec before it (zstd over the records as they came), trained the same way: shown beside, not counted.
const before = await chosenFor('zstd+dictionary')

// The native path: each line framed with its number (no parse), then read by DuckDB with the paths' schema.
const framedFile = join(workDir, 'framed.jsonl')
const frame = (): void =>
  writeFileSync(framedFile, lines.map((line, n) => `{"__n":${n},${line.slice(1)}\n`).join(''))
frame()
const duckdb = await createDuckDbInstance(':memory:', { threads: 1 })
const connection = await duckdb.connect()
const typed = typedExtractionSql(recordExtractionSpecOf('works'))
const readColumns = [['__n', 'BIGINT'] as const, ...typed.readColumns]
  .map(([name, type]) => `${constantLiteral(name)}: ${constantLiteral(type)}`)
  .join(', ')
const nativeSql = `CREATE OR REPLACE TABLE staged AS SELECT __n, ${typed.columns
  .map(({ name, sql }) => `${sql} AS ${quoteIdentifier(name)}`)
  .join(
    ', ',
  )} FROM read_json(${constantLiteral(framedFile)}, format = 'newline_delimited', columns = {${readColumns}}, maximum_object_size = 268435456)`

const codecs = [
  ...RECORD_CODEC_IDS.map((id) => ({
    name: `${id}, raw`,
    id,
    codec: recordCodecOf(id, buildRecordDictionary(lines.slice(0, 16), id)),
    counted: false,
  })),
  ...[
    { coding: before, counted: false },
    { coding: chosen, counted: true },
  ].map(({ coding, counted }) => ({
    name: `${coding.codec}, ${coding.dictionaryKind}${coding.warning === undefined ? '' : ` (${coding.warning})`}`,
    id: coding.codec,
    codec: recordCodecOf(coding.codec, coding.dictionary),
    counted,
  })),
].map((variant) => ({ ...variant, encoded: lines.map((line) => variant.codec.encode(line)) }))

/**
 * `counted`: in the sums of the worker's path (a codec other than the one new stores use is shown beside
 * them); `native`: in the sum of the native path.
 */
const steps: {
  name: string
  unavoidable: boolean
  counted: boolean
  native?: boolean
  run: () => unknown
}[] = [
  { name: 'gunzip and split lines', unavoidable: true, counted: true, native: true, run: split },
  { name: 'JSON.parse', unavoidable: true, counted: true, run: each(lines, (line) => JSON.parse(line)) },
  {
    name: 'extract derived values',
    unavoidable: false,
    counted: true,
    run: each(records, (record) => extract(record)),
  },
  {
    name: 'staged row as JSON',
    unavoidable: false,
    counted: true,
    run: each(extracted, (row, seq) =>
      stagedRowLine(
        {
          seq,
          id: 'W1',
          openalexId: 'https://openalex.org/W1',
          partitionDate: '2024-01-01',
          updatedDate: '2024-01-01T00:00:00',
          record: records[seq]!,
        },
        { part: 0, offset: seq * 4096, bytes: 4096 },
        row,
      ),
    ),
  },
  { name: 'native: frame lines for DuckDB', unavoidable: false, counted: false, native: true, run: frame },
  {
    name: 'native: DuckDB typed read + values',
    unavoidable: false,
    counted: false,
    native: true,
    run: () => connection.run(nativeSql),
  },
  ...codecs.flatMap(({ name, codec, encoded, counted }) => [
    {
      name: `compress (${name})`,
      unavoidable: true,
      counted,
      native: counted,
      // From the line's bytes, as the worker compresses a record it did not rewrite.
      run: each(lineBytes, (line) => codec.encode(line)),
    },
    {
      name: `decompress (${name})`,
      unavoidable: false,
      counted: false,
      run: each(encoded, (bytes) => codec.decode(bytes)),
    },
  ]),
]

const loadBefore = loadavg()[0]!
const perWork = new Map<string, number[]>()
for (let round = 0; round < rounds; round++)
  for (const step of steps) {
    // CPU, not wall time: the line reader gunzips on libuv's threads, beside the thread it splits on.
    const started = process.cpuUsage()
    await step.run()
    const spent = process.cpuUsage(started)
    const micros = (spent.user + spent.system) / lines.length
    perWork.set(step.name, [...(perWork.get(step.name) ?? []), micros])
  }
const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!

const cores = availableParallelism()
const rawBytes = lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0)
console.log(
  `parse cost of ${lines.length.toLocaleString('en-US')} works (${(rawBytes / lines.length / 1024).toFixed(1)} KiB of JSON each) from ${values.snapshot}, median of ${rounds} rounds, µs of CPU, one thread (load ${loadBefore.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after)`,
)
let all = 0
let unavoidable = 0
let native = 0
for (const step of steps) {
  const micros = median(perWork.get(step.name)!)
  if (step.native === true) native += micros
  if (step.counted) all += micros
  if (step.counted && step.unavoidable) unavoidable += micros
  const note =
    step.native === true && !step.counted
      ? '  (native path only)'
      : !step.counted
        ? '  (not in the sums)'
        : step.unavoidable
          ? '  (every ingest)'
          : ''
  console.log(`  ${step.name.padEnd(36)} ${micros.toFixed(1).padStart(7)} µs a work${note}`)
}
for (const { name, encoded } of codecs) {
  const bytes = encoded.reduce((sum, record) => sum + record.length, 0)
  console.log(`  ${`records (${name})`.padEnd(36)} ${(bytes / rawBytes).toFixed(3)} of their JSON`)
}
const ceiling = (micros: number) => Math.round((cores * 1e6) / micros).toLocaleString('en-US')
console.log(
  `  ${'all steps'.padEnd(36)} ${all.toFixed(1).padStart(7)} µs a work: at most ${ceiling(all)} works/s on ${cores} cores`,
)
console.log(
  `  ${'native path'.padEnd(36)} ${native.toFixed(1).padStart(7)} µs a work: at most ${ceiling(native)} works/s on ${cores} cores (DuckDB on one thread)`,
)
console.log(
  `  ${'every ingest'.padEnd(36)} ${unavoidable.toFixed(1).padStart(7)} µs a work: at most ${ceiling(unavoidable)} works/s on ${cores} cores`,
)
connection.closeSync()
duckdb.closeSync()
rmSync(workDir, { recursive: true, force: true })
