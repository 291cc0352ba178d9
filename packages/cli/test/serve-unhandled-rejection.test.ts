// A promise rejected with no handler inside a real `oqlkit serve` process is logged as a fault, and the server
// goes on answering; without the guard, Node ends the process on it.
import { resolve } from 'node:path'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { describe, expect, it } from 'vitest'
import { startServerProcess } from './support/server-process.ts'

const PRELOAD = resolve(import.meta.dirname, 'support/background-rejection-preload.ts')

const waitFor = async (done: () => boolean, ms: number): Promise<boolean> => {
  const until = Date.now() + ms
  while (!done() && Date.now() < until) await new Promise((next) => setTimeout(next, 50))
  return done()
}

describe('oqlkit serve and a promise rejected with no handler', () => {
  it('logs the fault and keeps serving', async () => {
    const server = await startServerProcess(await sharedSampleCatalog(), [], ['--import', PRELOAD])
    try {
      server.child.kill('SIGUSR2')
      expect(
        await waitFor(() => server.output().includes('a background promise rejected (test preload)'), 10_000),
      ).toBe(true)
      expect(server.output()).toContain('oqlkit serve: fault: a promise was rejected with no handler')
      const answer = await fetch(`${server.url}/works?per_page=1`)
      expect(answer.status).toBe(200)
      expect(server.child.exitCode).toBeNull()
      expect(await server.stop()).toBe(0)
    } finally {
      if (server.child.exitCode === null) await server.kill()
    }
  }, 300_000)
})
