// The texts files pick a record's text members from its JSON without parsing it (engine's json-member-picker.ts):
// whatever the object, `JSON.parse` of what is picked must equal the wanted members of `JSON.parse` of the
// whole, for generated objects in every layout JSON allows and for every record of the committed sample.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { pickJsonMembers } from '@oqlkit/engine'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/ingest/test-support'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TEXT_KEYS } from '../src/records/record-texts-reader.ts'

const snapshotDir = SAMPLE_SNAPSHOT_DIR

/** What the picker must give, computed the slow way: parse the whole, keep the wanted keys. */
const parsedMembers = (json: string, keys: ReadonlySet<string>): Record<string, unknown> => {
  const whole = JSON.parse(json) as Record<string, unknown>
  return Object.fromEntries(Object.entries(whole).filter(([key]) => keys.has(key)))
}

const WANTED = new Set(['title', 'abstract', 'a"b', 'back\\slash', 'ü'])

/** Keys that stress the scanner: wanted and not, with quotes, backslashes, braces and non-ASCII. */
const keyArbitrary = fc.oneof(
  fc.constantFrom(...WANTED, 'id', 'x}', '{', ',', ':', '"', '\\', 'title2', 'títle'),
  fc.string(),
)

/** JSON.stringify's spacing, or none, or whitespace of every kind JSON allows between tokens. */
const layoutArbitrary = fc.constantFrom<(value: unknown) => string>(
  (value) => JSON.stringify(value),
  (value) => JSON.stringify(value, null, 2),
  (value) => JSON.stringify(value, null, '\t'),
  (value) => JSON.stringify(value, null, 1).replaceAll('\n', '\r\n '),
)

describe('pickJsonMembers', () => {
  it('equals parsing the whole object and keeping the wanted keys, for any object and layout', () => {
    fc.assert(
      fc.property(
        fc.dictionary(keyArbitrary, fc.jsonValue(), { maxKeys: 12 }),
        layoutArbitrary,
        (object, layout) => {
          const json = layout(object)
          expect(JSON.parse(pickJsonMembers(json, WANTED))).toStrictEqual(parsedMembers(json, WANTED))
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('reads keys written with escapes as JSON does, and keeps the last of a repeated key', () => {
    const json = '{"ti\\u0074le": "escaped", "id": "W1", "title": [1, "}", {"a": "\\"]"}], "title" : 7 }'
    expect(JSON.parse(pickJsonMembers(json, WANTED))).toStrictEqual(JSON.parse('{"title": 7}'))
    expect(JSON.parse(pickJsonMembers('{"title": "a\\\\", "abstract": null}', WANTED))).toStrictEqual({
      title: 'a\\',
      abstract: null,
    })
  })

  it('throws nothing on text that is not one JSON object', () => {
    for (const text of [
      '',
      'null',
      '[1, 2]',
      '{"title": "open',
      '{"ti\\x": 1, "title": 2}',
      '{"title" 1}',
      '}{',
    ])
      expect(() => pickJsonMembers(text, WANTED), text).not.toThrow()
  })

  it('gives an empty object when no wanted key is there', () => {
    expect(pickJsonMembers('{"id": "W1", "cited_by_count": 3}', WANTED)).toBe('{}')
    expect(pickJsonMembers('{}', WANTED)).toBe('{}')
    expect(pickJsonMembers('  { }  ', WANTED)).toBe('{}')
  })

  it('picks the text members of every record of the committed sample as parsing does', () => {
    const keys = new Set(TEXT_KEYS)
    let records = 0
    for (const entity of readdirSync(snapshotDir, { withFileTypes: true })) {
      if (!entity.isDirectory()) continue
      const entityDir = join(snapshotDir, entity.name)
      for (const partition of readdirSync(entityDir).filter((name) => name.startsWith('updated_date=')))
        for (const part of readdirSync(join(entityDir, partition)))
          for (const line of gunzipSync(readFileSync(join(entityDir, partition, part)))
            .toString('utf8')
            .split('\n')) {
            if (line.trim() === '') continue
            expect(JSON.parse(pickJsonMembers(line, keys)), line.slice(0, 60)).toStrictEqual(
              parsedMembers(line, keys),
            )
            records++
          }
    }
    expect(records).toBeGreaterThan(500)
  })
})
