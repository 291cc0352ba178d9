// Which zstd the record stores run on. Two builds of the same zstd library write and read the same frames:
// `zstd-napi` (zstd's C code behind Node-API, a native addon) and `@bokuweb/zstd-wasm` (zstd compiled to
// WebAssembly, shipped inside its npm package). The native one is faster (BENCHMARKS.md, ce) but
// needs its install script: it is an optional dependency, and where it was not built (install scripts blocked,
// as npm is moving to by default, or no compiler and no prebuilt binary) the WebAssembly one serves instead,
// so an install never needs a native build step. Node 20's zlib has no zstd (22.15 added it); when the
// supported Node versions all have it, it can replace both.
//
// OQLKIT_ZSTD=wasm uses the WebAssembly build even where the native one loads (tests and benchmarks compare the
// two); OQLKIT_ZSTD=native makes a missing native build an error instead of a fallback.
import { createRequire } from 'node:module'

/** Compresses one record's bytes alone into one zstd frame (with its content size), with a dictionary. */
export type ZstdCompress = (data: Uint8Array) => Uint8Array
/** Decompresses one zstd frame that states its content size, with the dictionary it was written with. */
export type ZstdDecompress = (frame: Uint8Array) => Uint8Array

export interface ZstdBackend {
  readonly name: 'zstd-napi' | 'zstd-wasm'
  /** `dictionary` may be empty: no dictionary. */
  compressor(dictionary: Uint8Array, level: number): ZstdCompress
  decompressor(dictionary: Uint8Array): ZstdDecompress
}

type ZstdNapi = typeof import('zstd-napi')
type ZstdWasm = typeof import('@bokuweb/zstd-wasm')

/** zstd-napi: the dictionary loaded once into a reused context (loading it per record cost more than the record). */
const napiBackend = (napi: ZstdNapi): ZstdBackend => ({
  name: 'zstd-napi',
  compressor: (dictionary, level) => {
    const compressor = new napi.Compressor()
    // Parameters first: zstd refuses to change them once a dictionary is loaded.
    compressor.setParameters({ compressionLevel: level })
    if (dictionary.length > 0) compressor.loadDictionary(Buffer.from(dictionary))
    return (data) => compressor.compress(data)
  },
  decompressor: (dictionary) => {
    const decompressor = new napi.Decompressor()
    if (dictionary.length > 0) decompressor.loadDictionary(Buffer.from(dictionary))
    return (frame) => decompressor.decompress(frame)
  },
})

/** The most a record may decompress to: far past any record OpenAlex writes (a work is at most a few MB). */
const MAX_RECORD_BYTES = 256 * 1024 * 1024

/**
 * The content size a zstd frame's header states (RFC 8878, 3.1.1.1), or undefined when it states none or the
 * bytes are not a frame. The WebAssembly build allocates what the header says without checking it, so a
 * damaged record could ask for any size: the size is checked here first.
 */
export const frameContentSize = (frame: Uint8Array): number | undefined => {
  if (frame.length < 6 || frame[0] !== 0x28 || frame[1] !== 0xb5 || frame[2] !== 0x2f || frame[3] !== 0xfd)
    return undefined
  const descriptor = frame[4]!
  const sizeFlag = descriptor >> 6
  const singleSegment = (descriptor & 0x20) !== 0
  const sizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][sizeFlag]!
  if (sizeBytes === 0) return undefined
  const at = 5 + (singleSegment ? 0 : 1) + [0, 1, 2, 4][descriptor & 0x03]!
  if (frame.length < at + sizeBytes) return undefined
  let size = 0
  for (let byte = sizeBytes - 1; byte >= 0; byte--) size = size * 256 + frame[at + byte]!
  return sizeBytes === 2 ? size + 256 : size
}

/** A WebAssembly context lives in the module's memory, not the JavaScript heap: freed when its user is collected. */
const wasmContexts = new FinalizationRegistry<() => void>((free) => free())

/**
 * zstd-wasm: its API takes the dictionary on every call (the build exports no prepared dictionaries), so each
 * record pays for loading it; a context per direction is still reused. Its errors say only a code: they are
 * rethrown saying what failed.
 */
const wasmBackend = (wasm: ZstdWasm): ZstdBackend => ({
  name: 'zstd-wasm',
  compressor: (dictionary, level) => {
    const context = wasm.createCCtx()
    const compress: ZstdCompress = (data) => {
      try {
        return dictionary.length > 0
          ? wasm.compressUsingDict(context, data, dictionary, level)
          : wasm.compress(data, level)
      } catch (error) {
        throw new Error(`zstd (WebAssembly) could not compress ${data.length} bytes: ${String(error)}`)
      }
    }
    wasmContexts.register(compress, () => wasm.freeCCtx(context))
    return compress
  },
  decompressor: (dictionary) => {
    const context = wasm.createDCtx()
    const decompress: ZstdDecompress = (frame) => {
      const size = frameContentSize(frame)
      if (size === undefined || size > MAX_RECORD_BYTES)
        throw new Error(
          `zstd (WebAssembly) refused a frame of ${frame.length} bytes: ${size === undefined ? 'it states no content size (every record frame does)' : `it states ${size} bytes, more than a record holds`}; the record store is damaged`,
        )
      try {
        return dictionary.length > 0
          ? wasm.decompressUsingDict(context, frame, dictionary)
          : wasm.decompress(frame)
      } catch (error) {
        throw new Error(
          `zstd (WebAssembly) could not decompress a frame of ${frame.length} bytes: ${String(error)}`,
        )
      }
    }
    wasmContexts.register(decompress, () => wasm.freeDCtx(context))
    return decompress
  },
})

const require = createRequire(import.meta.url)

/**
 * zstd-napi when it loads (it fails to when its native build is missing), unless OQLKIT_ZSTD says otherwise.
 * `loadNative` is how the addon is loaded (tests give one that fails, as a missing build does).
 */
export async function loadZstdBackend(
  choice: string | undefined,
  loadNative: () => ZstdNapi = () => require('zstd-napi') as ZstdNapi,
): Promise<ZstdBackend> {
  if (choice !== undefined && choice !== '' && choice !== 'native' && choice !== 'wasm')
    throw new Error(`OQLKIT_ZSTD is ${JSON.stringify(choice)}: say native or wasm, or leave it unset`)
  if (choice !== 'wasm') {
    try {
      return napiBackend(loadNative())
    } catch (error) {
      if (choice === 'native')
        throw new Error(
          `OQLKIT_ZSTD=native, but zstd-napi does not load (${error instanceof Error ? error.message : String(error)}); install it with its install script allowed, or unset OQLKIT_ZSTD`,
        )
    }
  }
  // A failed start is not kept: the next caller tries again.
  wasmLoading ??= loadWasm().catch((error: unknown) => {
    wasmLoading = undefined
    throw error
  })
  return wasmBackend(await wasmLoading)
}

/**
 * The WebAssembly module, started once per process: starting it again makes a new memory, and every context made
 * in the old one points into nothing.
 */
let wasmLoading: Promise<ZstdWasm> | undefined
async function loadWasm(): Promise<ZstdWasm> {
  // The package is CommonJS: its functions are the default export's, or (through a loader) the namespace's.
  const imported = (await import('@bokuweb/zstd-wasm')) as ZstdWasm & { default?: ZstdWasm }
  const wasm = imported.default ?? imported
  await wasm.init()
  return wasm
}

/** The zstd this process runs on, chosen once when the module loads. */
export const zstdBackend: ZstdBackend = await loadZstdBackend(process.env.OQLKIT_ZSTD)
