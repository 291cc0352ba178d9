// The byte writer pass 2 builds work records with: whatever mix of pieces it is given, the bytes are the
// UTF-8 of the string those pieces concatenate to, also when the buffer it started with is outgrown.
import { describe, expect, it } from 'vitest'
import { JsonByteWriter } from '../src/generate/json-byte-writer.ts'

describe('JsonByteWriter', () => {
  it('writes the UTF-8 of the concatenated pieces: ASCII, any text, JSON strings, numbers, bytes, other writers', () => {
    const inner = new JsonByteWriter(Buffer.alloc(4))
    inner.text('"Łódź 東京"')
    inner.ascii(',')
    inner.natural(9_000_000_123)
    const out = new JsonByteWriter(Buffer.alloc(8))
    out.ascii('{"a":')
    out.natural(0)
    out.ascii(',"b":')
    for (const value of [7, 10, 99, 100, 2 ** 53, 0.5, -3, 1e21, -0, 0.1234]) {
      out.number(value)
      out.byte(0x2c)
    }
    out.string('quote " backslash \\ tab \t é 😀')
    out.boolean(true)
    out.boolean(false)
    out.bytesOf(Buffer.from('short'))
    out.bytesOf(Buffer.from('a piece longer than the short-piece limit, ü'))
    out.quotedAscii('https://openalex.org/W1')
    out.writer(inner)
    out.range(inner, 1, 6)
    const numbers = [7, 10, 99, 100, 2 ** 53, 0.5, -3, 1e21, -0, 0.1234].map((value) => `${value},`).join('')
    const text =
      `{"a":0,"b":${numbers}${JSON.stringify('quote " backslash \\ tab \t é 😀')}truefalse` +
      'shorta piece longer than the short-piece limit, ü"https://openalex.org/W1""Łódź 東京",9000000123'
    // range(inner, 1, 6): five bytes from inside the text, cutting "Ł" and "ó" at byte boundaries.
    const cut = Buffer.from('"Łódź 東京"').subarray(1, 6)
    expect(out.view()).toEqual(Buffer.concat([Buffer.from(text, 'utf8'), cut]))
    expect(out.view().length).toBe(out.length)
  })

  it('starts over on reset, in the buffer it is given', () => {
    const first = Buffer.alloc(64)
    const writer = new JsonByteWriter(first)
    writer.ascii('one')
    const second = Buffer.alloc(64)
    writer.reset(second)
    writer.ascii('two')
    expect(writer.view().toString()).toBe('two')
    expect(writer.buffer).toBe(second)
    writer.reset()
    writer.natural(42)
    expect(writer.view().toString()).toBe('42')
  })

  it('moves to a buffer of its own when the one it was given is full, keeping what was written', () => {
    const given = Buffer.alloc(16)
    const writer = new JsonByteWriter(given)
    const text = 'é'.repeat(40)
    writer.ascii('[')
    writer.text(text)
    writer.ascii(']')
    expect(writer.buffer).not.toBe(given)
    expect(writer.buffer.buffer).toBeInstanceOf(ArrayBuffer)
    expect(writer.view().toString('utf8')).toBe(`[${text}]`)
  })
})
