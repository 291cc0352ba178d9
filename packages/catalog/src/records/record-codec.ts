// How a record is stored in the record store: JSON text, compressed alone with a preset dictionary. One record
// compressed alone loses the redundancy a Parquet page shares between its rows (every work repeats the same
// keys and URL prefixes); a dictionary made of typical records of the same entity gives it back, so records
// stay small and each one still decompresses by itself, without touching its neighbours.
//
// Three codecs, named in catalog.json per record store (`recordStore.codec`), so a catalog written with any
// is read: raw deflate (node:zlib; every store of a format 6 catalog, and of a catalog built from one), zstd
// (format 7 on), and zstd over records whose abstract is packed as its words (abstract-words-packer.ts), which
// new stores are written with. zstd is the zstd library's own C code, native or as WebAssembly (zstd-backend.ts),
// because Node 20's zlib has no zstd. Per record, one thread (`npm run bench:parse-cost`): on 9,298 generated works of
// 15.6 KiB, zstd level 3 with a 128 KiB dictionary compressed in 108 µs against deflate's 319 µs (level 6,
// 32 KiB) and decompressed in 54 µs against 112 µs, at the same size (0.168 of the JSON against 0.167); on
// the committed sample's 565 real works, 96 against 329 µs and 26 against 62 µs, at 0.232 against 0.220.
// `buildRecordDictionary` makes the raw dictionary; a zstd store's is usually one the zstd command trained
// (../ingest/record-dictionary-trainer.ts), which zstd loads the same way, telling the two apart by its magic.
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib'
import { packAbstractWords, unpackAbstractWords, withoutAbstractWords } from './abstract-words-packer.ts'
import { type ZstdCompress, type ZstdDecompress, zstdBackend } from './zstd-backend.ts'

export const RECORD_CODEC_IDS = [
  'deflate-raw+dictionary',
  'zstd+dictionary',
  'zstd+dictionary+abstract-words',
] as const
export type RecordCodecId = (typeof RECORD_CODEC_IDS)[number]

/** The codec new record stores are written with; an update keeps the codec of the store it extends. */
export const RECORD_CODEC_ID: RecordCodecId = 'zstd+dictionary+abstract-words'

export const isRecordCodecId = (id: string): id is RecordCodecId =>
  (RECORD_CODEC_IDS as readonly string[]).includes(id)

/** `id` as a codec this version reads; `store` names the record store in the error when it is not. */
export function checkRecordCodecId(id: string, store: string): RecordCodecId {
  if (isRecordCodecId(id)) return id
  throw new Error(
    `The record store ${store} uses codec ${JSON.stringify(id)}; this version reads ${RECORD_CODEC_IDS.join(', ')}`,
  )
}

/**
 * How much of the example records a dictionary keeps. Deflate looks back at most 32 KiB, so only the last
 * 32 KiB of a dictionary can ever be used; zstd uses all of it, and 128 KiB made records 8% smaller than 32
 * KiB did, for the same time.
 */
const DICTIONARY_BYTES: Readonly<Record<RecordCodecId, number>> = {
  'deflate-raw+dictionary': 32 * 1024,
  'zstd+dictionary': 128 * 1024,
  'zstd+dictionary+abstract-words': 128 * 1024,
}

/**
 * A dictionary from example records: the bytes the compressor would have seen just before the record. The
 * examples are concatenated in the order given and the tail is kept (near bytes are referenced more cheaply,
 * so the most typical example should come last).
 */
export const buildRecordDictionary = (
  examples: readonly string[],
  codec: RecordCodecId = RECORD_CODEC_ID,
): Buffer => {
  const form = recordCodecOf(codec, Buffer.alloc(0))
  const joined = Buffer.concat(
    examples.flatMap((example, index) => [...(index === 0 ? [] : [NEWLINE]), form.compressedForm(example)]),
  )
  const keep = DICTIONARY_BYTES[codec]
  return joined.length <= keep ? joined : joined.subarray(joined.length - keep)
}

/**
 * The deflate level records are written at. Setting the 32 KiB dictionary costs every record the same
 * whatever the level, so the levels differ less than for one long stream: on 891 generated works of 15.6 KB,
 * level 1 took 243 ms for 0.97× the gzipped snapshot and level 6 393 ms for 0.81×.
 */
export const RECORD_DEFLATE_LEVEL = constants.Z_DEFAULT_COMPRESSION

/**
 * The zstd level records are written at: zstd's default. On 209 generated works, level 1 made records 6%
 * larger for a quarter less time, level 6 10% smaller for 2.8 times the time.
 */
export const RECORD_ZSTD_LEVEL = 3

const NEWLINE = Buffer.from('\n')

/** One record store's codec: each record compressed alone with the store's dictionary. */
export interface RecordCodec {
  readonly id: RecordCodecId
  /** The bytes the compressor is given for a record: what a dictionary for this codec is made of. */
  compressedForm(json: string): Buffer
  /**
   * The record's stored bytes. It may be given as its UTF-8 bytes (valid UTF-8: they are stored as they are),
   * which spares ingest encoding a text it has just decoded (16 KB a work).
   */
  encode(json: string | Buffer): Buffer
  /**
   * The record's JSON as UTF-8 bytes: a response can send them as they are. With `abstract: false`, a work's
   * abstract may come back `null` (`abstract_inverted_index`), for a reader that does not send it.
   */
  decode(bytes: Uint8Array, wanted?: RecordParts): Uint8Array
}

/** What of a record its reader wants, where leaving a part out saves work. */
export interface RecordParts {
  /** A work's `abstract_inverted_index` (default true). */
  readonly abstract?: boolean
}

class DeflateRecordCodec implements RecordCodec {
  readonly id = 'deflate-raw+dictionary'
  readonly #dictionary: Buffer

  constructor(dictionary: Buffer) {
    this.#dictionary = dictionary
  }

  compressedForm(json: string): Buffer {
    return Buffer.from(json, 'utf8')
  }

  encode(json: string | Buffer): Buffer {
    return this.#dictionary.length === 0
      ? deflateRawSync(json, { level: RECORD_DEFLATE_LEVEL })
      : deflateRawSync(json, { level: RECORD_DEFLATE_LEVEL, dictionary: this.#dictionary })
  }

  decode(bytes: Uint8Array): Uint8Array {
    return this.#dictionary.length === 0
      ? inflateRawSync(bytes)
      : inflateRawSync(bytes, { dictionary: this.#dictionary })
  }
}

/**
 * zstd frames with the store's dictionary, each direction's context made on first use (zstd-backend.ts): a
 * parse worker only compresses, a reader only decompresses. A frame states its size, so decoding allocates once. Not shared between threads: each
 * worker makes its own. `zstd+dictionary+abstract-words` stores a work's abstract as its words.
 */
class ZstdRecordCodec implements RecordCodec {
  readonly id: 'zstd+dictionary' | 'zstd+dictionary+abstract-words'
  readonly #dictionary: Buffer
  #compress: ZstdCompress | undefined
  #decompress: ZstdDecompress | undefined

  constructor(id: ZstdRecordCodec['id'], dictionary: Buffer) {
    this.id = id
    this.#dictionary = dictionary
  }

  get #packsAbstracts(): boolean {
    return this.id === 'zstd+dictionary+abstract-words'
  }

  compressedForm(json: string | Buffer): Buffer {
    if (this.#packsAbstracts) return packAbstractWords(json)
    return typeof json === 'string' ? Buffer.from(json, 'utf8') : json
  }

  encode(json: string | Buffer): Buffer {
    this.#compress ??= zstdBackend.compressor(this.#dictionary, RECORD_ZSTD_LEVEL)
    const frame = this.#compress(this.compressedForm(json))
    return Buffer.isBuffer(frame) ? frame : Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength)
  }

  decode(bytes: Uint8Array, wanted?: RecordParts): Uint8Array {
    this.#decompress ??= zstdBackend.decompressor(this.#dictionary)
    const stored = this.#decompress(bytes)
    if (!this.#packsAbstracts) return stored
    return wanted?.abstract === false ? withoutAbstractWords(stored) : unpackAbstractWords(stored)
  }
}

/** The codec `id` names, with its store's dictionary; an id this version does not know is an error. */
export function recordCodecOf(id: RecordCodecId, dictionary: Buffer): RecordCodec {
  switch (id) {
    case 'zstd+dictionary':
    case 'zstd+dictionary+abstract-words':
      return new ZstdRecordCodec(id, dictionary)
    case 'deflate-raw+dictionary':
      return new DeflateRecordCodec(dictionary)
    default:
      // Plain JavaScript callers can pass any text; the type says they should not.
      return checkRecordCodecId(id satisfies never, 'being written') as never
  }
}
