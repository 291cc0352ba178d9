// No import cycles in the packages' source (issue 19): every module of packages/*/src, with an edge for each
// relative import and each import of a sibling package by name (to the file its `@oqlkit/source` export
// names). Type-only imports count too: a cycle of types is still two modules that cannot be understood, moved
// or split apart one without the other. A failure prints each cycle found, as a path of files.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const PACKAGES = join(ROOT, 'packages')

// `import … from '…'`, `export … from '…'`, `import '…'` and `import('…')`; comments are removed first.
const SPECIFIERS = /(?:\bfrom\s*|\bimport\s*\(?\s*)(['"])([^'"\n]+)\1/g
const COMMENTS = /\/\*[\s\S]*?\*\/|(^|[^:'"`\\])\/\/[^\n]*/g

interface PackageEntry {
  readonly dir: string
  /** Export subpath (`.`, `./testing`) → source file. */
  readonly exports: ReadonlyMap<string, string>
}

function readPackages(): Map<string, PackageEntry> {
  const packages = new Map<string, PackageEntry>()
  for (const name of readdirSync(PACKAGES)) {
    const manifestPath = join(PACKAGES, name, 'package.json')
    if (!existsSync(manifestPath)) continue
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      name: string
      exports?: Record<string, { '@oqlkit/source'?: string }>
    }
    const exports = new Map<string, string>()
    for (const [subpath, conditions] of Object.entries(manifest.exports ?? {})) {
      const source = conditions['@oqlkit/source']
      if (source !== undefined) exports.set(subpath, resolve(PACKAGES, name, source))
    }
    packages.set(manifest.name, { dir: join(PACKAGES, name), exports })
  }
  return packages
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(dir, file))
}

/** The module graph of every packages/*\/src file: file → the files it imports. */
function packageImportGraph(): Map<string, string[]> {
  const packages = readPackages()
  const graph = new Map<string, string[]>()
  for (const { dir } of packages.values()) {
    const src = join(dir, 'src')
    if (!existsSync(src)) continue
    for (const file of sourceFiles(src)) {
      const text = readFileSync(file, 'utf8').replace(COMMENTS, '$1')
      const targets = new Set<string>()
      for (const match of text.matchAll(SPECIFIERS)) {
        const specifier = match[2]!
        if (specifier.startsWith('.')) {
          if (specifier.endsWith('.ts')) targets.add(resolve(dirname(file), specifier))
          continue
        }
        const [scope, name, ...rest] = specifier.split('/')
        const entry = packages.get(`${scope}/${name}`)
        const target = entry?.exports.get(rest.length === 0 ? '.' : `./${rest.join('/')}`)
        if (target !== undefined) targets.add(target)
      }
      graph.set(file, [...targets])
    }
  }
  return graph
}

/** Every cycle a depth-first search meets, each as the list of its modules (first repeated at the end). */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const cycles: string[][] = []
  const visit = (node: string): void => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      const seen = state.get(next)
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next])
      else if (seen === undefined) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node)
  return cycles
}

describe('import cycles', () => {
  it('finds a cycle, through any number of modules, and none in a tree', () => {
    expect(
      findCycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c', 'a']])
    expect(
      findCycles(
        new Map([
          ['a', ['b', 'c']],
          ['b', ['c']],
          ['c', []],
        ]),
      ),
    ).toEqual([])
  })

  it('reads relative imports and sibling packages by name, type-only ones included', () => {
    const graph = packageImportGraph()
    const of = (path: string) => graph.get(join(PACKAGES, path)) ?? []
    expect(of('snapshot/src/sample/sample-snapshot-readme-renderer.ts')).toContain(
      join(PACKAGES, 'snapshot/src/sample/sample-snapshot-summary.ts'),
    )
    expect(of('catalog/src/search/search-plan.ts')).toContain(join(PACKAGES, 'text-models/src/index.ts'))
    expect(graph.size).toBeGreaterThan(300)
  })

  it('has none in the source of the packages', () => {
    const cycles = findCycles(packageImportGraph()).map((cycle) =>
      cycle.map((file) => relative(ROOT, file)).join(' -> '),
    )
    expect(cycles).toEqual([])
  })
})
