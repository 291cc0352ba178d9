// @oqlkit/oql is meant for browsers too: bundled for the browser platform it must need no Node built-in and
// stay within a size budget. The budget is the measurement (BENCHMARKS.md, "OQL browser bundle") plus about
// 10%: a change that grows the bundle past it should be a decision, not an accident.
import { resolve } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

/** Minified, in bytes: 555 KB measured. */
const MINIFIED_BUDGET = 610_000
/** Minified and gzipped (level 9), in bytes: 119 KB measured. */
const GZIPPED_BUDGET = 130_000

const bundleTranslate = async () => {
  const result = await build({
    stdin: {
      contents: "export { translate } from '@oqlkit/oql'",
      resolveDir: resolve(import.meta.dirname, '..'),
    },
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    // The TypeScript source, as the tests use it; the built dist/ bundles to the same size.
    conditions: ['@oqlkit/source'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  })
  const code = result.outputFiles[0]?.contents
  if (code === undefined) throw new Error('esbuild wrote no bundle')
  return { code, metafile: result.metafile }
}

describe('the browser bundle of translate()', () => {
  it('needs no Node built-in, stays within its size budget, and translates', async () => {
    const { code, metafile } = await bundleTranslate()
    // For the browser platform esbuild fails on a `node:` import it cannot resolve; the metafile also says
    // what every bundled module imported, so one marked external elsewhere would show here too.
    const imports = Object.values(metafile.inputs).flatMap((input) =>
      input.imports.map((entry) => entry.path),
    )
    expect(imports.filter((path) => path.startsWith('node:'))).toEqual([])
    expect(code.byteLength).toBeLessThan(MINIFIED_BUDGET)
    expect(gzipSync(code, { level: 9 }).byteLength).toBeLessThan(GZIPPED_BUDGET)

    const bundled = (await import(
      `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
    )) as typeof import('@oqlkit/oql')
    expect(bundled.translate({ oql: 'works where year is 2020' }).oxurl).toBe(
      'https://openalex.org/works?filter=publication_year:2020',
    )
  })
})
