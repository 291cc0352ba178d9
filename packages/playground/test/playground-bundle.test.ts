// The playground's bundle as the server ships it: everything the page loads is in it, under a size budget
// (BENCHMARKS.md, "The playground's bundle"), and the page names no address outside its own server.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundlePlayground } from '../scripts/bundle-playground.ts'

// CodeMirror, Chart.js's bar and line parts, @oqlkit/oql with the registry, and the engine's planner for
// the page's own check of a run: 1,096,306 B minified and 300,257 B gzipped when this budget was set.
const BUDGET = { minified: 1_200_000, gzipped: 330_000 }

describe('the playground bundle', () => {
  let dir: string
  beforeAll(async () => {
    dir = await bundlePlayground({ outDir: mkdtempSync(join(tmpdir(), 'oqlkit-bundle-')) })
  }, 120_000)
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('holds both pages and every file they load', () => {
    expect(readdirSync(dir).sort()).toEqual(
      [
        'docs-init.js',
        'docs.html',
        'playground.css',
        'playground.css.map',
        'playground.html',
        'playground.js',
        'playground.js.map',
        'playground.js.LEGAL.txt',
        'swagger-ui-bundle.js',
        'swagger-ui.LICENSE',
        'swagger-ui.css',
      ].sort(),
    )
  })

  it('stays under its size budget', () => {
    const script = readFileSync(join(dir, 'playground.js'))
    expect(script.byteLength).toBeLessThan(BUDGET.minified)
    expect(gzipSync(script, { level: 9 }).byteLength).toBeLessThan(BUDGET.gzipped)
  })

  it('names no address outside the server in its pages', () => {
    for (const page of ['playground.html', 'docs.html']) {
      const html = readFileSync(join(dir, page), 'utf8')
      const references = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((match) => match[1] ?? '')
      expect(references.length, page).toBeGreaterThan(1)
      for (const reference of references)
        expect(reference, `${page}: ${reference}`).not.toMatch(/^(?:[a-z]+:)?\/\//i)
    }
  })
})
