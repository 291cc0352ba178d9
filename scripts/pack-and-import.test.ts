// The packages as a user gets them: built, packed with `npm pack`, installed from the tarballs into a scratch
// project outside the repository with every install script blocked, then imported from plain Node (no export
// condition, no loader) and compiled against with tsc. A package whose exports, bin or types point at a file its tarball lacks fails here.
import { execFile, type SpawnSyncOptions, spawn, spawnSync } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { redisForTests } from '@oqlkit/adapter-redis/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const REPO = resolve(import.meta.dirname, '..')
const FIXTURES = join(import.meta.dirname, 'pack-and-import')
const TSC = join(REPO, 'node_modules/typescript/bin/tsc')

interface PackedFile {
  readonly path: string
}
interface PackResult {
  readonly name: string
  readonly version: string
  readonly filename: string
  readonly integrity: string
  readonly files: readonly PackedFile[]
}
interface PackageJson {
  readonly version: string
  readonly dependencies?: Record<string, string>
  readonly peerDependencies?: Record<string, string>
  readonly peerDependenciesMeta?: Record<string, unknown>
  readonly bin?: Record<string, string>
  readonly exports: Record<string, Record<string, string>>
}
interface LockEntry {
  readonly dev?: boolean
  readonly link?: boolean
}

// npm sets npm_* variables for the scripts it runs (`npm test`); they would configure the npm run here.
const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !name.startsWith('npm_') || name === 'npm_config_cache' || name === 'npm_config_userconfig',
    ),
  )

const run = (command: string, args: readonly string[], options: SpawnSyncOptions): string => {
  const result = spawnSync(command, args, { encoding: 'utf8', env: cleanEnv(), ...options })
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`,
    )
  return String(result.stdout)
}

/** A README's first ```js block, and the output each `// → text` comment in it promises, in order. */
const readmeExample = (name: string): { readonly code: string; readonly promised: readonly string[] } => {
  const readme = readFileSync(join(REPO, 'packages', name.replace('@oqlkit/', ''), 'README.md'), 'utf8')
  const code = /^```js\n([\s\S]*?)^```$/m.exec(readme)?.[1]
  if (code === undefined) throw new Error(`${name}'s README has no js example`)
  const promised = [...code.matchAll(/\/\/ → (.+)$/gm)].map((match) => match[1] ?? '')
  return { code, promised }
}

const packageJsonOf = (name: string): PackageJson =>
  JSON.parse(readFileSync(join(REPO, 'packages', name.replace('@oqlkit/', ''), 'package.json'), 'utf8'))

let scratch: string
let packs: readonly PackResult[]

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'oqlkit-pack-'))
  // Up to date after `npm ci` (which builds), so about a second; rebuilds whatever an edit made stale.
  run(process.execPath, [TSC, '-b', 'tsconfig.build.json'], { cwd: REPO })
  // The playground's browser bundle is built by esbuild, not tsc (`npm run build` runs both).
  run('npm', ['run', 'build', '-w', '@oqlkit/playground'], { cwd: REPO })
  packs = JSON.parse(
    run('npm', ['pack', '--workspaces', '--ignore-scripts', '--json', '--pack-destination', scratch], {
      cwd: REPO,
    }),
  ) as PackResult[]

  // The scratch project installs the tarballs offline. npm needs a registry document to choose each
  // third-party dependency's version, and `npm ci` caches tarballs, not those documents; so the scratch
  // project gets a lock file: the repository's own entries for the packages the workspaces need at run time
  // (their tarballs are in the cache), and an entry for each packed tarball.
  const app = join(scratch, 'app')
  const dependencies: Record<string, string> = {}
  const entries: Record<string, unknown> = {}
  for (const pack of packs) {
    const spec = `file:../${pack.filename.replace('@oqlkit/', 'oqlkit-')}`
    dependencies[pack.name] = spec
    const {
      version,
      dependencies: deps,
      peerDependencies,
      peerDependenciesMeta,
      bin,
    } = packageJsonOf(pack.name)
    entries[`node_modules/${pack.name}`] = {
      version,
      resolved: spec,
      integrity: pack.integrity,
      dependencies: deps,
      peerDependencies,
      peerDependenciesMeta,
      bin,
    }
  }
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry & { version?: string }>
  }
  for (const [path, entry] of Object.entries(lock.packages))
    if (path.startsWith('node_modules/') && entry.dev !== true && entry.link !== true) entries[path] = entry
  // A TypeScript user of the Node packages has Node's types; the version the repository builds with.
  const typesNode = lock.packages['node_modules/@types/node']?.version
  if (typesNode === undefined) throw new Error('package-lock.json has no @types/node')
  dependencies['@types/node'] = typesNode
  const manifest = { name: 'oqlkit-scratch', private: true, type: 'module', dependencies }
  run('mkdir', ['-p', app], {})
  writeFileSync(join(app, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  writeFileSync(
    join(app, 'package-lock.json'),
    `${JSON.stringify({ name: manifest.name, lockfileVersion: 3, requires: true, packages: { '': { name: manifest.name, dependencies }, ...entries } }, null, 2)}\n`,
  )
  // With every install script blocked, as npm is moving to by default: nothing a user installs needs one. The
  // optional zstd-napi is installed unbuilt, and the record stores run on zstd's WebAssembly build.
  run('npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: app })
  copyFileSync(join(FIXTURES, 'packed-smoke.mjs'), join(app, 'packed-smoke.mjs'))
  copyFileSync(join(FIXTURES, 'packed-consumer.ts'), join(app, 'packed-consumer.ts'))
}, 240_000)

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true })
})

describe('the packed packages', () => {
  it('each ship every file their exports and bin name, with README, CHANGELOG and LICENSE, and no tests or source', () => {
    expect(packs.map((pack) => pack.name).sort()).toEqual([
      '@oqlkit/adapter-clickhouse',
      '@oqlkit/adapter-duckdb',
      '@oqlkit/adapter-redis',
      '@oqlkit/catalog',
      '@oqlkit/cli',
      '@oqlkit/engine',
      '@oqlkit/file-stores',
      '@oqlkit/http',
      '@oqlkit/ingest',
      '@oqlkit/oql',
      '@oqlkit/oqo-schema',
      '@oqlkit/playground',
      '@oqlkit/snapshot',
      '@oqlkit/text-models',
    ])
    for (const pack of packs) {
      const shipped = new Set(pack.files.map((file) => file.path))
      const manifest = packageJsonOf(pack.name)
      expect(pack.version, pack.name).toBe('0.1.0')
      // Every target but the source condition's, which only this repository's development uses.
      const targets = Object.values(manifest.exports).flatMap((conditions) =>
        Object.entries(conditions)
          .filter(([condition]) => condition !== '@oqlkit/source')
          .map(([, target]) => target),
      )
      for (const target of [...targets, ...Object.values(manifest.bin ?? {})])
        expect(shipped.has(target.replace(/^\.\//, '')), `${pack.name} ships ${target}`).toBe(true)
      for (const file of ['README.md', 'CHANGELOG.md', 'LICENSE', 'package.json'])
        expect(shipped.has(file), `${pack.name} ships ${file}`).toBe(true)
      const stray = [...shipped].filter(
        (path) => path.startsWith('src/') || path.includes('.test.') || path.endsWith('.tsbuildinfo'),
      )
      expect(stray, pack.name).toEqual([])
    }
  })

  it('import from plain Node ESM and work: translate, validate, DuckDB, the CLI runner', () => {
    const app = join(scratch, 'app')
    const seen = JSON.parse(run(process.execPath, ['packed-smoke.mjs'], { cwd: app }))
    expect(seen).toEqual({
      oxurl: 'https://openalex.org/works?filter=publication_year:2020',
      oqoValid: true,
      cursor: [7, 'W1'],
      stem: 'run',
      poolAuthorsPositive: true,
      duckdbAnswer: 42,
      redisUrl: expect.stringMatching(/^redis:\/\//),
      clickhouseCatalog: 'openalex',
      apiVersion: '0.1.0',
      openApiVersion: '0.1.0',
      cliExitCode: 0,
      cliOxurl: 'https://openalex.org/works?filter=publication_year:2020',
      zstd: 'zstd-wasm',
    })
    expect(existsSync(join(app, 'node_modules/zstd-napi/build/Release/binding.node'))).toBe(false)
  })

  it('install the oqlkit command, which runs the built CLI', () => {
    const out = run(join(scratch, 'app/node_modules/.bin/oqlkit'), ['--help'], { cwd: join(scratch, 'app') })
    expect(out).toContain('Usage: oqlkit <command>')
  })

  it('serve the bundled sample with `oqlkit serve` and no arguments: built on first start, then answered', async () => {
    const app = join(scratch, 'app')
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    const server = spawn(join(app, 'node_modules/.bin/oqlkit'), ['serve', '--port', String(port)], {
      cwd: app,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    server.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
    })
    server.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8')
    })
    const exited = new Promise<number | null>((done) => server.on('exit', (code) => done(code)))
    try {
      // The first start builds .catalog/ from the sample the package ships, then listens.
      let answer: Response | undefined
      const deadline = Date.now() + 100_000
      while (answer === undefined && Date.now() < deadline) {
        if (server.exitCode !== null) throw new Error(`oqlkit serve exited ${server.exitCode}:\n${output}`)
        answer = await fetch(`http://127.0.0.1:${port}/works?filter=publication_year:2020&per_page=2`).catch(
          () => undefined,
        )
        if (answer === undefined) await new Promise((wait) => setTimeout(wait, 250))
      }
      expect(answer?.status, output).toBe(200)
      const body = (await answer!.json()) as { meta: { count: number }; results: unknown[] }
      expect(body.meta.count).toBeGreaterThan(0)
      expect(body.results).toHaveLength(2)
      expect(output).toContain('building it from the bundled sample')
      expect(output).toContain('node_modules/@oqlkit/snapshot/sample-snapshot')
      // Install scripts were blocked: the records were written on zstd's WebAssembly build, and it says so.
      expect(output).toContain("zstd's WebAssembly build")
    } finally {
      server.kill('SIGINT')
      await exited
    }
  }, 120_000)

  it.each([
    ['module NodeNext', ['--module', 'NodeNext', '--moduleResolution', 'NodeNext']],
    ['moduleResolution Bundler', ['--module', 'ESNext', '--moduleResolution', 'Bundler']],
  ])('type-check a consumer under %s', (_label, flags) => {
    const app = join(scratch, 'app')
    run(
      process.execPath,
      [
        TSC,
        '--noEmit',
        '--strict',
        '--target',
        'ES2023',
        '--types',
        'node',
        // As most projects do: h3's own declarations do not pass a full check (a missing optional `crossws`).
        // The consumer's deliberate type errors below still fail if any of ours resolved to nothing.
        '--skipLibCheck',
        ...flags,
        'packed-consumer.ts',
      ],
      { cwd: app },
    )
  })

  it('run the example of every README, printing what its comments say', async () => {
    const app = join(scratch, 'app')
    // The examples make their scratch directories under the OS temporary directory and leave them there;
    // here that is inside this file's scratch directory, which afterAll removes.
    const temporary = join(scratch, 'tmp')
    mkdirSync(temporary)
    const redis = await redisForTests()
    // An example is run once however many READMEs show it word for word (ingest's and adapter-duckdb's are
    // the same program, which builds a small catalog): the same code prints the same lines.
    const outputs = new Map<string, Promise<string>>()
    const runs = packs.map(async (pack) => {
      // adapter-redis's example talks to a real Redis: skipped without one, as the Redis tests are (and
      // an error under OQLKIT_REQUIRE_REDIS=1, which CI sets).
      if (pack.name === '@oqlkit/adapter-redis' && !redis.reachable) return
      const { code, promised } = readmeExample(pack.name)
      expect(promised.length, `${pack.name}'s example promises some output`).toBeGreaterThan(0)
      let output = outputs.get(code)
      if (output === undefined) {
        const file = join(app, `readme-${pack.name.replace('@oqlkit/', '')}.mjs`)
        writeFileSync(file, code)
        // Together: two of them build a small catalog, and each waits mostly on its own DuckDB.
        output = promisify(execFile)(process.execPath, [file], {
          cwd: app,
          env: { ...cleanEnv(), TMPDIR: temporary },
        }).then(({ stdout }) => stdout)
        outputs.set(code, output)
      }
      expect((await output).trimEnd().split('\n'), pack.name).toEqual(promised)
    })
    await Promise.all(runs)
  }, 120_000)
})
