// What `oqlkit ingest` and a first `oqlkit serve` say before they write records on zstd's WebAssembly build:
// it works everywhere but compresses a work in about 3.4 times the native build's time (BENCHMARKS.md), and
// the remedy is one command.
import { zstdBackend } from '@oqlkit/catalog'

/** A line to show before writing records, or nothing when the native zstd build runs. */
export const zstdBuildNote = (): string =>
  zstdBackend.name === 'zstd-wasm'
    ? "Records are compressed with zstd's WebAssembly build, about 3x slower than the native one: zstd-napi's install script did not run (`npm rebuild zstd-napi` builds it, given a C compiler).\n"
    : ''
