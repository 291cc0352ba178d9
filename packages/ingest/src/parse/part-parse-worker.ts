// The ingest's worker thread: a `PartParser` (part-parser.ts) behind the pool's messages. It parses one part
// file at a time, the task the pool sends, and answers with its reply; the main thread only schedules tasks
// and runs DuckDB, so parsing and compression use every core.
import { parentPort, threadId, workerData } from 'node:worker_threads'
import {
  type ParseReply,
  type ParseTask,
  type ParseWorkerData,
  PartParser,
  type StopRequest,
} from './part-parser.ts'

const parser = new PartParser(workerData as ParseWorkerData, String(threadId))
let stopRequested = false
let running = false
const port = parentPort!
// Closing the port once idle leaves the thread's event loop empty, so it exits on its own (code 0).
const shutDown = () => {
  port.close()
  void parser.close()
}
const reply = (message: ParseReply) => {
  running = false
  if (stopRequested) shutDown()
  else port.postMessage(message)
}
port.on('message', (message: ParseTask | StopRequest) => {
  if ('kind' in message) {
    stopRequested = true
    if (!running) shutDown()
    return
  }
  running = true
  void parser
    .parse(message, {
      onProgress: (records) => port.postMessage({ kind: 'progress', index: message.index, records }),
      stopRequested: () => stopRequested,
    })
    .then(reply, (error: unknown) =>
      reply({ kind: 'failed', index: message.index, error: { message: String(error) } }),
    )
})
