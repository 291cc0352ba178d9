// The entry of the ingest's worker threads. A worker does not inherit the main thread's module loader: run
// from TypeScript source (tests, the CLI under tsx), it registers tsx before importing its real entry; run
// from built JavaScript, it imports it directly.
import { workerData } from 'node:worker_threads'

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api')
  register()
}
await import(workerData.entry)
