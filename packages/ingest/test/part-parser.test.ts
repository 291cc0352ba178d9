// One parse on this thread, checked at the bytes it writes: each staged row is the JSON of the record's own
// columns followed by its extracted values (written out, not built as one object), and each stored record is
// the line as a UTF-8 decoder reads it, whether ingest compressed the line's own bytes or its text.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { buildRecordDictionary, RECORD_CODEC_ID, recordCodecOf } from '@oqlkit/catalog'
import { afterAll, describe, expect, it } from 'vitest'
import { PartParser, type StagedValues, stagedRowLine } from '../src/parse/part-parser.ts'
import { recordExtractionSpecs } from '../src/parse/record-extraction-spec.ts'
import { recordExtractorOf } from '../src/parse/record-extractor.ts'
import { work } from './support/snapshot-fixtures.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-part-parser-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const specs = recordExtractionSpecs()

/** The row as the parser wrote it before: one object, the extracted values spread after the record's own. */
const spreadRow = (
  values: StagedValues,
  place: { part: number; offset: number; bytes: number },
  extracted: object,
) =>
  `${JSON.stringify({
    seq: values.seq,
    id: values.id,
    openalex_id: values.openalexId,
    partition_date: values.partitionDate,
    updated_date: values.updatedDate,
    record_part: place.part,
    record_offset: place.offset,
    record_bytes: place.bytes,
    ...extracted,
  })}\n`

describe('the staged row', () => {
  it('is the JSON of the record’s columns and then its extracted values, as one object’s would be', () => {
    const extract = recordExtractorOf(specs.works)
    const records = [
      work(1, '2024-01-01'),
      work(2, '2024-02-02', { abstract_inverted_index: { a: [0], 'quote"d': [1] }, concepts: [] }),
      work(3, '2024-03-03', { title: 'Line\nbreak and \u2028 and "quotes"', referenced_works: [] }),
    ]
    for (const [at, record] of records.entries()) {
      const values: StagedValues = {
        seq: 2 ** 32 + at,
        id: `W${at + 1}`,
        openalexId: `https://openalex.org/W${at + 1}"odd`,
        partitionDate: at === 0 ? null : '2024-01-01',
        updatedDate: at === 1 ? null : record.updated_date,
        record,
      }
      const place = { part: at, offset: at * 1000, bytes: 17 + at }
      const extracted = extract(record)
      expect(Object.keys(extracted).length).toBeGreaterThan(0)
      expect(stagedRowLine(values, place, extracted)).toBe(spreadRow(values, place, extracted))
    }
    // A record from which nothing is extracted still makes one object.
    const bare: StagedValues = {
      seq: 1,
      id: 'W9',
      openalexId: 'W9',
      partitionDate: null,
      updatedDate: null,
      record: {},
    }
    const line = stagedRowLine(bare, { part: 0, offset: 0, bytes: 1 }, {})
    expect(line).toBe(spreadRow(bare, { part: 0, offset: 0, bytes: 1 }, {}))
    expect(JSON.parse(line)).toMatchObject({ id: 'W9', record_bytes: 1 })
  })

  it('takes no extracted value under one of the record’s own column names, for any entity', () => {
    const own = [
      'seq',
      'id',
      'openalex_id',
      'partition_date',
      'updated_date',
      'record_part',
      'record_offset',
      'record_bytes',
    ]
    for (const spec of Object.values(specs)) {
      const names = [...spec.pathColumns.map((column) => column.name), 'derived', 'external_ids']
      expect(names.filter((name) => own.includes(name))).toEqual([])
      expect(names.some((name) => name.startsWith('link_'))).toBe(false)
    }
  })
})

describe('the stored record', () => {
  // Lines as a snapshot may hold them: plain, with multi-byte characters, ended by CRLF, and one whose
  // bytes are not valid UTF-8 (a lone continuation byte and a truncated sequence inside a string).
  const recordLines: Buffer[] = [
    Buffer.from(JSON.stringify(work(1, '2024-01-01'))),
    Buffer.from(JSON.stringify(work(2, '2024-01-01', { title: 'Étude 漢字 😀 naïve' }))),
    Buffer.concat([Buffer.from(JSON.stringify(work(3, '2024-01-01'))), Buffer.from('\r')]),
    Buffer.concat([
      Buffer.from('{"id":"https://openalex.org/W4","updated_date":"2024-01-01","title":"bad '),
      Buffer.from([0x80, 0x41, 0xe6, 0xbc]),
      Buffer.from(' bytes"}'),
    ]),
    // Copied from a search page: `relevance_score` is dropped, so the text is written again.
    Buffer.from(JSON.stringify({ ...work(5, '2024-01-01', { title: 'ünïcode' }), relevance_score: 3.5 })),
  ]
  const expected = recordLines.map((line) => {
    const text = line.toString('utf8').replace(/\r$/, '')
    const record = JSON.parse(text) as Record<string, unknown>
    if (!('relevance_score' in record)) return text
    delete record.relevance_score
    return JSON.stringify(record)
  })

  const parseInto = async (name: string, body: Buffer) => {
    const path = join(scratch, name)
    writeFileSync(path, body)
    const dictionary = buildRecordDictionary([])
    const parser = new PartParser(
      { specs, parquetMemoryLimit: '256MiB', parquetTempDirectory: join(scratch, 'parquet') },
      name,
    )
    const outcome = await parser.parse({
      index: 0,
      entity: 'works',
      path,
      format: 'jsonl',
      codec: RECORD_CODEC_ID,
      partitionDate: '2024-01-01',
      seqBase: 0,
      segmentPath: join(scratch, `${name}.records`),
      rowsPath: join(scratch, `${name}.rows`),
      dictionary,
    })
    await parser.close()
    expect(outcome.kind).toBe('done')
    const segment = readFileSync(join(scratch, `${name}.records`))
    const codec = recordCodecOf(RECORD_CODEC_ID, dictionary)
    return readFileSync(join(scratch, `${name}.rows`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { record_offset: number; record_bytes: number })
      .map(({ record_offset, record_bytes }) =>
        // Bytes, not text: a decoder would hide invalid bytes stored as they came.
        Buffer.from(codec.decode(segment.subarray(record_offset, record_offset + record_bytes))).toString(
          'hex',
        ),
      )
  }

  it('is the line as a UTF-8 decoder reads it: without its CR, invalid bytes replaced, a dropped key rewritten', async () => {
    const body = Buffer.concat(recordLines.flatMap((line) => [line, Buffer.from('\n')]))
    expect(expected[3]).toContain('\uFFFD')
    const bytes = expected.map((text) => Buffer.from(text, 'utf8').toString('hex'))
    expect(await parseInto('plain.jsonl', body)).toEqual(bytes)
    expect(await parseInto('gzipped.jsonl.gz', gzipSync(body))).toEqual(bytes)
  })
})
