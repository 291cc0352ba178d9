// What a worker thread loads when it starts. Each thread pays for every module it imports, once per start;
// arktype alone (the OQO validators) cost 0.6-0.8 s of CPU, and the parse worker used to reach it, with the
// whole engine and DuckDB, through @oqlkit/catalog's main entry: 1.24 s per start, against 0.22 s now. The
// graph is esbuild's (the resolver the source workers are bundled with), followed through static imports
// only: a dynamic `import()` is paid when it runs (the parse worker loads its Parquet reader on the first
// Parquet part).
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../', import.meta.url))

/** Each worker entry, with what its start must not load (a path fragment of a module it must not reach). */
const WORKER_ENTRIES: Readonly<Record<string, readonly string[]>> = {
  'packages/ingest/src/parse/part-parse-worker.ts': [
    'node_modules/arktype/',
    'packages/engine/',
    'packages/adapter-duckdb/',
    'packages/text-models/',
    'packages/catalog/src/index.ts',
  ],
  'packages/catalog/src/records/record-texts-worker.ts': [
    'node_modules/arktype/',
    'packages/engine/src/index.ts',
    'packages/oqo-schema/',
  ],
  'packages/ingest/src/vectors/lsa-embedding-worker.ts': [
    'node_modules/arktype/',
    'packages/engine/',
    'packages/oqo-schema/',
    'packages/adapter-duckdb/',
    'packages/catalog/',
  ],
  'packages/snapshot/src/generate/work-batch-worker.ts': [
    'node_modules/arktype/',
    'packages/oqo-schema/src/index.ts',
  ],
}

/** The modules `entry` loads at start: its static imports, transitively (externals and node: builtins left out). */
async function modulesLoadedAtStart(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    conditions: ['@oqlkit/source'],
    external: ['@duckdb/*', 'chdb'],
    logLevel: 'silent',
  })
  const inputs = result.metafile.inputs
  const seen = new Set([entry])
  const queue = [entry]
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const imported of inputs[next]?.imports ?? []) {
      if (imported.kind === 'dynamic-import' || imported.external === true || seen.has(imported.path))
        continue
      seen.add(imported.path)
      queue.push(imported.path)
    }
  }
  return [...seen]
}

describe('worker thread start', () => {
  it('covers every worker entry of the packages', () => {
    const entries = readdirSync(join(ROOT, 'packages'), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('-worker.ts') && file.includes('/src/'))
      .map((file) => relative(ROOT, join(ROOT, 'packages', file)))
      .sort()
    expect(entries).toEqual(Object.keys(WORKER_ENTRIES).sort())
  })

  it('follows static imports across packages, and not dynamic ones', async () => {
    const loaded = await modulesLoadedAtStart('packages/ingest/src/parse/part-parse-worker.ts')
    expect(loaded).toContain('packages/ingest/src/parse/record-extractor.ts')
    expect(loaded).toContain('packages/catalog/src/records/record-codec.ts')
    expect(loaded).toContain('packages/oqo-schema/src/registry/properties-registry.ts')
    expect(loaded).not.toContain('packages/ingest/src/parse/parquet-row-reader.ts')
  })

  for (const [entry, forbidden] of Object.entries(WORKER_ENTRIES)) {
    it(`loads none of ${forbidden.join(', ')} in ${entry}`, async () => {
      const loaded = await modulesLoadedAtStart(entry)
      expect(loaded.filter((file) => forbidden.some((fragment) => file.includes(fragment)))).toEqual([])
    })
  }
})
