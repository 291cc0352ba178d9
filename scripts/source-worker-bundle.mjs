// A worker module run from TypeScript source, bundled with esbuild into one JavaScript file and cached, for
// source-worker-boot.mjs. A worker does not inherit the main thread's loader, and registering tsx in each worker
// cost 1.4 s of CPU for the first worker of a process and ~0.6 s for each one after (its hooks thread and a
// transform of each of the ~200 modules); importing the bundle costs 0.6-0.7 s, most of it arktype and
// DuckDB's binding. The test suite starts some forty workers from source.
//
// The workspace's own modules are bundled (the sibling packages resolve to their source through the
// `@oqlkit/source` condition, as on the main thread); dependencies stay imports, resolved from the bundle's
// place in the repository's node_modules. Each bundled module keeps its own `import.meta.url`, so a module
// that finds a file beside itself finds it as it did from source (the replacement is textual: the words
// `import.meta.url` in a string or comment of such a module would be replaced too; none has them). The bundle
// is rebuilt when any of its inputs changed (size or modification time, taken before esbuild reads the file),
// when a workspace package.json or tsconfig changed (they decide resolution), and when this script, esbuild or
// Node.js did; a run of the suite checks that in a few milliseconds.
import { createHash } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { extname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { threadId } from 'node:worker_threads'
import { build, version as esbuildVersion } from 'esbuild'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const CACHE = join(ROOT, 'node_modules', '.cache', 'oqlkit-source-workers')

/** Size and modification time: what says an input changed. */
const stamp = (path) => {
  const stat = statSync(path)
  return `${stat.size}:${stat.mtimeMs}`
}

/** What else decides a bundle: this script, esbuild and Node.js. */
const TOOLS = createHash('sha256')
  .update(readFileSync(fileURLToPath(import.meta.url)))
  .update(`${esbuildVersion} ${process.version}`)
  .digest('hex')

/** The workspace's package.json and tsconfig files: how esbuild resolves and compiles the inputs. */
const configFiles = () => {
  const files = [join(ROOT, 'package.json')]
  const tsconfigs = (dir) => readdirSync(dir).filter((name) => /^tsconfig.*\.json$/.test(name))
  for (const name of tsconfigs(ROOT)) files.push(join(ROOT, name))
  for (const name of readdirSync(join(ROOT, 'packages'))) {
    const dir = join(ROOT, 'packages', name)
    if (!existsSync(join(dir, 'package.json'))) continue
    files.push(join(dir, 'package.json'), ...tsconfigs(dir).map((file) => join(dir, file)))
  }
  return files
}

/** The cached bundle of `entry` named by `manifestPath`, if every input is as it was when it was built. */
const freshBundle = (manifestPath) => {
  let manifest
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  } catch {
    return undefined
  }
  if (manifest.tools !== TOOLS) return undefined
  try {
    for (const [path, was] of Object.entries(manifest.inputs)) if (stamp(path) !== was) return undefined
  } catch {
    return undefined
  }
  const bundle = join(CACHE, manifest.bundle)
  return existsSync(bundle) ? bundle : undefined
}

/**
 * Records each file's stamp as esbuild is about to read it (and lets esbuild read it): a file saved while the
 * bundle is built then no longer matches its stamp, and the next start builds again.
 */
const stampsBeforeReading = (stamps) => ({
  name: 'stamps-before-reading',
  setup(on) {
    on.onLoad({ filter: /.*/ }, (args) => {
      stamps.set(args.path, stamp(args.path))
      return undefined
    })
  },
})

/** Gives each bundled module of the workspace its own `import.meta.url`, `dirname` and `filename`. */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(on) {
    on.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
      if (args.path.includes(`${join('node_modules', '')}`)) return undefined
      const source = readFileSync(args.path, 'utf8')
      if (!source.includes('import.meta')) return undefined
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(resolve(args.path, '..')))
        .replaceAll('import.meta.filename', JSON.stringify(args.path))
      return { contents, loader: extname(args.path).slice(1).replace(/^[cm]/, '') }
    })
  },
}

/** Every bare import but the workspace's own stays an import. */
const dependenciesOutside = {
  name: 'dependencies-outside',
  setup(on) {
    on.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@oqlkit/') ? undefined : { path: args.path, external: true },
    )
  },
}

/** The URL of a bundle of the TypeScript module at `entryUrl`, built now unless a fresh one is cached. */
export async function bundledWorkerEntry(entryUrl) {
  const entry = fileURLToPath(entryUrl)
  const key = createHash('sha256').update(entry).digest('hex').slice(0, 16)
  const manifestPath = join(CACHE, `${key}.json`)
  const cached = freshBundle(manifestPath)
  if (cached !== undefined) return pathToFileURL(cached).href
  const stamps = new Map(configFiles().map((path) => [path, stamp(path)]))
  const built = await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@oqlkit/source'],
    plugins: [stampsBeforeReading(stamps), dependenciesOutside, ownImportMeta],
    metafile: true,
    logLevel: 'error',
  })
  const code = built.outputFiles[0].contents
  // Named by its content, and the manifest written last and renamed into place, so workers starting at once
  // each read a whole bundle whichever of them wrote it.
  const bundle = `${key}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`
  mkdirSync(CACHE, { recursive: true })
  const temporary = `.${process.pid}-${threadId}.tmp`
  writeFileSync(join(CACHE, bundle + temporary), code)
  renameSync(join(CACHE, bundle + temporary), join(CACHE, bundle))
  for (const input of Object.keys(built.metafile.inputs)) {
    const path = resolve(ROOT, input)
    if (!stamps.has(path)) stamps.set(path, stamp(path))
  }
  const inputs = Object.fromEntries(stamps)
  writeFileSync(manifestPath + temporary, JSON.stringify({ bundle, tools: TOOLS, inputs }))
  renameSync(manifestPath + temporary, manifestPath)
  return pathToFileURL(join(CACHE, bundle)).href
}
