// The parse tasks of a snapshot too small to be worth starting workers for (part-parse-pool.ts decides),
// run on the main thread by one `PartParser`.
import {
  errorOfFailedParse,
  type ParseDone,
  type ParseListener,
  type ParseTask,
  type ParseWorkerData,
  PartParser,
} from './part-parser.ts'

/**
 * `runParseTasks` without workers: the tasks one after another on this thread, in the same order, with the
 * same replies and listener calls (but `onWorkerExit`). The first failure, the parser's or a listener's,
 * ends the run once the listeners' work already started has settled.
 */
export async function runOnThisThread(
  tasks: readonly ParseTask[],
  order: readonly number[],
  data: ParseWorkerData,
  listener: ParseListener,
): Promise<ParseDone[]> {
  const results: ParseDone[] = new Array(tasks.length)
  const parser = new PartParser(data, 'main')
  const pending: Promise<void>[] = []
  let failure: { readonly error: unknown } | undefined
  try {
    for (const at of order) {
      if (failure !== undefined) break
      const task = tasks[at]!
      const reply = await parser.parse(task, {
        onProgress: (records) => listener.onProgress?.(task, records),
      })
      if (reply.kind === 'failed') throw errorOfFailedParse(reply)
      results[at] = reply
      const after = listener.onDone?.(task, reply)
      if (after !== undefined)
        pending.push(
          after.catch((error: unknown) => {
            failure ??= { error }
          }),
        )
    }
  } finally {
    await Promise.all(pending)
    await parser.close()
  }
  if (failure !== undefined) throw failure.error
  return results
}
