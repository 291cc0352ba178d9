// The record store's codecs on the committed sample's real records: each record compressed alone comes back
// byte for byte with the dictionary its store was written with (and without one), a dictionary keeps the
// tail its codec can use, and a codec this version does not know is refused with the store's name.

import { sampleSnapshotLines } from '@oqlkit/ingest/test-support'
import { describe, expect, it } from 'vitest'
import { packAbstractWords } from '../src/records/abstract-words-packer.ts'
import {
  buildRecordDictionary,
  checkRecordCodecId,
  RECORD_CODEC_ID,
  RECORD_CODEC_IDS,
  type RecordCodecId,
  recordCodecOf,
} from '../src/records/record-codec.ts'

const records = sampleSnapshotLines('works')

describe.each(RECORD_CODEC_IDS)('the %s record codec', (id) => {
  it('gives back every sample work byte for byte, each compressed alone with the dictionary', () => {
    expect(records.length).toBeGreaterThan(300)
    const dictionary = buildRecordDictionary(records.slice(0, 16), id)
    const writer = recordCodecOf(id, dictionary)
    const encoded = records.map((record) => writer.encode(record))
    // A reader of its own (as a server or a texts worker has) with the same dictionary bytes.
    const reader = recordCodecOf(id, Buffer.from(dictionary))
    const decoded = encoded.map((bytes) => Buffer.from(reader.decode(bytes)).toString('utf8'))
    expect(decoded).toStrictEqual(records)
    expect(writer.id).toBe(id)
    // Compressed, not stored: the sample's works are 3-60 KB of JSON.
    const total = (list: readonly { length: number }[]) => list.reduce((sum, item) => sum + item.length, 0)
    expect(total(encoded)).toBeLessThan(total(records) / 3)
  })

  it('needs the dictionary it was written with', () => {
    const dictionary = buildRecordDictionary(records.slice(0, 16), id)
    const bytes = recordCodecOf(id, dictionary).encode(records[40]!)
    const other = buildRecordDictionary(records.slice(100, 116), id)
    const attempt = () => Buffer.from(recordCodecOf(id, other).decode(bytes)).toString('utf8')
    // Another dictionary either fails or gives other text; it never gives the record back.
    let text: string | undefined
    try {
      text = attempt()
    } catch {
      text = undefined
    }
    expect(text).not.toBe(records[40])
  })

  it('works without a dictionary (an entity whose first part is empty)', () => {
    const codec = recordCodecOf(id, buildRecordDictionary([], id))
    const record = records[7]!
    expect(Buffer.from(codec.decode(codec.encode(record))).toString('utf8')).toBe(record)
  })
})

describe('record dictionaries and codec ids', () => {
  it('keeps the last 32 KiB of the examples for deflate and the last 128 KiB for zstd', () => {
    const examples = records.slice(0, 40)
    const joined = Buffer.from(examples.join('\n'), 'utf8')
    expect(joined.length).toBeGreaterThan(128 * 1024)
    expect(buildRecordDictionary(examples, 'deflate-raw+dictionary')).toStrictEqual(
      joined.subarray(joined.length - 32 * 1024),
    )
    expect(buildRecordDictionary(examples, 'zstd+dictionary')).toStrictEqual(
      joined.subarray(joined.length - 128 * 1024),
    )
    // The default codec's dictionary holds what its compressor sees: the example with its abstract packed.
    expect(buildRecordDictionary(examples.slice(0, 1))).toStrictEqual(packAbstractWords(examples[0]!))
  })

  it('writes new stores with zstd over abstracts packed as words, smaller than zstd alone, and reads all three', () => {
    expect(RECORD_CODEC_ID).toBe('zstd+dictionary+abstract-words')
    const size = (id: RecordCodecId) => {
      const codec = recordCodecOf(id, buildRecordDictionary(records.slice(0, 16), id))
      return records.reduce((sum, record) => sum + codec.encode(record).length, 0)
    }
    expect(size('zstd+dictionary+abstract-words')).toBeLessThan(size('zstd+dictionary') * 0.95)
    for (const id of RECORD_CODEC_IDS) expect(checkRecordCodecId(id, 'records/works.records')).toBe(id)
  })

  it('refuses a codec it does not know, naming the store and the codecs it reads', () => {
    expect(() => checkRecordCodecId('brotli', 'records/works.records')).toThrow(
      'The record store records/works.records uses codec "brotli"; this version reads deflate-raw+dictionary, zstd+dictionary, zstd+dictionary+abstract-words',
    )
  })
})
