import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { createDuckDbAdapter } from '@oqlkit/adapter-duckdb'
import { READABLE_CATALOG_FORMAT_VERSIONS } from '@oqlkit/catalog'
import { type CommandResult, runCli } from '@oqlkit/cli'
import { planQuery } from '@oqlkit/engine'
import { ingestSnapshot } from '@oqlkit/ingest'
import type { Oqo } from '@oqlkit/oqo-schema'
import { generateSnapshot } from '@oqlkit/snapshot'
import { USE_LITE_MODEL_ID } from '@oqlkit/text-models'
import { startStandInServer } from '@oqlkit/text-models/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-cli-ingest-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

// What the command does with its flags (no index, resume, replace, an embeddings server) holds whatever the
// snapshot holds, so the tests ingest a small generated one (the bundled sample is ingested through the
// command by serve-command's first start, and by the library for the shared sample catalog). Its works span
// several part files, so that a run can stop with some parsed and others not.
const SMALL_WORKS = 120
let smallSnapshot: string
beforeAll(async () => {
  const generated = await generateSnapshot({
    works: SMALL_WORKS,
    outDir: join(scratch, 'small-snapshot'),
    seed: 5,
    recordsPerPart: 40,
    // The topics, concepts and keywords the works name, not the whole vocabulary (some 7,000 records more):
    // every ingest of it here took 2 s longer for them.
    vocabulary: 'referenced',
  })
  smallSnapshot = generated.outDir
})
/** The works of the sentence encoder's test. */
const USE_LITE_WORKS = 12
const smallWorks = new RegExp(`works\\s+${SMALL_WORKS}\\s+${SMALL_WORKS}`)

/** The flags of a core catalog: no search index, vectors or tag model. */
const CORE = ['--no-search-index', '--no-vectors', '--no-text-tagger']

/**
 * A run of the library's ingest of the small snapshot whose progress listener fails once a part is staged:
 * it stops as a run out of memory would.
 */
const stopEarly = (outDir: string) =>
  ingestSnapshot({
    snapshotDir: smallSnapshot,
    outDir,
    searchIndex: false,
    vectors: false,
    textTagger: false,
    onProgress: (event) => {
      if (event.partsStaged > 0) throw new Error('stopped here')
    },
  })

/**
 * The small snapshot's core catalog, built by the command once, with --no-resume after a run that stopped
 * while parsing (so from the start, the stopped run's files removed): the resume test asserts that it
 * started over, another test what it built, a third starts from a copy of it. One build for the three (an
 * ingest is ~3 s of CPU).
 */
let coreBuild:
  | Promise<{ readonly out: string; readonly stopped: unknown; readonly result: CommandResult }>
  | undefined
const coreCatalog = () => {
  coreBuild ??= (async () => {
    const out = join(scratch, 'not-resumed')
    const stopped = await stopEarly(out).then(
      () => undefined,
      (error: unknown) => error,
    )
    const result = await runCli(
      ['ingest', smallSnapshot, '--out', out, '--no-resume', ...CORE, '--memory-limit', '2GB'],
      collect().context,
    )
    return { out, stopped, result }
  })()
  return coreBuild
}

/**
 * The core catalog made older (a format version older than any this oqlkit reads), the ingest refused on it,
 * and its rebuild with --replace, given an embeddings server for its vectors (no search index or tag model):
 * the replace test asserts the refusal and the rebuild, the embeddings test the vectors that rebuild computed
 * through the server. One ingest for the two (an ingest is ~3 s of CPU). The server is closed once the
 * rebuild is done: the embeddings test then names it as a server that is not there.
 */
let replaceBuild:
  | Promise<{
      readonly out: string
      readonly refused: CommandResult
      readonly replaced: CommandResult
      /** The older catalog.json as written, and as it was after the refused ingest. */
      readonly olderManifest: { readonly written: string; readonly afterRefusal: string }
      readonly currentFormatVersion: number
      /** How many requests the embeddings server got during the rebuild. */
      readonly embeddingsRequests: number
      readonly embeddingsUrl: string
    }>
  | undefined
const replacedCatalog = () => {
  replaceBuild ??= (async () => {
    const out = join(scratch, 'older-format')
    // The core catalog of the same snapshot, as the command built it, copied rather than built again.
    const built = await coreCatalog()
    expect(built.result.exitCode).toBe(0)
    cpSync(built.out, out, { recursive: true })
    // A catalog an older oqlkit wrote: the same files, a format version older than any this one reads.
    const manifestFile = join(out, 'catalog.json')
    const current = JSON.parse(readFileSync(manifestFile, 'utf8')) as { formatVersion: number }
    const oldest = Math.min(...READABLE_CATALOG_FORMAT_VERSIONS)
    const older = JSON.stringify({ ...current, formatVersion: oldest - 1 })
    writeFileSync(manifestFile, older)
    const refused = await runCli(['ingest', smallSnapshot, '--out', out, ...CORE], collect().context)
    const afterRefusal = readFileSync(manifestFile, 'utf8')
    const server = await startStandInServer(16)
    try {
      const replaced = await runCli(
        [
          'ingest',
          smallSnapshot,
          '--out',
          out,
          '--replace',
          '--no-search-index',
          '--no-text-tagger',
          '--embeddings-url',
          server.url,
          '--embeddings-model',
          'stand-in',
        ],
        collect().context,
      )
      return {
        out,
        refused,
        replaced,
        olderManifest: { written: older, afterRefusal },
        currentFormatVersion: current.formatVersion,
        embeddingsRequests: server.requests.length,
        embeddingsUrl: server.url,
      }
    } finally {
      await server.close()
    }
  })()
  return replaceBuild
}

/**
 * The snapshot `oqlkit generate` writes, and the catalog `oqlkit ingest` builds of it with no flags (search
 * index, vectors and tag model included), each run once: the first ingest test asserts what that build says,
 * the generate test what generate says and that ingest reads its snapshot whole, which the same build shows
 * (a build is 7-12 s of CPU). Sixty works: the build still makes all three (search index, vectors, tag
 * model), and 300 cost it some 4 s more of CPU, for nothing these tests ask.
 */
const GENERATED_WORKS = 60
interface Run {
  readonly out: string
  readonly result: CommandResult
  readonly progress: readonly string[]
}
let generation: Promise<Run> | undefined
let defaultBuild: Promise<Run> | undefined
const generatedSnapshot = () => {
  generation ??= (async () => {
    const out = join(scratch, 'generated')
    const { progress, context } = collect()
    // The referenced vocabulary: the whole one adds some 7,000 records to the ingest of it (the test of
    // --vocabulary compares the two).
    const result = await runCli(
      [
        'generate',
        '--works',
        String(GENERATED_WORKS),
        '--out',
        out,
        '--seed',
        '7',
        '--vocabulary',
        'referenced',
      ],
      context,
    )
    return { out, result, progress }
  })()
  return generation
}
const defaultCatalog = () => {
  defaultBuild ??= (async () => {
    const snapshot = await generatedSnapshot()
    expect(snapshot.result.exitCode, snapshot.result.stderr).toBe(0)
    const out = join(scratch, 'catalog')
    const { progress, context } = collect()
    const result = await runCli(['ingest', snapshot.out, '--out', out], context)
    return { out, result, progress }
  })()
  return defaultBuild
}
const generatedWorks = new RegExp(`works\\s+${GENERATED_WORKS}\\s+${GENERATED_WORKS}`)

/** Every file under a folder, by its path there, with the SHA-256 of its bytes. */
const filesOf = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        return [relative(dir, path), createHash('sha256').update(readFileSync(path)).digest('hex')]
      }),
  )

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

describe('oqlkit ingest', { timeout: 120_000 }, () => {
  it('builds a catalog, with progress and a summary', async () => {
    // The generated snapshot's build with no flags, shared with the generate test.
    const { out, progress, result } = await defaultCatalog()
    expect(result.stderr).toBeUndefined()
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(/^created catalog .* \(legacy layout\)/)
    expect(result.stdout).toMatch(generatedWorks)
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

  it('builds without the search index, the vectors and the tag model when told, and the catalog says so', async () => {
    // Built with --no-resume after a stopped run, shared with the resume test: a build from the start.
    const { out, result } = await coreCatalog()
    expect(result.exitCode).toBe(0)
    const manifest = JSON.parse(readFileSync(join(out, 'catalog.json'), 'utf8')) as {
      extensions: Record<string, unknown>
    }
    expect(manifest.extensions).toStrictEqual({})
    expect(existsSync(join(out, 'search'))).toBe(false)
    expect(existsSync(join(out, 'vectors'))).toBe(false)
    expect(existsSync(join(out, 'text-tagger'))).toBe(false)
  })

  it('resumes a run that stopped while parsing, and says so; --no-resume starts over', async () => {
    const out = join(scratch, 'resumed')
    // Parts that finish together are staged together: the first staging may hold more than one.
    const stopped = await stopEarly(out).then(
      () => undefined,
      (error: unknown) => (error as Error).message,
    )
    const staged = /stopped here\nThe (\d+) part files staged so far are kept in/.exec(stopped ?? '')?.[1]
    expect(staged, stopped).toMatch(/^[1-9]\d*$/)
    const resumed = await runCli(['ingest', smallSnapshot, '--out', out, ...CORE], collect().context)
    expect(resumed.exitCode).toBe(0)
    expect(resumed.stdout).toContain(
      `resumed: ${staged} part files were parsed by an earlier run that stopped`,
    )
    expect(resumed.stdout).toMatch(smallWorks)

    // Another run stopped so, and then --no-resume: the core catalog that two other tests read, built once.
    const { stopped: freshStopped, result: over } = await coreCatalog()
    expect(freshStopped).toBeInstanceOf(Error)
    expect((freshStopped as Error).message).toContain('stopped here')
    expect(over.exitCode).toBe(0)
    expect(over.stdout).not.toContain('resumed:')
    expect(over.stdout).toMatch(
      /warning: removed .*\.not-resumed\.ingest-.* left by an ingest that stopped before it finished\n/,
    )
  })

  it('refuses to update a catalog of another format, saying --replace, and rebuilds it with --replace', async () => {
    // The core catalog of the same snapshot, made older, refused, then rebuilt with --replace (with vectors
    // from the embeddings server: the next test reads what that build made of them).
    const { out, refused, replaced, olderManifest, currentFormatVersion } = await replacedCatalog()
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toContain(
      `expected formatVersion ${READABLE_CATALOG_FORMAT_VERSIONS.join(' or ')}`,
    )
    expect(refused.stderr).toContain('--replace')
    expect(olderManifest.afterRefusal).toBe(olderManifest.written)
    expect(replaced.stderr).toBeUndefined()
    expect(replaced.exitCode).toBe(0)
    expect(replaced.stdout).toMatch(/^replaced catalog /)
    expect(replaced.stdout).toMatch(smallWorks)
    expect(
      (JSON.parse(readFileSync(join(out, 'catalog.json'), 'utf8')) as { formatVersion: number })
        .formatVersion,
    ).toBe(currentFormatVersion)
  })

  it('computes the vectors through an embeddings server when given one', async () => {
    // The --replace build of the test above, given the embeddings server: one ingest for the two.
    const { out, replaced, embeddingsRequests, embeddingsUrl } = await replacedCatalog()
    expect(replaced.stderr).toBeUndefined()
    expect(replaced.exitCode).toBe(0)
    const manifest = JSON.parse(readFileSync(join(out, 'catalog.json'), 'utf8')) as {
      extensions: { vectors?: { embedder: unknown; dimensions: number; count: number } }
    }
    expect(manifest.extensions.vectors?.embedder).toEqual({
      modelId: 'openai-compatible:stand-in',
      dimensions: 16,
      kind: 'openai-compatible',
      model: 'stand-in',
    })
    // A vector for each work with a title or abstract: nearly all of them.
    expect(manifest.extensions.vectors?.count).toBeGreaterThan(SMALL_WORKS * 0.8)
    expect(embeddingsRequests).toBeGreaterThan(1)
    // A server that is not there (the same one, closed since): a clear error before anything is built.
    const gone = await runCli(
      [
        'ingest',
        smallSnapshot,
        '--out',
        join(scratch, 'never'),
        '--embeddings-url',
        embeddingsUrl,
        '--embeddings-model',
        'm',
      ],
      collect().context,
    )
    expect(gone.exitCode).toBe(1)
    expect(gone.stderr).toMatch(/could not be reached[\s\S]*Nothing was changed/)
    expect(existsSync(join(scratch, 'never'))).toBe(false)
  }, 240_000)

  it('embeds the works with the built-in sentence encoder with --embedder use-lite, and answers by it', async () => {
    // A snapshot of its own, of a dozen works: the encoder takes about 80 ms a work.
    const tiny = await generateSnapshot({
      works: USE_LITE_WORKS,
      outDir: join(scratch, 'tiny-snapshot'),
      seed: 5,
      vocabulary: 'referenced',
    })
    const out = join(scratch, 'use-lite-vectors')
    const result = await runCli(
      [
        'ingest',
        tiny.outDir,
        '--out',
        out,
        '--no-search-index',
        '--no-text-tagger',
        '--embedder',
        'use-lite',
      ],
      collect().context,
    )
    expect(result.stderr).toBeUndefined()
    expect(result.exitCode).toBe(0)
    const manifest = JSON.parse(readFileSync(join(out, 'catalog.json'), 'utf8')) as {
      extensions: { vectors?: { embedder: unknown; count: number; lsa?: unknown } }
    }
    expect(manifest.extensions.vectors?.embedder).toEqual({
      modelId: USE_LITE_MODEL_ID,
      dimensions: 512,
      kind: 'use-lite',
    })
    expect(manifest.extensions.vectors?.lsa).toBeUndefined()
    expect(manifest.extensions.vectors?.count).toBeGreaterThan(USE_LITE_WORKS * 0.8)
    // The catalog brings its embedder: a semantic query needs no embedder given, and the nearest work to a
    // work's title is that work.
    const adapter = await createDuckDbAdapter({ catalogDir: out, threads: 1 })
    try {
      const planned = (oqo: Oqo, perPage: number) => {
        const result = planQuery(oqo, { perPage, select: ['id', 'display_name'] })
        if (!result.ok) throw new Error(JSON.stringify(result.errors))
        return result.plan
      }
      const { rows } = await adapter.queryRows(planned({ get_rows: 'works' }, 20))
      const target = rows.find((work) => String(work.display_name ?? '').length > 20)!
      const similar = await adapter.queryRows(
        planned(
          {
            get_rows: 'works',
            filter_rows: [
              { column_id: 'abstract.search.semantic', value: String(target.display_name), operator: 'has' },
            ],
          },
          1,
        ),
      )
      expect(similar.rows[0]?.id).toBe(target.id)
    } finally {
      await adapter.close()
    }
  }, 240_000)

  it('explains its usage when the arguments are wrong', async () => {
    for (const argv of [
      ['ingest'],
      ['ingest', 'a', 'b'],
      ['ingest', 'a', '--out'],
      ['ingest', 'a', '--memory-limit', 'lots'],
      ['ingest', 'a', '--no-such-option'],
      ['ingest', 'a', '--embeddings-url'],
      ['ingest', 'a', '--embeddings-url', 'http://127.0.0.1:9'],
      ['ingest', 'a', '--embeddings-model', 'm'],
      ['ingest', 'a', '--no-vectors', '--embeddings-url', 'http://127.0.0.1:9', '--embeddings-model', 'm'],
      ['ingest', 'a', '--embedder', 'bert'],
      ['ingest', 'a', '--embedder', 'url'],
      [
        'ingest',
        'a',
        '--embedder',
        'use-lite',
        '--embeddings-url',
        'http://127.0.0.1:9',
        '--embeddings-model',
        'm',
      ],
      ['ingest', 'a', '--embedder', 'use-lite', '--no-vectors'],
    ]) {
      const result = await runCli(argv)
      expect(result.exitCode).toBe(2)
      expect(result.stderr).toContain('Usage: oqlkit ingest')
    }
  })
})

describe('oqlkit generate', { timeout: 120_000 }, () => {
  it('writes a synthetic snapshot that ingest reads, and refuses to overwrite without --overwrite', async () => {
    // Generated once for this test and the first ingest test, which builds a catalog of it.
    const { out, progress, result } = await generatedSnapshot()
    expect(result.stderr).toBeUndefined()
    expect(result.stdout).toMatch(new RegExp(`^generated ${GENERATED_WORKS} works \\(seed 7\\)`))
    expect(progress.length).toBeGreaterThan(0)
    // What is asked of the generated snapshot is that ingest reads it whole: the build of it (with no flags,
    // once, shared with the first ingest test) says so. That build may have read it before the refused
    // generate below, so that one is seen to leave every file as it was.
    const ingested = await defaultCatalog()
    const before = filesOf(out)
    const again = await runCli(
      ['generate', '--works', String(GENERATED_WORKS), '--out', out],
      collect().context,
    )
    expect(again.exitCode).toBe(1)
    expect(filesOf(out)).toEqual(before)
    expect(ingested.result.exitCode).toBe(0)
    expect(ingested.result.stdout).toMatch(generatedWorks)
  })

  it('writes only the vocabulary its works name with --vocabulary referenced', async () => {
    const recordsOf = (stdout: string, entity: string) =>
      Number(new RegExp(`^\\s+${entity}\\s+(\\d+)$`, 'm').exec(stdout)?.[1])
    const [whole, referenced] = await Promise.all(
      ['whole', 'referenced'].map((vocabulary) =>
        runCli(
          [
            'generate',
            '--works',
            '20',
            '--out',
            join(scratch, `vocabulary-${vocabulary}`),
            '--vocabulary',
            vocabulary,
          ],
          collect().context,
        ),
      ),
    )
    for (const entity of ['topics', 'concepts', 'keywords']) {
      expect(recordsOf(referenced!.stdout!, entity), entity).toBeGreaterThan(0)
      expect(recordsOf(referenced!.stdout!, entity), entity).toBeLessThan(
        recordsOf(whole!.stdout!, entity) / 4,
      )
    }
    expect(recordsOf(referenced!.stdout!, 'works')).toBe(20)
  })

  it('explains its usage when the arguments are wrong', async () => {
    for (const argv of [
      ['generate'],
      ['generate', '--works', '0', '--out', 'x'],
      ['generate', '--works', '5'],
      ['generate', '--works', '5', '--out', 'x', '--vocabulary', 'some'],
    ]) {
      const result = await runCli(argv)
      expect(result.exitCode).toBe(2)
      expect(result.stderr).toContain('Usage: oqlkit generate')
    }
  })
})
