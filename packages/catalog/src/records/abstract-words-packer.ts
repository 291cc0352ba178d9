// A work's abstract, stored as its words rather than as OpenAlex's inverted index. The inverted index
// (`{"word": [0, 7], "other": [1], …}`) is 15% of a generated work's JSON and compresses badly: every word's
// positions are distinct numbers the dictionary cannot predict. The same abstract as its words in order is
// smaller and compresses like prose: records 17% smaller on generated works and on the 4,431 real works of
// ../shared/data/real-works (zstd level 3, a dictionary trained on each form; BENCHMARKS.md `ca`, `cb`), for
// 35-73 µs more a work to read back (`cc`: a page of 25 records 0.97-1.23x the time).
//
// The record must come back byte for byte, so a record is packed only when its inverted index is written the
// way `unpackAbstractWords` writes one: keys in the order the words first occur (or in the order a JavaScript
// object keeps them, whole-number keys first, as a record that went through `JSON.stringify` has them), each
// key's positions ascending in plain decimal, each position held by one word at most, no key holding a space,
// and the separators compact or with one space after `:` and `,` (as Python writes JSON). Anything else is
// stored as it came.
//
// A word is kept as its key is written in the record (escapes and all), so nothing is parsed or escaped either
// way, and no word is looked up by its text: a repeated word is written as a reference to the word's first
// occurrence, so neither side hashes a string. Both sides work on the UTF-8 bytes and make no strings: on
// this machine a Map of a work's words cost 30-40 µs and strings in and out of UTF-8 as much again, against
// zstd's 25 µs to decompress the whole record.
//
// A packed record starts with a byte no JSON text starts with, so each record says which it is:
//   0x01 <style digit> <offset>,<length>,<positions>,<index bytes> 0x01 <the record, its index replaced by words>
// Offset and length (decimal, in bytes) locate the words in the text after the header; the counts of positions
// and of the index's bytes size the reader's arrays and output without a pass to count them. The words are one
// token per position, joined by spaces: the key's text where its word first occurs, `"<n>` where the n-th
// distinct word (from 0, in order of first occurrence) occurs again, `"` where no word is (no key's text
// starts with `"`).

const PACKED_MARK = 0x01
const KEY = Buffer.from('"abstract_inverted_index":', 'latin1')
const SPACE = 0x20
const QUOTE = 0x22
const COMMA = 0x2c
const COLON = 0x3a
const ZERO = 0x30
const NINE = 0x39
const OPEN_LIST = 0x5b
const BACKSLASH = 0x5c
const CLOSE_LIST = 0x5d
const OPEN = 0x7b
const CLOSE = 0x7d

/** How the inverted index was written: bit 0 spaced separators, bit 1 keys in a JavaScript object's order. */
type Style = number
const SPACED = 1
const JAVASCRIPT_ORDER = 2

/** The digits `value` (≥ 0) is written with. */
function digitCount(value: number): number {
  // Comparisons: Math.log10 here was the unpacking's largest cost.
  let digits = 1
  for (let bound = 10; value >= bound && digits < 16; bound *= 10) digits++
  return digits
}

/** Writes `value` in decimal at `at` of `out`; returns where it ends. */
function writeNumber(out: Uint8Array, at: number, value: number): number {
  // Positions are mostly under 1,000: those without a loop.
  if (value < 10) {
    out[at] = ZERO + value
    return at + 1
  }
  if (value < 100) {
    out[at] = ZERO + Math.floor(value / 10)
    out[at + 1] = ZERO + (value % 10)
    return at + 2
  }
  if (value < 1000) {
    out[at] = ZERO + Math.floor(value / 100)
    out[at + 1] = ZERO + (Math.floor(value / 10) % 10)
    out[at + 2] = ZERO + (value % 10)
    return at + 3
  }
  const end = at + digitCount(value)
  let rest = value
  for (let cursor = end - 1; cursor >= at; cursor--) {
    out[cursor] = ZERO + (rest % 10)
    rest = Math.floor(rest / 10)
  }
  return end
}

/**
 * Copies `from[start, end)` to `to` at `at`; returns where the copy ends. A word is a few bytes: a loop is
 * several times faster than a `subarray` (a new Buffer object) or `Buffer.copy` (a call into C++) per word.
 */
function copyBytes(from: Uint8Array, start: number, end: number, to: Uint8Array, at: number): number {
  let cursor = at
  for (let index = start; index < end; index++) to[cursor++] = from[index]!
  return cursor
}

/** The whole number written in `bytes[from, to)` (digits only, checked by the caller). */
function numberIn(bytes: Uint8Array, from: number, to: number): number {
  let value = 0
  for (let at = from; at < to; at++) value = value * 10 + bytes[at]! - ZERO
  return value
}

/** Whether `bytes[from, to)` is an array index in canonical form: a key a JavaScript object puts first. */
function isArrayIndex(bytes: Uint8Array, from: number, to: number): boolean {
  const length = to - from
  if (length === 0 || length > 10 || (bytes[from] === ZERO && length > 1)) return false
  for (let at = from; at < to; at++) if (bytes[at]! < ZERO || bytes[at]! > NINE) return false
  return numberIn(bytes, from, to) < 2 ** 32 - 1
}

/** An inverted index as written: each key's text (a byte range), first position and order of keys. */
interface ReadIndex {
  readonly spaced: boolean
  /** Where the index ends (one past its `}`). */
  readonly end: number
  readonly textFrom: number[]
  readonly textTo: number[]
  readonly first: number[]
  /** For each position, the key holding it (-1: none). */
  readonly holder: Int32Array
}

/**
 * The inverted index that starts at `start` of `bytes` (its `{`), or null when it is not written as
 * `unpackAbstractWords` writes one: a key holding a space or no closing quote, other spacing, a position with
 * a leading zero, out of order within its key or held twice, anything but keys and lists.
 */
function readIndex(bytes: Uint8Array, start: number): ReadIndex | null {
  const textFrom: number[] = []
  const textTo: number[] = []
  const first: number[] = []
  // (position, key) as they come: positions arrive out of order.
  const positions: number[] = []
  const keysOf: number[] = []
  let last = -1
  // Compact or spaced is decided by the first key's colon; every separator after it must agree.
  let spaced: boolean | undefined
  let gap = 0
  let cursor = start + 1
  for (;;) {
    if (bytes[cursor] !== QUOTE) return null
    const opened = cursor + 1
    let closed = opened
    for (let code = bytes[closed]; code !== QUOTE; code = bytes[closed]) {
      if (code === undefined || code === SPACE) return null
      closed += code === BACKSLASH ? 2 : 1
    }
    cursor = closed + 1
    if (bytes[cursor] !== COLON) return null
    if (spaced === undefined) {
      spaced = bytes[cursor + 1] === SPACE
      gap = spaced ? 1 : 0
    }
    if (spaced && bytes[cursor + 1] !== SPACE) return null
    cursor += 1 + gap
    if (bytes[cursor] !== OPEN_LIST) return null
    cursor++
    const key = textFrom.length
    textFrom.push(opened)
    textTo.push(closed)
    let previous = -1
    for (;;) {
      const digits = cursor
      while (bytes[cursor]! >= ZERO && bytes[cursor]! <= NINE) cursor++
      const written = cursor - digits
      // Every position is written in the text, so one past its length is no abstract's (and no huge array).
      if (written === 0 || written > 9 || (written > 1 && bytes[digits] === ZERO)) return null
      const position = numberIn(bytes, digits, cursor)
      if (position <= previous || position >= bytes.length) return null
      if (previous < 0) first.push(position)
      previous = position
      positions.push(position)
      keysOf.push(key)
      if (position > last) last = position
      if (bytes[cursor] === CLOSE_LIST) break
      if (bytes[cursor] !== COMMA || (spaced && bytes[cursor + 1] !== SPACE)) return null
      cursor += 1 + gap
    }
    cursor++
    if (bytes[cursor] === CLOSE) break
    if (bytes[cursor] !== COMMA || (spaced && bytes[cursor + 1] !== SPACE)) return null
    cursor += 1 + gap
    if (spaced && bytes[cursor] === SPACE) return null
  }
  const holder = new Int32Array(last + 1).fill(-1)
  for (let pair = 0; pair < positions.length; pair++) {
    if (holder[positions[pair]!] !== -1) return null
    holder[positions[pair]!] = keysOf[pair]!
  }
  return { spaced: spaced === true, end: cursor + 1, textFrom, textTo, first, holder }
}

/**
 * How the keys are ordered, if the way `unpackAbstractWords` orders them: by first occurrence, or
 * whole-number keys first (ascending, each once) and then by first occurrence; null for any other order.
 */
function orderOf(bytes: Uint8Array, { textFrom, textTo, first }: ReadIndex): Style | null {
  let byFirstOccurrence = true
  for (let key = 1; key < first.length && byFirstOccurrence; key++)
    byFirstOccurrence = first[key]! > first[key - 1]!
  if (byFirstOccurrence) return 0
  const indexAt = (key: number) => isArrayIndex(bytes, textFrom[key]!, textTo[key]!)
  const valueAt = (key: number) => numberIn(bytes, textFrom[key]!, textTo[key]!)
  let key = 0
  for (; key < first.length && indexAt(key); key++)
    if (key > 0 && valueAt(key) <= valueAt(key - 1)) return null
  if (key === 0) return null
  for (let rest = key; rest < first.length; rest++) {
    if (indexAt(rest)) return null
    if (rest > key && first[rest]! <= first[rest - 1]!) return null
  }
  return JAVASCRIPT_ORDER
}

/**
 * The bytes a record is stored as before compression: packed when its abstract can be, else as it is. The
 * record may be given as its UTF-8 bytes (as ingest read them), which spares encoding the text again.
 */
export function packAbstractWords(json: string | Buffer): Buffer {
  const bytes = typeof json === 'string' ? Buffer.from(json, 'utf8') : json
  return packed(bytes) ?? bytes
}

function packed(bytes: Buffer): Buffer | null {
  const key = bytes.indexOf(KEY)
  if (key < 0) return null
  let start = key + KEY.length
  if (bytes[start] === SPACE) start++
  if (bytes[start] !== OPEN || bytes[start + 1] === CLOSE) return null
  const index = readIndex(bytes, start)
  const order = index === null ? null : orderOf(bytes, index)
  if (index === null || order === null) return null
  const { textFrom, textTo, first, holder } = index
  // Distinct words are numbered by first occurrence: the keys by their first position.
  const word = new Int32Array(first.length)
  if (order === 0) for (let key = 0; key < word.length; key++) word[key] = key
  else
    first
      .map((_, key) => key)
      .sort((a, b) => first[a]! - first[b]!)
      .forEach((key, rank) => {
        word[key] = rank
      })
  let size = holder.length - 1
  for (let position = 0; position < holder.length; position++) {
    const key = holder[position]!
    if (key < 0) size += 1
    else if (first[key] === position) size += textTo[key]! - textFrom[key]!
    else size += 1 + digitCount(word[key]!)
  }
  const style = order | (index.spaced ? SPACED : 0)
  const header = Buffer.from(
    `\u0001${style}${start},${size},${holder.length},${index.end - start}\u0001`,
    'latin1',
  )
  const out = Buffer.allocUnsafe(header.length + start + size + bytes.length - index.end)
  header.copy(out, 0)
  let at = header.length + bytes.copy(out, header.length, 0, start)
  for (let position = 0; position < holder.length; position++) {
    if (position > 0) out[at++] = SPACE
    const key = holder[position]!
    if (key < 0) out[at++] = QUOTE
    else if (first[key] === position) at = copyBytes(bytes, textFrom[key]!, textTo[key]!, out, at)
    else {
      out[at++] = QUOTE
      at = writeNumber(out, at, word[key]!)
    }
  }
  bytes.copy(out, at, index.end)
  return out
}

/** The record's JSON bytes from what `packAbstractWords` stored: the same bytes it was given. */
export function unpackAbstractWords(stored: Uint8Array): Uint8Array {
  if (stored[0] !== PACKED_MARK) return stored
  const style: Style = stored[1]! - ZERO
  const gap = style & SPACED ? 1 : 0
  // The header's four numbers, each ended by a comma and the last by the mark.
  const header = [0, 0, 0, 0]
  let at = 2
  for (let field = 0; field < header.length; field++, at++)
    for (let byte = stored[at]; byte !== COMMA && byte !== PACKED_MARK; byte = stored[++at]) {
      // A damaged record's header ends early or holds other bytes: an error, never a loop past its end.
      if (byte === undefined || byte < ZERO || byte > ZERO + 9)
        throw new Error('A packed abstract has a damaged header: the record store is damaged')
      header[field] = header[field]! * 10 + byte - ZERO
    }
  const [offset, length, count, indexBytes] = header as [number, number, number, number]
  const body = stored.subarray(at)
  // A plain Uint8Array view: indexing a Buffer subclass in the loops below ran at half the speed.
  const tokens = new Uint8Array(body.buffer, body.byteOffset + offset, length)
  // One pass over the tokens: each distinct word's text (a byte range) and its positions as a chain.
  const textFrom = new Int32Array(count)
  const textTo = new Int32Array(count)
  const firstOf = new Int32Array(count)
  const lastOf = new Int32Array(count)
  const next = new Int32Array(count)
  let words = 0
  let position = 0
  for (let from = 0; from <= tokens.length; position++) {
    let to = from
    while (to < tokens.length && tokens[to] !== SPACE) to++
    next[position] = -1
    if (tokens[from] !== QUOTE || to === from) {
      textFrom[words] = from
      textTo[words] = to
      firstOf[words] = position
      lastOf[words] = position
      words++
    } else if (to > from + 1) {
      const word = numberIn(tokens, from + 1, to)
      if (!(word < words)) throw new Error(`A packed abstract refers to word ${word} before it occurs`)
      next[lastOf[word]!] = position
      lastOf[word] = position
    }
    from = to + 1
  }
  let order: number[] = []
  for (let word = 0; word < words; word++) order.push(word)
  if (style & JAVASCRIPT_ORDER) {
    const isIndex = (word: number) => isArrayIndex(tokens, textFrom[word]!, textTo[word]!)
    const indexes = order.filter(isIndex)
    indexes.sort(
      (a, b) => numberIn(tokens, textFrom[a]!, textTo[a]!) - numberIn(tokens, textFrom[b]!, textTo[b]!),
    )
    order = [...indexes, ...order.filter((word) => !isIndex(word))]
  }
  const out = Buffer.allocUnsafe(body.length - length + indexBytes)
  out.set(body.subarray(0, offset), 0)
  let cursor = offset
  out[cursor++] = OPEN
  for (const [written, word] of order.entries()) {
    if (written > 0) {
      out[cursor++] = COMMA
      if (gap) out[cursor++] = SPACE
    }
    out[cursor++] = QUOTE
    cursor = copyBytes(tokens, textFrom[word]!, textTo[word]!, out, cursor)
    out[cursor++] = QUOTE
    out[cursor++] = COLON
    if (gap) out[cursor++] = SPACE
    out[cursor++] = OPEN_LIST
    for (let held = firstOf[word]!; held !== -1; held = next[held]!) {
      if (held !== firstOf[word]) {
        out[cursor++] = COMMA
        if (gap) out[cursor++] = SPACE
      }
      cursor = writeNumber(out, cursor, held)
    }
    out[cursor++] = CLOSE_LIST
  }
  out[cursor++] = CLOSE
  if (cursor !== offset + indexBytes) throw new Error('A packed abstract does not give back its index')
  out.set(body.subarray(offset + length), cursor)
  return out
}

const NULL_VALUE = Buffer.from('null', 'latin1')

/**
 * The record's JSON from what `packAbstractWords` stored, its abstract's inverted index written `null`: for a
 * reader that wants other fields only (a lookup's `select`), the words are not turned back into their index,
 * which is about half of what reading a work back costs. A record stored as it came is returned as it is.
 */
export function withoutAbstractWords(stored: Uint8Array): Uint8Array {
  if (stored[0] !== PACKED_MARK) return stored
  // The header: a style digit, then offset, length, positions and index bytes, the last ended by the mark.
  const header = [0, 0]
  let at = 2
  for (let field = 0; field < 4; field++, at++)
    for (let byte = stored[at]; byte !== COMMA && byte !== PACKED_MARK; byte = stored[++at]) {
      if (byte === undefined || byte < ZERO || byte > ZERO + 9)
        throw new Error('A packed abstract has a damaged header: the record store is damaged')
      if (field < 2) header[field] = header[field]! * 10 + byte - ZERO
    }
  const [offset, length] = header as [number, number]
  const text = stored.subarray(at)
  const out = new Uint8Array(text.length - length + NULL_VALUE.length)
  out.set(text.subarray(0, offset), 0)
  out.set(NULL_VALUE, offset)
  out.set(text.subarray(offset + length), offset + NULL_VALUE.length)
  return out
}
