// Record dictionaries trained by the zstd command: what the trainer gives and how it fails, and how a new
// store's dictionary is chosen between the trained one and the raw tail of its first records.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildRecordDictionary, recordCodecOf } from '@oqlkit/catalog'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { trainZstdDictionary } from '../src/build/record-dictionary-trainer.ts'
import { recordCodingFor } from '../src/build/record-store-assembler.ts'
import { ingestSnapshot } from '../src/ingest-snapshot.ts'
import { CatalogInspector } from './support/catalog-inspector.ts'
import { sampleSnapshotLines } from './support/sample-snapshot-lines.ts'
import { partsOf, work, writeLegacySnapshot } from './support/snapshot-fixtures.ts'
import { zstdCommandForTests } from './support/zstd-command-gate.ts'

const ZSTD_DICTIONARY_MAGIC = '37a430ec'
const sampleRecords = sampleSnapshotLines

let root: string
const workDir = (name: string) => join(root, name)
const hasZstd = zstdCommandForTests()

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'oqlkit-dictionary-'))
})

afterAll(() => {
  rmSync(root, { recursive: true, force: true })
})

describe.skipIf(!hasZstd)('a dictionary trained by the zstd command', () => {
  const works = sampleRecords('works')

  it('is a zstd dictionary of at most the size asked, the same for the same examples, and leaves no files', async () => {
    const first = await trainZstdDictionary(works, { workDir: workDir('a'), maxBytes: 64 * 1024 })
    const again = await trainZstdDictionary(works, { workDir: workDir('b'), maxBytes: 64 * 1024 })
    expect(first.dictionary?.subarray(0, 4).toString('hex')).toBe(ZSTD_DICTIONARY_MAGIC)
    expect(first.dictionary!.length).toBeLessThanOrEqual(64 * 1024)
    expect(again.dictionary).toStrictEqual(first.dictionary)
    expect(existsSync(workDir('a'))).toBe(false)
  })

  it('says why when zstd refuses the examples, and throws nothing', async () => {
    const training = await trainZstdDictionary(works.slice(0, 1), {
      workDir: workDir('c'),
      maxBytes: 64 * 1024,
    })
    expect(training.dictionary).toBeNull()
    expect(training.dictionary === null && training.reason).toMatch(/^zstd --train failed: .*samples/)
    expect(existsSync(workDir('c'))).toBe(false)
  })

  it('is chosen for a store when it compresses the held-out records smaller than the raw dictionary', async () => {
    const coding = await recordCodingFor(undefined, async () => works, 'zstd+dictionary', {
      workDir: workDir('d'),
    })
    expect(coding.dictionaryKind).toBe('trained')
    expect(coding.warning).toBeUndefined()
    expect(coding.dictionary.subarray(0, 4).toString('hex')).toBe(ZSTD_DICTIONARY_MAGIC)
    // Judged on every tenth work, which the training did not see: the trained dictionary is smaller there.
    const heldOut = works.filter((_, index) => index % 10 === 9)
    const sizeWith = (dictionary: Buffer) => {
      const codec = recordCodecOf('zstd+dictionary', dictionary)
      return heldOut.reduce((sum, record) => sum + codec.encode(record).length, 0)
    }
    const raw = buildRecordDictionary(works.slice(0, 16), 'zstd+dictionary')
    expect(sizeWith(coding.dictionary)).toBeLessThan(sizeWith(raw) * 0.95)
    // And every record still reads back through it.
    const codec = recordCodecOf('zstd+dictionary', coding.dictionary)
    for (const record of works.slice(0, 50))
      expect(new TextDecoder().decode(codec.decode(codec.encode(record)))).toBe(record)
  })
})

describe('choosing a store’s dictionary without training', () => {
  const works = sampleRecords('works')

  it('keeps the raw dictionary and warns when the zstd command is missing', async () => {
    const coding = await recordCodingFor(undefined, async () => works, 'zstd+dictionary', {
      workDir: workDir('e'),
      command: join(root, 'no-such-zstd'),
    })
    expect(coding.dictionaryKind).toBe('examples')
    expect(coding.dictionary).toStrictEqual(buildRecordDictionary(works.slice(0, 16), 'zstd+dictionary'))
    expect(coding.warning).toBe(`the ${join(root, 'no-such-zstd')} command was not found`)
  })

  it('trains nothing, and warns of nothing, for an entity too small to train on', async () => {
    const few = sampleRecords('continents')
    const coding = await recordCodingFor(undefined, async () => few, 'zstd+dictionary', {
      workDir: workDir('f'),
      command: join(root, 'no-such-zstd'),
    })
    expect(coding).toStrictEqual({
      codec: 'zstd+dictionary',
      dictionary: buildRecordDictionary(few.slice(0, 16), 'zstd+dictionary'),
      dictionaryKind: 'examples',
    })
  })

  it('never trains for deflate, whose dictionary is the raw window it can reach', async () => {
    const coding = await recordCodingFor(undefined, async () => works, 'deflate-raw+dictionary', {
      workDir: workDir('g'),
      command: join(root, 'no-such-zstd'),
    })
    expect(coding.dictionaryKind).toBe('examples')
    expect(coding.warning).toBeUndefined()
  })
})

describe('an ingest whose works could have a trained dictionary', () => {
  // 300 works of about 3 KB whose abstracts draw words from a skewed vocabulary (a seeded generator), as real
  // text does: the first sixteen records miss much of what the rest repeat, which training finds.
  let seed = 7
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648
    return seed / 2_147_483_648
  }
  const vocabulary = Array.from({ length: 4_000 }, (_, index) => `term${index.toString(36)}ology`)
  const works = Array.from({ length: 300 }, (_, index) =>
    work(index + 1, '2024-01-01T10:00:00', {
      title: `A study of subject ${index % 17} in region ${index % 5}`,
      abstract_inverted_index: Object.fromEntries(
        Array.from({ length: 150 }, (_, word) => [vocabulary[Math.floor(next() ** 3 * 4_000)]!, [word]]),
      ),
    }),
  )
  const ingestWith = async (name: string, zstdCommand?: string) => {
    const snapshotDir = join(root, `${name}-snapshot`)
    writeLegacySnapshot(snapshotDir, partsOf('works', works))
    const outDir = join(root, `${name}-catalog`)
    const summary = await ingestSnapshot({
      snapshotDir,
      outDir,
      searchIndex: false,
      vectors: false,
      textTagger: false,
      ...(zstdCommand === undefined ? {} : { zstdCommand }),
    })
    const catalog = await CatalogInspector.open(outDir)
    try {
      const titles = [...(await catalog.records('works')).values()].map((record) => record.title)
      const dictionary = readFileSync(join(outDir, 'records', 'works.dict'))
      return { summary, titles, dictionary }
    } finally {
      catalog.close()
    }
  }

  it('without the zstd command: every record reads back, with the raw dictionary, and the summary says why', async () => {
    const command = join(root, 'no-such-zstd')
    const { summary, titles, dictionary } = await ingestWith('without', command)
    expect(titles.sort()).toStrictEqual(works.map((record) => record.title).sort())
    expect(dictionary.subarray(0, 4).toString('hex')).not.toBe(ZSTD_DICTIONARY_MAGIC)
    expect(summary.warnings).toStrictEqual([
      `records/works.dict: no dictionary was trained (the ${command} command was not found); its records are compressed with the raw dictionary of its first records, about a tenth larger`,
    ])
  })

  it.skipIf(!hasZstd)(
    'with it: the works’ dictionary is trained, every record reads back, no warning',
    async () => {
      const { summary, titles, dictionary } = await ingestWith('with')
      expect(titles.sort()).toStrictEqual(works.map((record) => record.title).sort())
      expect(dictionary.subarray(0, 4).toString('hex')).toBe(ZSTD_DICTIONARY_MAGIC)
      expect(summary.warnings).toStrictEqual([])
    },
  )
})
