// Where a catalog lives in ClickHouse, read from a URL, and the small encodings the loader relies on.
import { describe, expect, it } from 'vitest'
import { newVersionDatabase } from '../src/catalog-versions.ts'
import { readClickHouseTarget } from '../src/clickhouse-target.ts'
import { encodeStringRows } from '../src/row-binary-strings.ts'

describe('readClickHouseTarget', () => {
  it('reads the endpoint, credentials and catalog name of each scheme, with default ports and name', () => {
    expect(readClickHouseTarget('clickhouse://reader@localhost/openalex')).toEqual({
      endpoint: 'http://localhost:8123',
      catalog: 'openalex',
      username: 'reader',
    })
    expect(readClickHouseTarget('https://u:p%40ss@ch.example.org:9443/')).toEqual({
      endpoint: 'https://ch.example.org:9443',
      catalog: 'oqlkit',
      username: 'u',
      password: 'p@ss',
    })
    expect(readClickHouseTarget('clickhouses://h').endpoint).toBe('https://h:8443')
    expect(readClickHouseTarget('http://127.0.0.1:18123/my_catalog').catalog).toBe('my_catalog')
  })

  it('says what to give for a bad URL, scheme or catalog name', () => {
    expect(() => readClickHouseTarget('localhost:8123')).toThrow(/ClickHouse URL scheme|not a URL/)
    expect(() => readClickHouseTarget('not a url')).toThrow(/is not a URL: give the HTTP interface/)
    expect(() => readClickHouseTarget('redis://h/x')).toThrow(/redis: is not a ClickHouse URL scheme/)
    expect(() => readClickHouseTarget('http://h/a;drop')).toThrow(/cannot name a catalog/)
    expect(() => readClickHouseTarget('http://h/a/b')).toThrow(/cannot name a catalog/)
    // Two underscores separate a catalog from its versions' stamps.
    expect(() => readClickHouseTarget('http://h/a__b')).toThrow(/single underscores/)
  })
})

describe('version database names', () => {
  it('are the catalog, the load time to the second, and a random tail', () => {
    const name = newVersionDatabase('oqlkit', new Date(Date.UTC(2026, 10, 25, 12, 3, 4)))
    expect(name).toMatch(/^oqlkit__v20261125_120304_[0-9a-z]{4}$/)
    const names = new Set(Array.from({ length: 50 }, () => newVersionDatabase('c', new Date(0))))
    expect(names.size).toBeGreaterThan(45)
  })
})

describe('RowBinary strings', () => {
  it('writes each value as its LEB128 length and its bytes', () => {
    const bytes = (length: number) => new Uint8Array(length).fill(0x61)
    const encoded = encodeStringRows([
      [bytes(0), bytes(1)],
      [bytes(127), bytes(128)],
      [bytes(300), bytes(16_384)],
    ])
    const lengths: number[] = []
    let at = 0
    while (at < encoded.length) {
      let length = 0
      let shift = 0
      for (;;) {
        const byte = encoded[at++]!
        length += (byte & 0x7f) * 2 ** shift
        shift += 7
        if ((byte & 0x80) === 0) break
      }
      expect(encoded.subarray(at, at + length).every((byte) => byte === 0x61)).toBe(true)
      at += length
      lengths.push(length)
    }
    expect(lengths).toEqual([0, 1, 127, 128, 300, 16_384])
    expect([...encodeStringRows([[bytes(128)]]).subarray(0, 2)]).toEqual([0x80, 0x01])
    expect([...encodeStringRows([[bytes(300)]]).subarray(0, 2)]).toEqual([0xac, 0x02])
  })
})
