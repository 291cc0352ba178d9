import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-serve-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const bin = resolve(import.meta.dirname, '../bin/oqlkit.js')

const waitForRoot = async (url: string, timeoutMs: number): Promise<Response> => {
  const started = Date.now()
  for (;;) {
    try {
      return await fetch(url)
    } catch (error) {
      if (Date.now() - started > timeoutMs) throw error
      await new Promise((done) => setTimeout(done, 200))
    }
  }
}

describe('oqlkit serve', () => {
  it('builds the sample catalog on first start, serves it, and stops cleanly on SIGINT', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000)
    const child = spawn(
      process.execPath,
      [bin, 'serve', '--catalog', join(scratch, 'catalog'), '--port', String(port)],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
    try {
      const response = await waitForRoot(`http://127.0.0.1:${port}/`, 60_000)
      expect(response.status).toBe(200)
      const body = (await response.json()) as {
        status: string
        catalog: { entities: Record<string, number> }
      }
      expect(body.status).toBe('ok')
      expect(body.catalog.entities.works).toBe(565)
      expect(output).toContain('building it from the bundled sample')
    } finally {
      child.kill('SIGINT')
    }
    expect(await exited).toBe(0)
    expect(output).toContain('oqlkit: stopped')
  }, 90_000)

  it('rejects a port that is not a number', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', 'eighty'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    expect(await new Promise((done) => child.on('exit', done))).toBe(2)
    expect(stderr).toContain('--port needs a port number')
  })
})
