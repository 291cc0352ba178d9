// The entry of the ingest's worker threads when they run from TypeScript source (tests, `npm run generate`,
// anything under tsx): a worker does not inherit the main thread's module loader, so it registers tsx before
// importing its real entry. Built JavaScript (dist/, what `oqlkit` runs) starts part-parse-worker.js directly
// and never loads this file, which is why the build does not copy it.
import { workerData } from 'node:worker_threads'

if (workerData.entry.endsWith('.ts')) {
  const { register } = await import('tsx/esm/api')
  register()
}
await import(workerData.entry)
