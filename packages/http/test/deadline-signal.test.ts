// The export handler's deadlines: a signal combined by AbortSignal.any must still fire after garbage
// collections, which Node 20's AbortSignal.timeout does not (nodejs/node#57736).
import { describe, expect, it } from 'vitest'
import { deadlineSignal } from '../src/limits/deadline-signal.ts'
import { collectGarbageFor } from './support/garbage-collection.ts'

describe('deadlineSignal', () => {
  it('fires inside AbortSignal.any after garbage collections, with a TimeoutError', async () => {
    const combined = Array.from({ length: 20 }, () =>
      AbortSignal.any([new AbortController().signal, deadlineSignal(60).signal]),
    )
    const fired: string[] = []
    for (const signal of combined)
      signal.addEventListener('abort', () => fired.push((signal.reason as DOMException).name))
    await collectGarbageFor(300)
    expect(fired).toEqual(Array.from({ length: 20 }, () => 'TimeoutError'))
  })

  it('does not fire once cleared', async () => {
    const deadline = deadlineSignal(30)
    deadline.clear()
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(deadline.signal.aborted).toBe(false)
  })
})
