import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '@oqlkit/cli'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-cli-index-'))
const catalog = join(scratch, 'catalog')
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

// A copy of the run's sample catalog (ingested once for every file that reads it): the index is rebuilt in it.
beforeAll(async () => {
  cpSync(await sharedSampleCatalog(), catalog, { recursive: true })
}, 240_000)

describe('oqlkit index', () => {
  it("rebuilds a catalog's search index in place, with progress and a summary", async () => {
    const { progress, context } = collect()
    const result = await runCli(['index', catalog, '--segment-docs', '200', '--threads', '1'], context)
    expect(result.stderr).toBeUndefined()
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^indexed \d+ entities of .*catalog in [\d.]+ s; index [\d.]+ MB/)
    // The sample's 565 works, their distinct stems, one bucket of postings.
    expect(result.stdout).toMatch(/works\s+565\s+\d{4,}\s+1\n/)
    expect(progress.at(-1)).toContain('100%')
    const manifest = JSON.parse(readFileSync(join(catalog, 'catalog.json'), 'utf8')) as {
      extensions: { search?: { entities: { works?: { files: { stemmed: { postings: string[] } } } } } }
    }
    expect(manifest.extensions.search?.entities.works?.files.stemmed.postings).toHaveLength(1)
  })

  it('reports a folder that is not a catalog', async () => {
    const result = await runCli(['index', join(scratch, 'no-such-catalog')], collect().context)
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('no-such-catalog')
    expect(result.stderr).toContain('was not changed')
  })

  it('explains its usage when the arguments are wrong', async () => {
    for (const argv of [
      ['index'],
      ['index', 'a', 'b'],
      ['index', 'a', '--threads'],
      ['index', 'a', '--threads', '0'],
      ['index', 'a', '--segment-docs', 'many'],
      ['index', 'a', '--colour', 'red'],
    ]) {
      const result = await runCli(argv)
      expect(result.exitCode).toBe(2)
      expect(result.stderr).toContain('Usage: oqlkit index')
    }
  })
})
