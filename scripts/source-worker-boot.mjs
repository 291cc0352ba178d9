// The entry of the packages' worker threads (the ingest's parse workers, the texts files' readers, the
// generator's batch workers) when they run from TypeScript source (tests, `npm run generate`, anything under
// tsx): a worker does not inherit the main thread's module loader, so it runs its real entry, `workerData.entry`,
// bundled into JavaScript (source-worker-bundle.mjs). Built JavaScript (dist/, what `oqlkit` runs) starts the
// worker's own module directly and never loads this file: running from source means running in this
// repository, which is why the packages name it by its place here.
import { workerData } from 'node:worker_threads'
import { bundledWorkerEntry } from './source-worker-bundle.mjs'

await import(await bundledWorkerEntry(workerData.entry))
