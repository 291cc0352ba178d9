// Reads the text fields of a batch of records from a record store: each record read at its offset,
// decompressed, and its text members picked from its JSON (`pickJsonMembers`, imported alone so the worker
// threads load none of the engine). The texts files do this on the main thread for a small entity and on
// worker threads (record-texts-worker.ts) for a big one.
import { readSync } from 'node:fs'
import { pickJsonMembers } from '@oqlkit/engine/json-members'
import type { RecordCodec } from './record-codec.ts'

/**
 * The keys of a record the builders read: the search index's stored fields, the abstract and title the
 * vectors embed, and the tagger's training texts (title, abstract, keywords, concepts, topics).
 */
export const TEXT_KEYS: readonly string[] = [
  'title',
  'display_name',
  'abstract_inverted_index',
  'fulltext',
  'display_name_alternatives',
  'display_name_acronyms',
  'alternate_titles',
  'abbreviated_title',
  'description',
  'keywords',
  'concepts',
  'topics',
]

const TEXT_KEY_SET: ReadonlySet<string> = new Set(TEXT_KEYS)

/** Where a batch's records are in the store, in the order their texts are wanted. */
export interface RecordLocations {
  readonly offsets: Float64Array<ArrayBuffer>
  readonly lengths: Uint32Array<ArrayBuffer>
}

/** Reads records from one store file (open as `fd`), reusing one buffer for every record. */
export class RecordTextsReader {
  readonly #fd: number
  readonly #codec: RecordCodec
  readonly #entity: string
  #buffer = Buffer.allocUnsafe(1 << 16)

  /** `entity` names the store in errors. */
  constructor(fd: number, codec: RecordCodec, entity: string) {
    this.#fd = fd
    this.#codec = codec
    this.#entity = entity
  }

  /**
   * The `texts` JSON of each record: the members of its JSON whose keys are `TEXT_KEYS`, in the record's
   * order, picked without parsing the record (a quarter of the time of parsing and writing it again).
   */
  textsOf({ offsets, lengths }: RecordLocations): string[] {
    const texts: string[] = new Array(offsets.length)
    for (let at = 0; at < offsets.length; at++) {
      const offset = offsets[at]!
      const bytes = lengths[at]!
      if (bytes > this.#buffer.length) this.#buffer = Buffer.allocUnsafe(bytes)
      // Synchronous positioned reads: a batch is read in order, each from the page cache at best, and a
      // promise per record would cost more than the read.
      if (readSync(this.#fd, this.#buffer, 0, bytes, offset) !== bytes)
        throw new Error(`The record store of ${this.#entity} is shorter than its rows say (offset ${offset})`)
      const decoded = this.#codec.decode(this.#buffer.subarray(0, bytes))
      const json = Buffer.from(decoded.buffer, decoded.byteOffset, decoded.byteLength).toString('utf8')
      texts[at] = pickJsonMembers(json, TEXT_KEY_SET)
    }
    return texts
  }
}
