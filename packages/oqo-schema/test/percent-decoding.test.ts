// The one percent-decoder: well-formed escapes decoded, anything else kept as written (never a throw).
import { decodePercentEscapes } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'

describe('decodePercentEscapes', () => {
  it.each([
    ['book%20series', 'book series'],
    ['plain', 'plain'],
    ['a+b', 'a+b'],
    ['caf%C3%A9', 'café'],
    ['50%', '50%'],
    ['100%25', '100%'],
    ['%zz%20x', '%zz x'],
    ['bad%E0%A4 and%20good', 'bad%E0%A4 and good'],
    ['%ED%A0%80', '%ED%A0%80'],
    ['', ''],
  ])('reads %j as %j', (text, decoded) => {
    expect(decodePercentEscapes(text)).toBe(decoded)
  })
})
