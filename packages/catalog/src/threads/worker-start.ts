// How the adapter starts a worker thread on one of its own modules, from TypeScript source or from built
// JavaScript alike: from source the repository's boot module (scripts/source-worker-boot.mjs) runs it bundled
// into JavaScript (a worker does not inherit the main thread's loader), the workspace packages resolved to their
// source; built JavaScript runs the module itself.
import { type ResourceLimits, Worker } from 'node:worker_threads'

/**
 * A worker on the module `name` (without extension) beside `callerUrl` (the caller's `import.meta.url`),
 * given `data` as its `workerData` (with `entry`, the module's URL, added), within `resourceLimits` if given.
 */
export function startWorker(
  callerUrl: string,
  name: string,
  data: object,
  resourceLimits?: ResourceLimits,
): Worker {
  const fromSource = callerUrl.endsWith('.ts')
  const entry = new URL(`./${name}${fromSource ? '.ts' : '.js'}`, callerUrl)
  const boot = fromSource ? new URL('../../../../scripts/source-worker-boot.mjs', import.meta.url) : entry
  return new Worker(boot, {
    workerData: { ...data, entry: entry.href },
    execArgv: fromSource ? ['--conditions=@oqlkit/source'] : [],
    ...(resourceLimits === undefined ? {} : { resourceLimits }),
  })
}
