// The two zstd builds the record stores run on (zstd-backend.ts): the native addon and the WebAssembly one read
// each other's frames byte for byte, with a raw dictionary, with none, and with the trained dictionaries of the
// sample catalog's stores; OQLKIT_ZSTD picks the build a process uses, and a wrong value is refused.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { CatalogInspector, sampleSnapshotLines, sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildRecordDictionary } from '../src/records/record-codec.ts'
import {
  frameContentSize,
  loadZstdBackend,
  type ZstdBackend,
  zstdBackend,
} from '../src/records/zstd-backend.ts'

const REPO = resolve(import.meta.dirname, '../../..')
const works = sampleSnapshotLines('works').map((line) => Buffer.from(line, 'utf8'))
let native: ZstdBackend
let wasm: ZstdBackend

beforeAll(async () => {
  native = await loadZstdBackend('native')
  wasm = await loadZstdBackend('wasm')
})

const same = (a: Uint8Array, b: Uint8Array) => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0

describe('the native and WebAssembly zstd builds', () => {
  it('are the builds they say, the native one chosen when it loads', () => {
    expect(native.name).toBe('zstd-napi')
    expect(wasm.name).toBe('zstd-wasm')
    expect(zstdBackend.name).toBe(process.env.OQLKIT_ZSTD === 'wasm' ? 'zstd-wasm' : 'zstd-napi')
  })

  it.each([
    ['a raw dictionary of sample works', () => buildRecordDictionary(works.slice(0, 16).map(String))],
    ['no dictionary', () => Buffer.alloc(0)],
  ])('read each other’s frames of every sample work, with %s', (_label, dictionaryOf) => {
    const dictionary = dictionaryOf()
    const fromNative = native.compressor(dictionary, 3)
    const fromWasm = wasm.compressor(dictionary, 3)
    const byNative = native.decompressor(dictionary)
    const byWasm = wasm.decompressor(dictionary)
    let mismatches = 0
    for (const work of works) {
      const nativeFrame = fromNative(work)
      const wasmFrame = fromWasm(work)
      // Compressed, and about the same size (the two load a dictionary differently, so the frames differ).
      expect(nativeFrame.length).toBeLessThan(work.length)
      expect(Math.abs(nativeFrame.length - wasmFrame.length)).toBeLessThanOrEqual(
        Math.max(64, nativeFrame.length / 10),
      )
      for (const [frame, reader] of [
        [nativeFrame, byWasm],
        [wasmFrame, byNative],
        [wasmFrame, byWasm],
      ] as const)
        if (!same(reader(frame), work)) mismatches++
    }
    expect(works.length).toBeGreaterThan(300)
    expect(mismatches).toBe(0)
  })

  it('reads the content size every frame states, and the WebAssembly build refuses a frame that lies about it', () => {
    const dictionary = buildRecordDictionary(works.slice(0, 16).map(String))
    for (const work of works.slice(0, 50))
      for (const build of [native, wasm])
        expect(frameContentSize(build.compressor(dictionary, 3)(work))).toBe(work.length)
    // A damaged header stating 1 TiB (single segment, an 8-byte size), which WebAssembly would have allocated.
    const damaged = Buffer.concat([
      Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0xe0]),
      Buffer.from([0, 0, 0, 0, 0, 1, 0, 0]),
      Buffer.alloc(16),
    ])
    expect(frameContentSize(damaged)).toBe(2 ** 40)
    expect(() => wasm.decompressor(dictionary)(damaged)).toThrow(
      /more than a record holds; the record store is damaged/,
    )
    expect(() => wasm.decompressor(dictionary)(Buffer.from('not a frame'))).toThrow(/states no content size/)
  })

  describe('on the sample catalog’s stores, written natively with trained dictionaries', () => {
    let inspector: CatalogInspector
    beforeAll(async () => {
      inspector = await CatalogInspector.open(await sharedSampleCatalog())
    })
    afterAll(() => inspector?.close())

    it.each(['works', 'authors', 'institutions'])(
      'reads every %s record the same on both',
      async (entity) => {
        const store = inspector.manifest().entities[entity as 'works'].recordStore
        const file = readFileSync(inspector.file(store.file))
        const dictionary = readFileSync(inspector.file(store.dictionary))
        const files = inspector.entityFiles(entity as 'works')
        expect(files).toHaveLength(1)
        const rows = await inspector.rows('SELECT record_offset, record_bytes FROM read_parquet($1)', [
          files[0]!,
        ])
        expect(rows.length).toBeGreaterThan(100)
        const byNative = native.decompressor(dictionary)
        const byWasm = wasm.decompressor(dictionary)
        const fromWasm = wasm.compressor(dictionary, 3)
        let mismatches = 0
        for (const row of rows) {
          const offset = Number(row.record_offset)
          const frame = file.subarray(offset, offset + Number(row.record_bytes))
          const stored = byNative(frame)
          if (!same(byWasm(frame), stored)) mismatches++
          // And what the WebAssembly build writes with the trained dictionary, the native one reads.
          if (!same(byNative(fromWasm(stored)), stored)) mismatches++
        }
        expect(mismatches).toBe(0)
      },
    )
  })
})

describe('without the native build (a stand-in loader that fails as a missing addon does)', () => {
  const missing = () => {
    throw new Error("Cannot find module './build/Release/binding.node'")
  }

  it('runs on WebAssembly, and reads what the native build wrote', async () => {
    const fallback = await loadZstdBackend(undefined, missing)
    expect(fallback.name).toBe('zstd-wasm')
    const dictionary = buildRecordDictionary(works.slice(0, 16).map(String))
    const frame = native.compressor(dictionary, 3)(works[20]!)
    expect(same(fallback.decompressor(dictionary)(frame), works[20]!)).toBe(true)
  })

  it('is an error saying what to do when OQLKIT_ZSTD=native asks for it', async () => {
    await expect(loadZstdBackend('native', missing)).rejects.toThrow(
      /OQLKIT_ZSTD=native, but zstd-napi does not load \(Cannot find module.*install it with its install script allowed/,
    )
  })
})

describe('OQLKIT_ZSTD', () => {
  const nameIn = (value: string) =>
    spawnSync(
      process.execPath,
      [
        '--conditions=@oqlkit/source',
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        "const { zstdBackend } = await import('./packages/catalog/src/records/zstd-backend.ts'); console.log(zstdBackend.name)",
      ],
      { cwd: REPO, encoding: 'utf8', env: { ...process.env, OQLKIT_ZSTD: value } },
    )

  it('wasm runs the records on WebAssembly even where the native build loads, native on the addon', () => {
    expect(nameIn('wasm').stdout.trim()).toBe('zstd-wasm')
    expect(nameIn('native').stdout.trim()).toBe('zstd-napi')
  })

  it('refuses another value, saying which it takes', () => {
    const refused = nameIn('fast')
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toContain('OQLKIT_ZSTD is "fast": say native or wasm, or leave it unset')
  })
})
