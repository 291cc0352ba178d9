// A signal that fires after a delay, safe to combine with AbortSignal.any. Node 20's AbortSignal.timeout is
// held only weakly by its own timer, and AbortSignal.any holds its sources weakly too: a timeout signal made
// just to be combined can be garbage collected and never fire, though the combined signal is held and
// listened to (nodejs/node#57736; reproduced here with --expose-gc, 0 of 20 fired). An export waiting for a
// slot then waited past its deadline for good, which CI met twice under load. Here the timer holds the
// controller, so the signal lives until it fires or `clear` is called.

export interface DeadlineSignal {
  /** Fires with a `TimeoutError`, as AbortSignal.timeout's does, once `ms` have passed. */
  readonly signal: AbortSignal
  /** Stops the timer: call it once the work the deadline bounds is done. */
  clear(): void
}

export const deadlineSignal = (ms: number): DeadlineSignal => {
  const controller = new AbortController()
  const timer = setTimeout(
    () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
    ms,
  )
  // A deadline alone does not keep the process running.
  timer.unref()
  return { signal: controller.signal, clear: () => clearTimeout(timer) }
}
