import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { runCli } from '@oqlkit/cli'
import { afterAll, describe, expect, it } from 'vitest'

const sampleSnapshot = resolve(import.meta.dirname, '../../../data/sample-snapshot')
const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-cli-ingest-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const collect = () => {
  const progress: string[] = []
  return {
    progress,
    context: {
      readStdin: async () => '',
      writeProgress: (text: string) => progress.push(text),
      interactive: false,
    },
  }
}

describe('oqlkit ingest', () => {
  it('builds a catalog from the bundled sample, with progress and a summary', async () => {
    const out = join(scratch, 'catalog')
    const { progress, context } = collect()
    const result = await runCli(['ingest', sampleSnapshot, '--out', out], context)
    expect(result.stderr).toBeUndefined()
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^created catalog .* \(legacy layout\)/)
    expect(result.stdout).toMatch(/works\s+565\s+565/)
    expect(progress.at(-1)).toContain('100%')
    const manifest = JSON.parse(readFileSync(join(out, 'catalog.json'), 'utf8')) as { format: string }
    expect(manifest.format).toBe('oqlkit-catalog')
  })

  it('reports a missing snapshot folder and changes nothing', async () => {
    const out = join(scratch, 'untouched')
    const result = await runCli(
      ['ingest', join(scratch, 'no-such-snapshot'), '--out', out],
      collect().context,
    )
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('no-such-snapshot')
    expect(result.stderr).toContain('Nothing was changed')
    expect(existsSync(out)).toBe(false)
  })

  it('builds without the search index when told, and the catalog says so', async () => {
    const out = join(scratch, 'no-search')
    const result = await runCli(
      ['ingest', sampleSnapshot, '--out', out, '--no-search-index', '--memory-limit', '2GB'],
      collect().context,
    )
    expect(result.exitCode).toBe(0)
    const manifest = JSON.parse(readFileSync(join(out, 'catalog.json'), 'utf8')) as {
      extensions: Record<string, unknown>
    }
    expect(manifest.extensions).toStrictEqual({})
    expect(existsSync(join(out, 'search'))).toBe(false)
  })

  it('explains its usage when the arguments are wrong', async () => {
    for (const argv of [
      ['ingest'],
      ['ingest', 'a', 'b'],
      ['ingest', 'a', '--out'],
      ['ingest', 'a', '--memory-limit', 'lots'],
      ['ingest', 'a', '--no-such-option'],
    ]) {
      const result = await runCli(argv)
      expect(result.exitCode).toBe(2)
      expect(result.stderr).toContain('Usage: oqlkit ingest')
    }
  })
})

describe('oqlkit generate', () => {
  it('writes a synthetic snapshot that ingest reads, and refuses to overwrite without --overwrite', async () => {
    const out = join(scratch, 'generated')
    const { progress, context } = collect()
    const result = await runCli(['generate', '--works', '300', '--out', out, '--seed', '7'], context)
    expect(result.stderr).toBeUndefined()
    expect(result.stdout).toMatch(/^generated 300 works \(seed 7\)/)
    expect(progress.length).toBeGreaterThan(0)
    const again = await runCli(['generate', '--works', '300', '--out', out], collect().context)
    expect(again.exitCode).toBe(1)
    const catalog = join(scratch, 'generated-catalog')
    const ingested = await runCli(['ingest', out, '--out', catalog], collect().context)
    expect(ingested.exitCode).toBe(0)
    expect(ingested.stdout).toMatch(/works\s+300\s+300/)
  })

  it('explains its usage when the arguments are wrong', async () => {
    for (const argv of [
      ['generate'],
      ['generate', '--works', '0', '--out', 'x'],
      ['generate', '--works', '5'],
    ]) {
      const result = await runCli(argv)
      expect(result.exitCode).toBe(2)
      expect(result.stderr).toContain('Usage: oqlkit generate')
    }
  })
})
