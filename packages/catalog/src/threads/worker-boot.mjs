// The entry of the adapter's worker threads (the ingest's parse workers, the texts files' readers) when they
// run from TypeScript source (tests, `npm run generate`, anything under tsx): a worker does not inherit the
// main thread's module loader, so it runs its real entry bundled into JavaScript (source-worker-bundle.mjs).
// Built JavaScript (dist/, what `oqlkit` runs) starts the worker's own module directly and never loads this
// file, which is why the build does not copy it.
import { workerData } from 'node:worker_threads'
import { bundledWorkerEntry } from './source-worker-bundle.mjs'

await import(await bundledWorkerEntry(workerData.entry))
