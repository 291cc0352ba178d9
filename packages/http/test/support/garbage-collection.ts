import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

// V8's collector, callable from a test: signals that are held only weakly (AbortSignal.timeout inside
// AbortSignal.any) are collected by it, as a loaded server's heap would collect them sooner or later.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** Runs full collections a few times over `ms`, letting timers and I/O run between them. */
export async function collectGarbageFor(ms: number): Promise<void> {
  const until = performance.now() + ms
  while (performance.now() < until) {
    gc()
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
