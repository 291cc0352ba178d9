// The parse pool on real worker threads: tasks start costliest first, results and files do not depend on
// the order tasks ran in, a bad line stops the pool with the IngestError the worker described, and the
// work a listener starts for a finished task (the loading of its rows) is waited for, its failure the pool's.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import { buildRecordDictionary, RECORD_CODEC_ID, recordCodecOf } from '@oqlkit/catalog'
import { afterAll, describe, expect, it } from 'vitest'
import { IngestError } from '../src/ingest-error.ts'
import {
  defaultParseWorkers,
  INLINE_PARSE_BELOW_BYTES,
  type ParseDone,
  runParseTasks,
} from '../src/parse/part-parse-pool.ts'
import type { ParseTask, ParseWorkerData } from '../src/parse/part-parser.ts'
import { recordExtractionSpecs } from '../src/parse/record-extraction-spec.ts'
import { work } from './support/snapshot-fixtures.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-parse-pool-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** Part files of 2, 7 and 4 works (by position), as JSON Lines. */
const sizes = [2, 7, 4]
const parts = sizes.map((count, part) => {
  const path = join(scratch, `part-${part}.jsonl`)
  const lines = Array.from({ length: count }, (_, n) =>
    JSON.stringify(work(part * 100 + n + 1, '2024-01-01')),
  )
  writeFileSync(path, `${lines.join('\n')}\n`)
  return path
})

const workerData: ParseWorkerData = {
  specs: recordExtractionSpecs(),
  parquetMemoryLimit: '256MiB',
  parquetTempDirectory: join(scratch, 'parquet-readers'),
}

const tasksIn = (run: string): ParseTask[] =>
  parts.map((path, index) => ({
    index,
    entity: 'works',
    path,
    format: 'jsonl',
    codec: RECORD_CODEC_ID,
    partitionDate: '2024-01-01',
    seqBase: (index + 1) * 2 ** 32,
    segmentPath: join(scratch, `${run}-${index}.records`),
    rowsPath: join(scratch, `${run}-${index}.jsonl`),
    dictionary: buildRecordDictionary([]),
  }))

/**
 * Runs the three parts by cost on `workers` workers (0: this thread) and checks that the costliest started
 * first and that the results come in task order.
 */
const expectCostliestFirst = async (run: string, workers: number): Promise<ParseDone[]> => {
  const started: number[] = []
  const results = await runParseTasks(tasksIn(run), workerData, workers, {
    cost: (task) => sizes[task.index]!,
    onDone: (task) => {
      started.push(task.index)
    },
  })
  expect(started).toStrictEqual([1, 2, 0])
  expect(results.map((done) => [done.index, done.records])).toStrictEqual([
    [0, 2],
    [1, 7],
    [2, 4],
  ])
  return results
}

/**
 * The three parts run on two workers, once, with a listener whose work on each finished task (a load) takes
 * 200 ms: the run the costliest-first run (one worker) and the run on this thread are compared with, and the
 * one that shows the pool waits for its listener (which tasks' loads had ended when the pool's run did). Each
 * pool's two workers cost ~1.4 s of CPU to start.
 */
let onTwoWorkers: Promise<{ results: ParseDone[]; loadedWhenDone: number[] }> | undefined
const twoWorkerRun = async (): Promise<ParseDone[]> => (await twoWorkerRunWithLoads()).results
const twoWorkerRunWithLoads = () => {
  onTwoWorkers ??= (async () => {
    const loaded: number[] = []
    const slowLoad = (index: number) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          loaded.push(index)
          resolve()
        }, 200),
      )
    const results = await runParseTasks(tasksIn('workers'), workerData, 2, {
      onDone: (task) => slowLoad(task.index),
    })
    return { results, loadedWhenDone: [...loaded] }
  })()
  return onTwoWorkers
}

/** What parsing a part whose second line is broken JSON fails with, on `workers` workers (0: this thread). */
const parseBadLine = async (run: string, workers: number): Promise<unknown> => {
  const bad = join(scratch, `${run}.jsonl`)
  writeFileSync(bad, `${JSON.stringify(work(1, '2024-01-01'))}\n{"id": \n`)
  const [task] = tasksIn(run)
  return runParseTasks([{ ...task!, path: bad }], workerData, workers).catch((reason: unknown) => reason)
}

describe('part parse pool (worker threads)', () => {
  it('starts the costliest task first, and gives results and files in task order whatever ran first', async () => {
    await expectCostliestFirst('cost', 1)
    const inOrder = await twoWorkerRun()
    expect(inOrder.map((done) => done.records)).toStrictEqual(sizes)
    for (const index of sizes.keys()) {
      expect(readFileSync(join(scratch, `cost-${index}.records`))).toStrictEqual(
        readFileSync(join(scratch, `workers-${index}.records`)),
      )
      expect(readFileSync(join(scratch, `cost-${index}.jsonl`), 'utf8')).toBe(
        readFileSync(join(scratch, `workers-${index}.jsonl`), 'utf8'),
      )
    }
    const rows = readFileSync(join(scratch, 'cost-1.jsonl'), 'utf8').trim().split('\n')
    expect(rows.map((line) => (JSON.parse(line) as { id: string }).id)).toStrictEqual(
      Array.from({ length: 7 }, (_, n) => `W${101 + n}`),
    )
  }, 60_000)

  it('stops at a bad line with the error the worker found, naming the file and line', async () => {
    const error = await parseBadLine('bad', 1)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).code).toBe('invalid-json')
    expect((error as IngestError).file).toBe(join(scratch, 'bad.jsonl'))
    expect((error as IngestError).line).toBe(2)
  }, 60_000)

  it('asks a busy worker to stop when another fails, rather than terminating it mid-record', async () => {
    // Terminating a worker inside a zlib call aborts the whole process on Node 20, so every worker must
    // leave on its own (exit code 0), even one that is still reading a long part when the other fails.
    const long = join(scratch, 'long.jsonl')
    const line = `${JSON.stringify(work(1, '2024-01-01'))}\n`
    writeFileSync(long, line.repeat(40_000))
    const bad = join(scratch, 'bad-first.jsonl')
    writeFileSync(bad, '{"id": \n')
    const [first, second] = tasksIn('busy')
    const exitCodes: number[] = []
    let progressReports = 0
    const error = await runParseTasks(
      [
        { ...first!, path: long },
        { ...second!, path: bad },
      ],
      workerData,
      2,
      {
        // The long part starts first and is well under way before the bad one is read.
        cost: (task) => (task.index === 0 ? 2 : 1),
        onProgress: () => {
          progressReports++
        },
        onWorkerExit: (code) => exitCodes.push(code),
      },
    ).catch((reason: unknown) => reason)
    expect((error as IngestError).code).toBe('invalid-json')
    expect(exitCodes).toStrictEqual([0, 0])
    // The long part was stopped, not read to its end: 40,000 records would report progress 8 times.
    expect(progressReports).toBeLessThan(8)
  }, 60_000)

  it("waits for the listener's work on each finished task, and fails with it when it fails", async () => {
    const { results, loadedWhenDone } = await twoWorkerRunWithLoads()
    expect(results).toHaveLength(3)
    expect([...loadedWhenDone].sort()).toStrictEqual([0, 1, 2])

    const error = await runParseTasks(tasksIn('refused'), workerData, 2, {
      onDone: async (task) => {
        if (task.index === 1) throw new Error('the rows of part 1 could not be loaded')
      },
    }).catch((reason: unknown) => reason)
    expect((error as Error).message).toBe('the rows of part 1 could not be loaded')
  }, 60_000)
})

describe('part parse pool without workers (a snapshot too small to be worth starting them)', () => {
  it('parses on this thread: the same files, results and order of starting as the workers give', async () => {
    const inline = await expectCostliestFirst('inline', 0)
    const onWorkers = await twoWorkerRun()
    expect(onWorkers).toStrictEqual(inline)
    for (const index of sizes.keys()) {
      expect(readFileSync(join(scratch, `inline-${index}.records`))).toStrictEqual(
        readFileSync(join(scratch, `workers-${index}.records`)),
      )
      expect(readFileSync(join(scratch, `inline-${index}.jsonl`), 'utf8')).toBe(
        readFileSync(join(scratch, `workers-${index}.jsonl`), 'utf8'),
      )
    }
  })

  it("fails with the parser's error, or with a listener's, once the work it started has settled", async () => {
    const parseError = await parseBadLine('bad-inline', 0)
    expect((parseError as IngestError).code).toBe('invalid-json')
    expect((parseError as IngestError).line).toBe(2)

    const started: number[] = []
    const settled: number[] = []
    const listenerError = await runParseTasks(tasksIn('refused-inline'), workerData, 0, {
      onDone: (done) => {
        started.push(done.index)
        return new Promise<void>((resolve, reject) =>
          setTimeout(() => {
            settled.push(done.index)
            if (done.index === 0) reject(new Error('the rows of part 0 could not be loaded'))
            else resolve()
          }, 50),
        )
      },
    }).catch((reason: unknown) => reason)
    expect((listenerError as Error).message).toBe('the rows of part 0 could not be loaded')
    // Nothing is left running: every load begun had settled when the run failed.
    expect([...settled].sort()).toStrictEqual([...started].sort())
    expect(started).toContain(0)
  })

  it('chooses no workers below INLINE_PARSE_BELOW_BYTES of part files, one per core from there', () => {
    expect(defaultParseWorkers(0)).toBe(0)
    expect(defaultParseWorkers(INLINE_PARSE_BELOW_BYTES - 1)).toBe(0)
    expect(defaultParseWorkers(INLINE_PARSE_BELOW_BYTES)).toBe(Math.max(1, availableParallelism()))
  })
})

describe('part parse pool reading Parquet parts (worker threads, each with its own DuckDB)', () => {
  /**
   * The long JSON Lines part as Parquet in row groups of `rowGroup` rows; with each row's `to_json` text when
   * asked for (the texts of 20,000 works of 4 KB cost ~1 s of CPU that no check of that file reads).
   */
  const parquetOf = async (lines: readonly string[], name: string, rowGroup: number, withTexts = true) => {
    const jsonl = join(scratch, `${name}.jsonl`)
    writeFileSync(jsonl, `${lines.join('\n')}\n`)
    const path = join(scratch, `${name}.parquet`)
    const instance = await createDuckDbInstance()
    const connection = await instance.connect()
    await connection.run(
      `COPY (SELECT * FROM read_json_auto($1)) TO $2 (FORMAT parquet, ROW_GROUP_SIZE ${rowGroup})`,
      [jsonl, path],
    )
    const texts = withTexts
      ? (
          await connection.runAndReadAll(
            'SELECT CAST(to_json(t) AS VARCHAR) AS json FROM read_parquet($1) AS t ORDER BY file_row_number',
            [path],
          )
        )
          .getRowObjectsJson()
          .map((row) => String(row.json))
      : []
    connection.closeSync()
    instance.closeSync()
    return { path, texts }
  }

  /**
   * 5,000 works in row groups of 2,048 rows (DuckDB's least): three scan units. Written once, for the test that
   * reads every group and the one that breaks the last group's pages in a copy (the file itself is only read).
   */
  let threeGroups: ReturnType<typeof parquetOf> | undefined
  const threeGroupsParquet = () => {
    threeGroups ??= parquetOf(
      Array.from({ length: 5_000 }, (_, n) => JSON.stringify(work(n + 1, '2024-01-01'))),
      'three-groups',
      2_048,
    )
    return threeGroups
  }

  it('reads the rows of every row group in file order, each stored as its JSON text', async () => {
    // Three scan units, which must come back in order.
    const { path, texts } = await threeGroupsParquet()
    const dictionary = buildRecordDictionary(texts.slice(0, 16))
    const [task] = tasksIn('parquet')
    const [done] = await runParseTasks([{ ...task!, path, format: 'parquet', dictionary }], workerData, 1)
    expect(done!.records).toBe(5_000)
    const rows = readFileSync(task!.rowsPath, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(rows.map((row: { id: string }) => row.id)).toStrictEqual(
      Array.from({ length: 5_000 }, (_, n) => `W${n + 1}`),
    )
    const segment = readFileSync(task!.segmentPath)
    const codec = recordCodecOf(RECORD_CODEC_ID, dictionary)
    const stored = rows.map((row: { record_offset: number; record_bytes: number }) =>
      Buffer.from(
        codec.decode(segment.subarray(row.record_offset, row.record_offset + row.record_bytes)),
      ).toString('utf8'),
    )
    expect(stored).toStrictEqual(texts)
    // The derived values are those of the record itself.
    expect(rows[41]).toMatchObject({
      id: 'W42',
      external_ids: [['doi', '10.1000/test.42']],
      link_0: ['A42'],
    })
  }, 60_000)

  it('never ends a Parquet part short: a row group too big for the reader is an error naming --memory-limit', async () => {
    // One row group of 20,000 works of 4 KB (80 MB) under a 64 MiB reader: DuckDB fails or, streaming, stops.
    const lines = Array.from({ length: 20_000 }, (_, n) =>
      JSON.stringify(work(n + 1, '2024-01-01', { abstract: `${n} ${'words '.repeat(600)}` })),
    )
    const { path } = await parquetOf(lines, 'one-big-group', 20_480, false)
    const [task] = tasksIn('too-big')
    const error = await runParseTasks(
      [{ ...task!, path, format: 'parquet' }],
      { ...workerData, parquetMemoryLimit: '64MiB' },
      1,
    ).catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).code).toBe('invalid-parquet')
    expect((error as IngestError).file).toBe(path)
    expect((error as IngestError).detail).toContain('ingest with a larger --memory-limit')
  }, 60_000)

  it('names the file of a Parquet part whose pages cannot be decoded, and every worker leaves on its own', async () => {
    const { path } = await threeGroupsParquet()
    // The last row group's pages overwritten, the footer kept: the file opens, its pages do not decode. (DuckDB
    // reads ahead of the rows it has handed over, so here the error comes before the first row.)
    const instance = await createDuckDbInstance()
    const connection = await instance.connect()
    const [last] = (
      await connection.runAndReadAll(
        'SELECT min(coalesce(dictionary_page_offset, data_page_offset)) AS start FROM parquet_metadata($1) WHERE row_group_id = 2',
        [path],
      )
    ).getRowObjectsJson()
    connection.closeSync()
    instance.closeSync()
    const bytes = readFileSync(path)
    const footerStart = bytes.length - 8 - bytes.readUInt32LE(bytes.length - 8)
    const broken = join(scratch, 'broken.parquet')
    writeFileSync(broken, Buffer.from(bytes).fill(7, Number(last!.start), footerStart))
    const [first, second] = tasksIn('broken')
    const exitCodes: number[] = []
    const error = await runParseTasks(
      [
        { ...first!, path: broken, format: 'parquet' },
        { ...second!, path, format: 'parquet' },
      ],
      workerData,
      2,
      { onWorkerExit: (code) => exitCodes.push(code) },
    ).catch((reason: unknown) => reason)
    expect(error).toBeInstanceOf(IngestError)
    expect((error as IngestError).code).toBe('invalid-parquet')
    expect((error as IngestError).file).toBe(broken)
    // Which of its rows is bad is not known (a chunk decodes at once), so no line is named.
    expect((error as IngestError).line).toBeUndefined()
    expect((error as IngestError).detail).toMatch(/^the Parquet file cannot be read: Invalid Error: /)
    expect(exitCodes).toStrictEqual([0, 0])
  }, 60_000)
})
