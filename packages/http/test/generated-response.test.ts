// The bodies of lookups and snowballs, made as the client reads them (`generatedResponse`).
import { describe, expect, it } from 'vitest'
import { bytesOf } from '../src/server/byte-responses.ts'
import { generatedResponse } from '../src/server/generated-response.ts'

const encoder = new TextEncoder()

/** `count` lines of about 1 KB, counting how many were made and whether the maker was stopped. */
const linesMaker = (count: number) => {
  const made = { lines: 0, finished: false }
  function* lines(): Generator<Uint8Array, void, undefined> {
    try {
      for (let at = 0; at < count; at++) {
        made.lines++
        yield encoder.encode(`${JSON.stringify({ at, text: 'x'.repeat(1000) })}\n`)
      }
    } finally {
      made.finished = true
    }
  }
  return { made, lines }
}

describe('a response made as it is read', () => {
  it('is sent whole, with its length, when it fits one chunk', async () => {
    const { lines } = linesMaker(10)
    const response = generatedResponse(lines(), { status: 200 })
    expect(bytesOf(response)).toBeDefined()
    expect((await response.text()).trimEnd().split('\n')).toHaveLength(10)
  })

  it('makes a large body a chunk at a time as it is read, every line once and in order', async () => {
    const { made, lines } = linesMaker(5_000)
    const response = generatedResponse(lines(), { status: 200 })
    expect(bytesOf(response)).toBeUndefined()
    // Only the first chunk (about 256 KB) is made before anything is read.
    expect(made.lines).toBeGreaterThan(200)
    expect(made.lines).toBeLessThan(300)
    const reader = response.body!.getReader()
    const chunks: Uint8Array[] = []
    for (;;) {
      const next = await reader.read()
      if (next.done) break
      chunks.push(next.value)
      expect(next.value.byteLength).toBeLessThan(300_000)
    }
    expect(chunks.length).toBeGreaterThan(10)
    const text = new TextDecoder().decode(Buffer.concat(chunks))
    const ats = text
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { at: number }).at)
    expect(ats).toEqual(Array.from({ length: 5_000 }, (_, at) => at))
    expect(made.finished).toBe(true)
  })

  it('stops making lines when the client goes away', async () => {
    const { made, lines } = linesMaker(5_000)
    const response = generatedResponse(lines(), { status: 200 })
    const reader = response.body!.getReader()
    await reader.read()
    await reader.read()
    await reader.cancel()
    expect(made.finished).toBe(true)
    expect(made.lines).toBeLessThan(1_000)
  })

  it('gives up on a client that stops reading, and stops making lines', async () => {
    const { made, lines } = linesMaker(5_000)
    const response = generatedResponse(lines(), { status: 200 }, { idleMs: 50 })
    const reader = response.body!.getReader()
    await reader.read()
    await new Promise((done) => setTimeout(done, 150))
    await expect(reader.read()).rejects.toThrow('the client read nothing for 0.05 s')
    expect(made.finished).toBe(true)
  })

  it('keeps a shutdown waiting while it flows, and ends short when the shutdown stops it', async () => {
    const held: { stop: AbortController; finished: Promise<unknown> }[] = []
    const holdOpen = (stop: AbortController, finished: Promise<unknown>) => held.push({ stop, finished })
    const whole = linesMaker(5_000)
    const read = generatedResponse(whole.lines(), { status: 200 }, { holdOpen })
    expect(held).toHaveLength(1)
    let settled = false
    void held[0]!.finished.then(() => {
      settled = true
    })
    await read.text()
    await Promise.resolve()
    expect(settled).toBe(true)
    // Stopped mid-way: the body breaks off, and its maker is let go.
    const cut = linesMaker(5_000)
    const stopped = generatedResponse(cut.lines(), { status: 200 }, { holdOpen })
    const reader = stopped.body!.getReader()
    await reader.read()
    held[1]!.stop.abort()
    await expect(reader.read()).rejects.toThrow('the server is shutting down')
    expect(cut.made.finished).toBe(true)
    // A body of one chunk is sent whole, and holds nothing open.
    generatedResponse(linesMaker(3).lines(), { status: 200 }, { holdOpen })
    expect(held).toHaveLength(2)
  })
})
