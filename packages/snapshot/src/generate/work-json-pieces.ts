// The pieces of a generated work's JSON that the record builder (work-record-builder.ts) writes apart from
// its own fields: UTF-8 copies of what the pools serialise once per entry, the scratch writers for pieces drawn
// before their place in the record comes, and the writers of a location, a list of scored terms and a time.

import type { ZipfSampler } from './distribution-samplers.ts'
import { JsonByteWriter } from './json-byte-writer.ts'
import type { SeededRandom } from './seeded-random.ts'

const OPENALEX = 'https://openalex.org/'
const json = JSON.stringify
const round4 = (value: number): number => Math.round(value * 10_000) / 10_000
const COMMA = 0x2c
const CLOSE_BRACE = 0x7d
/** Room a scratch writer starts with (it grows when a work needs more). */
const SCRATCH_BYTES = 64 << 10

/** UTF-8 copies of pieces the pools serialise once per entry (embedded objects, names), by entry index. */
export class EncodedByIndex {
  readonly #encoded: Array<Uint8Array | undefined>
  readonly #text: (index: number) => string

  constructor(size: number, text: (index: number) => string) {
    // Filled up front: an array written first at a high index would hold its items in a dictionary.
    this.#encoded = Array.from({ length: size }, () => undefined)
    this.#text = text
  }

  get(index: number): Uint8Array {
    return this.#encoded[index] ?? this.#encode(index)
  }

  #encode(index: number): Uint8Array {
    const encoded = Buffer.from(this.#text(index), 'utf8')
    this.#encoded[index] = encoded
    return encoded
  }
}

/** The pieces of `indices`, comma-separated (the items of a JSON array, without its brackets). */
export function writeJoined(out: JsonByteWriter, indices: readonly number[], pieces: EncodedByIndex): void {
  for (let at = 0; at < indices.length; at++) {
    if (at > 0) out.byte(COMMA)
    out.bytesOf(pieces.get(indices[at]!))
  }
}

/** The scratch writers of one builder, for the pieces drawn before their place in the record comes. */
export class ScratchWriters {
  readonly authorships: JsonByteWriter
  readonly locations: JsonByteWriter
  readonly topics: JsonByteWriter
  readonly keywords: JsonByteWriter
  readonly concepts: JsonByteWriter
  readonly mesh: JsonByteWriter
  readonly sdgs: JsonByteWriter
  readonly grants: JsonByteWriter
  readonly funders: JsonByteWriter
  readonly referenced: JsonByteWriter
  readonly abstract: JsonByteWriter

  constructor() {
    const make = () => new JsonByteWriter(Buffer.allocUnsafe(SCRATCH_BYTES))
    this.authorships = make()
    this.locations = make()
    this.topics = make()
    this.keywords = make()
    this.concepts = make()
    this.mesh = make()
    this.sdgs = make()
    this.grants = make()
    this.funders = make()
    this.referenced = make()
    this.abstract = make()
  }
}

/** The `count` terms a work embeds (beyond those `chosen` already), drawn by `popularity`, with scores. */
export function writeTerms(
  out: JsonByteWriter,
  r: SeededRandom,
  count: number,
  chosen: number[],
  heads: EncodedByIndex,
  popularity: ZipfSampler,
): void {
  out.reset()
  const wanted = Math.min(count, popularity.size)
  for (let attempt = 0; chosen.length < wanted && attempt < wanted * 4; attempt++) {
    const term = popularity.sample(r)
    if (!chosen.includes(term)) chosen.push(term)
  }
  let score = r.between(0.5, 0.95)
  chosen.forEach((term, k) => {
    if (k > 0) out.byte(COMMA)
    out.bytesOf(heads.get(term))
    out.number(round4(score))
    out.byte(CLOSE_BRACE)
    score = r.between(0.15, score)
  })
}

export function writeLocation(
  out: JsonByteWriter,
  id: string,
  isOa: boolean,
  landing: string,
  pdf: string | null,
  source: Uint8Array | null,
  license: string | null,
  version: string | null,
  rawSourceName: string | null,
  rawType: string | null,
): void {
  out.text(
    `{"id":${json(id)},"is_oa":${isOa},"landing_page_url":${json(landing)},"pdf_url":${pdf === null ? 'null' : json(pdf)},"source":`,
  )
  if (source === null) out.ascii('null')
  else out.bytesOf(source)
  out.text(
    `,"license":${license === null ? 'null' : json(license)},` +
      `"license_id":${license === null ? 'null' : json(`${OPENALEX}licenses/${license}`)},` +
      `"version":${version === null ? 'null' : json(version)},"is_accepted":${version !== null && version !== 'submittedVersion'},` +
      `"is_published":${version === 'publishedVersion'},"raw_source_name":${rawSourceName === null ? 'null' : json(rawSourceName)},` +
      `"raw_type":${rawType === null ? 'null' : json(rawType)}}`,
  )
}

/** A time of day to the microsecond, as OpenAlex writes `updated_date`. */
export function clockTime(r: SeededRandom): string {
  const pad = (value: number, width: number) => String(value).padStart(width, '0')
  return `${pad(r.int(24), 2)}:${pad(r.int(60), 2)}:${pad(r.int(60), 2)}.${pad(r.int(1_000_000), 6)}`
}
