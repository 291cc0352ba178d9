// Runs parse tasks (part-parse-worker.ts) on a few worker threads, one task per worker at a time, in the
// order given. The first failure stops the pool: tasks not yet started are dropped, running ones are asked
// to stop (StopRequest says why not terminated), and the failure is thrown as the IngestError the worker
// described.
import { availableParallelism } from 'node:os'
import type { Worker } from 'node:worker_threads'
import { startWorker, stopWorker } from '@oqlkit/catalog'
import {
  errorOfFailedParse,
  type ParseDone,
  type ParseListener,
  type ParseReply,
  type ParseTask,
  type ParseWorkerData,
  type StopRequest,
} from './part-parser.ts'
import { runOnThisThread } from './same-thread-parse-runner.ts'

export type { ParseDone, ParseListener } from './part-parser.ts'

/**
 * Part files smaller than this in all are parsed on the main thread: starting a worker (loading the catalog
 * package in it) takes longer than parsing them.
 */
export const INLINE_PARSE_BELOW_BYTES = 4 << 20

/**
 * Parse threads when an ingest is not told: one per core (DuckDB's loading waits for them), or none, the
 * main thread parsing, for a snapshot under `INLINE_PARSE_BELOW_BYTES` of part files.
 */
export const defaultParseWorkers = (snapshotBytes: number): number =>
  snapshotBytes < INLINE_PARSE_BELOW_BYTES ? 0 : Math.max(1, availableParallelism())

export async function runParseTasks(
  tasks: readonly ParseTask[],
  data: ParseWorkerData,
  workers: number,
  listener: ParseListener = {},
): Promise<ParseDone[]> {
  const results: ParseDone[] = new Array(tasks.length)
  if (tasks.length === 0) return results
  const byIndex = new Map(tasks.map((task, at) => [task.index, { task, at }]))
  const costs = tasks.map((task) => listener.cost?.(task) ?? 0)
  const order = tasks.map((_, at) => at).sort((a, b) => costs[b]! - costs[a]! || a - b)
  if (workers === 0) return runOnThisThread(tasks, order, data, listener)
  const pool: { worker: Worker; exited: Promise<unknown> }[] = []
  let next = 0
  try {
    await new Promise<void>((resolve, reject) => {
      let running = 0
      let failed = false
      const pending = new Set<Promise<void>>()
      const fail = (error: Error) => {
        if (failed) return
        failed = true
        reject(error)
      }
      const finishIfDone = () => {
        if (!failed && next === tasks.length && running === 0 && pending.size === 0) resolve()
      }
      const dispatch = (worker: Worker) => {
        if (failed) return
        if (next === tasks.length) {
          finishIfDone()
          return
        }
        running++
        worker.postMessage(tasks[order[next++]!])
      }
      for (let count = 0; count < Math.min(workers, tasks.length); count++) {
        const worker = startWorker(import.meta.url, 'part-parse-worker', data)
        // Not events.once: it would reject on the worker's 'error', which fail() already reports.
        pool.push({ worker, exited: new Promise((resolve) => worker.once('exit', resolve)) })
        worker.on('error', (error) => fail(error))
        worker.on('exit', (code) => {
          listener.onWorkerExit?.(code)
          if (code !== 0) fail(new Error(`an ingest worker stopped with exit code ${code}`))
        })
        worker.on('message', (reply: ParseReply) => {
          const entry = byIndex.get(reply.index)
          // After a failure, a result still in flight is not loaded: the run is over.
          if (entry === undefined || failed) return
          try {
            if (reply.kind === 'progress') listener.onProgress?.(entry.task, reply.records)
            else if (reply.kind === 'failed') fail(errorOfFailedParse(reply))
            else {
              results[entry.at] = reply
              // A listener may refuse the result (a record count that disagrees with the manifest).
              const after = listener.onDone?.(entry.task, reply)
              running--
              if (after !== undefined) {
                pending.add(after)
                after.then(() => {
                  pending.delete(after)
                  finishIfDone()
                }, fail)
              }
              dispatch(worker)
            }
          } catch (error) {
            fail(error as Error)
          }
        })
        dispatch(worker)
      }
    })
  } finally {
    await Promise.all(
      pool.map(({ worker, exited }) => stopWorker(worker, exited, { kind: 'stop' } satisfies StopRequest)),
    )
  }
  return results
}
