// How a pool lets a worker thread go: it is sent the request that asks it to stop (it finishes what it holds,
// closes its files and exits), and only terminated if it has not exited within a grace period. Not terminated
// at once: Node 20 aborts the whole process when a worker is terminated between creating a zlib handle and
// initialising it, and a worker holding a file mid-write would leave it short.
import type { Worker } from 'node:worker_threads'

/** How long a worker asked to stop may take to reach a point where it can (between requests or chunks). */
const STOP_GRACE_MS = 30_000

/** Sends `request` to `worker` and waits for it to exit (`exited`), terminating it after the grace period. */
export async function stopWorker(worker: Worker, exited: Promise<unknown>, request: unknown): Promise<void> {
  worker.postMessage(request)
  const overdue = setTimeout(() => void worker.terminate(), STOP_GRACE_MS)
  await exited
  clearTimeout(overdue)
}
