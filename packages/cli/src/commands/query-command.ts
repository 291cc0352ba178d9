import { createWriteStream, existsSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import type { Writable } from 'node:stream'
import { finished } from 'node:stream/promises'
import { CatalogOpenError, createDuckDbAdapter, type DuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { DEFAULT_STREAM_BATCH_SIZE, isUnsupportedPlanError, type QueryPlan, streamRows } from '@oqlkit/engine'
import { type CliCommand, type CommandContext, type CommandResult, usageError } from './cli-command.ts'
import { choiceOption, parseCommandLine, UsageProblem } from './command-line-parser.ts'
import { DEFAULT_CATALOG_DIR } from './ingest-command-line.ts'
import { QUERY_COMMAND_LINE, QUERY_FORMATS } from './query-command-line.ts'
import { readQueryInput } from './query-input-reader.ts'
import { writeParquetRows, writeTextRows } from './query-output-writer.ts'
import { renderTable, TABLE_ROWS } from './query-table.ts'

type Format = (typeof QUERY_FORMATS)[number]

/**
 * The statements `--sql` prints: those of the first batch; the next batches continue after its last row. A
 * search by meaning is run first, as the query would run it: the works it finds are the statements' parameters.
 */
const sqlOf = async (adapter: DuckDbAdapter, plan: QueryPlan): Promise<string> => {
  const batch = Object.freeze({
    ...plan,
    page: Object.freeze({ kind: 'cursor', after: null, perPage: DEFAULT_STREAM_BATCH_SIZE }),
  })
  const compiled = adapter.compile(batch, await adapter.semanticInputs(batch))
  if (compiled.kind !== 'rows') throw new Error('a list query compiled to a group statement')
  const params = (values: readonly unknown[]) => `-- parameters: ${JSON.stringify(values)}`
  return [
    `-- The rows, ${DEFAULT_STREAM_BATCH_SIZE} a batch (one more is read to tell whether another batch follows). Each`,
    `-- next batch is the same statement with the sort keys (__k0, …) of the last row as a keyset bound.`,
    `${compiled.sql};`,
    params(compiled.params),
    '-- The count of every matching row:',
    `${compiled.count.sql};`,
    params(compiled.count.params),
    ...(compiled.locate === undefined
      ? []
      : ['-- The rows carry row numbers (__row); one more statement locates their records.']),
    `-- Each row's record is then read from the catalog's record store at its place (__ro, __rb)${compiled.select === null ? '' : `, keeping ${compiled.select.join(', ')}`}.`,
    '-- The statements run on the views oqlkit creates when it opens the catalog (see the README).',
    '',
  ].join('\n')
}

const failure = (stderr: string): CommandResult => ({ exitCode: 1, stderr: `oqlkit query: ${stderr}\n` })

/**
 * `oqlkit query` with its output going to `stdout` when there is no `--out` (the process's standard output
 * from the command line; a stream of the caller's in tests and embedders).
 */
export const runQueryCommand = async (
  args: readonly string[],
  context: CommandContext,
  stdout: Writable & { readonly isTTY?: boolean },
): Promise<CommandResult> => {
  let read: ReturnType<typeof readOptions>
  try {
    read = readOptions(args, stdout)
  } catch (error) {
    if (error instanceof UsageProblem) return usageError(queryCommand, error.message)
    throw error
  }
  const { values, positionals, format } = read

  const text = positionals[0] === '-' ? await context.readStdin() : positionals[0]!
  const reading = readQueryInput(text)
  if (!reading.ok)
    return failure(`the query cannot run:\n${reading.problems.map((problem) => `  - ${problem}`).join('\n')}`)
  const { plan } = reading.planned
  for (const note of reading.notes) context.writeProgress(`oqlkit query: ${note}\n`)

  const outProblem =
    values.out === undefined || values.sql === true ? undefined : outFileProblem(values.out, format)
  if (outProblem !== undefined) return failure(outProblem)

  const catalogDir = resolve(values.catalog ?? DEFAULT_CATALOG_DIR)
  if (!existsSync(catalogDir) || !statSync(catalogDir).isDirectory())
    return failure(
      `there is no catalog folder ${catalogDir}. Give one with --catalog DIR, or build one: oqlkit ingest <snapshot-dir> --out ${values.catalog ?? DEFAULT_CATALOG_DIR} (oqlkit serve builds ${DEFAULT_CATALOG_DIR} from the bundled sample on its first start).`,
    )
  let adapter: DuckDbAdapter
  try {
    adapter = await createDuckDbAdapter({ catalogDir })
  } catch (error) {
    if (error instanceof CatalogOpenError) return failure(error.message)
    throw error
  }
  try {
    if (values.sql === true) return { exitCode: 0, stdout: await sqlOf(adapter, plan) }
    if (format === 'table') {
      const first = await streamRows(adapter, plan, { batchSize: TABLE_ROWS }).next()
      const table =
        first.done === true
          ? renderTable([], 0, plan.select)
          : renderTable(first.value.rows, first.value.count, plan.select)
      if (values.out === undefined) return { exitCode: 0, stdout: table }
      const file = createWriteStream(values.out)
      file.end(table)
      await finished(file)
      return { exitCode: 0 }
    }

    // Every row, streamed: one batch in memory, the next read once the last is written. The first batch is
    // read before the output is opened, so a query the catalog cannot answer leaves --out as it was.
    const stop = new AbortController()
    const batches = await startedStream(streamRows(adapter, plan, { signal: stop.signal }))
    let lastDrawn = 0
    const progress = (rows: number, count: number) => {
      if (!context.interactive || (rows < count && Date.now() - lastDrawn < 100)) return
      lastDrawn = Date.now()
      context.writeProgress(
        `\r${rows.toLocaleString('en-US')} of ${count.toLocaleString('en-US')} rows written`,
      )
    }
    let rows: number
    if (format === 'parquet') {
      rows = await writeParquetRows(batches, plan.select, resolve(values.out!), progress, stop.signal)
    } else {
      const sink = values.out === undefined ? stdout : createWriteStream(values.out)
      // A reader that goes away (`oqlkit query … | head`) ends the query: the statement running is interrupted.
      let gone: Error | undefined
      const onError = (error: Error) => {
        gone = error
        stop.abort()
      }
      sink.on('error', onError)
      try {
        rows = await writeTextRows(batches, format, plan.select, sink, progress)
        if (sink !== stdout) {
          sink.end()
          await finished(sink)
        }
      } catch (error) {
        if (gone !== undefined && (gone as NodeJS.ErrnoException).code === 'EPIPE') return { exitCode: 0 }
        // An output that cannot be written (a full disk, a folder removed meanwhile) is said so, not thrown.
        if (gone !== undefined)
          return failure(`could not write ${values.out ?? 'the output'}: ${gone.message}`)
        throw error
      } finally {
        sink.off('error', onError)
      }
    }
    if (context.interactive) context.writeProgress('\n')
    return {
      exitCode: 0,
      ...(values.out === undefined
        ? {}
        : { stderr: `${rows.toLocaleString('en-US')} rows written to ${values.out}\n` }),
    }
  } catch (error) {
    // A search the catalog has no index or vectors for: the message says how to build them.
    if (isUnsupportedPlanError(error)) return failure(error.message)
    throw error
  } finally {
    await adapter.close()
  }
}

/** The batches of a stream whose first batch has been read already (so that a query that fails, fails here). */
const startedStream = async <T>(stream: AsyncGenerator<T, void, undefined>): Promise<AsyncIterable<T>> => {
  const first = await stream.next()
  return (async function* () {
    try {
      if (first.done === true) return
      yield first.value
      yield* stream
    } finally {
      // A reader that stops early closes the stream too (a no-op once it has ended).
      await stream.return(undefined)
    }
  })()
}

/** Why `--out FILE` cannot be written, checked before the query runs: its folder missing, or a folder itself. */
const outFileProblem = (out: string, format: Format): string | undefined => {
  const file = resolve(out)
  const folder = dirname(file)
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    return `cannot write ${out}: the folder ${folder} does not exist. Create it first, or give another --out.`
  if (existsSync(file) && statSync(file).isDirectory())
    return `cannot write ${out}: it is a folder. Give --out a file name, such as ${join(out, `rows.${format === 'table' ? 'txt' : format}`)}.`
  return undefined
}

/** The command line read: its options, the query, and the format (table on a terminal, else JSON Lines). */
const readOptions = (args: readonly string[], stdout: { readonly isTTY?: boolean }) => {
  const { values, positionals } = parseCommandLine(args, QUERY_COMMAND_LINE.options, { names: ['query'] })
  const format: Format =
    choiceOption('--format', values.format, QUERY_FORMATS) ??
    (values.out === undefined && stdout.isTTY === true ? 'table' : 'jsonl')
  if (format === 'parquet' && values.out === undefined && values.sql !== true)
    throw new UsageProblem('--format parquet writes a file: give it with --out FILE.parquet')
  return { values, positionals, format }
}

export const queryCommand: CliCommand = {
  name: 'query',
  usage: `${QUERY_COMMAND_LINE.synopsis}  (oqlkit query --help describes every option)`,
  run: (args, context) => runQueryCommand(args, context, process.stdout),
}
