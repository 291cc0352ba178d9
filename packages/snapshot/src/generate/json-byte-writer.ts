// Writes JSON text as UTF-8 bytes straight into a buffer, piece by piece, for pass 2's work records. Building
// a record as one JavaScript string and encoding it afterwards cost more than building it: the string is a
// rope of hundreds of pieces that V8 must flatten (a copy, twice the size once any character is beyond
// Latin-1) before encoding it, and the ropes and flat copies are garbage by the next record. Here a piece is
// written once, where it goes: ASCII text (keys, numbers, ids) byte by byte, other text through the buffer's
// own UTF-8 encoder, and the embedded objects the pools serialise once (institutions, sources, topics,
// terms) as bytes the caller encoded once. The bytes are those of the string the pieces would concatenate to.

/** UTF-8 needs at most 3 bytes per UTF-16 code unit. */
const MAX_UTF8_PER_UNIT = 3
/**
 * Below this length a piece is copied byte by byte: a copy through set() costs 20-30 ns whatever the length,
 * a byte 2-3 ns.
 */
const SHORT_PIECE = 14
const ZERO = 0x30
const ASCII_END = 0x80

export class JsonByteWriter {
  /** The bytes written so far are `buffer[0, length)`. */
  buffer: Buffer
  length = 0

  constructor(buffer: Buffer) {
    this.buffer = buffer
  }

  /** Starts over at the beginning of `buffer` (or of a new one). */
  reset(buffer: Buffer = this.buffer): void {
    this.buffer = buffer
    this.length = 0
  }

  /** The bytes written so far (a view, valid until the next write or reset). */
  view(): Buffer {
    return this.buffer.subarray(0, this.length)
  }

  /** Text known to be ASCII (keys, punctuation, numbers, ids built from ASCII). */
  ascii(text: string): void {
    const count = text.length
    if (this.length + count > this.buffer.length) this.#grow(count)
    const bytes = this.buffer
    let at = this.length
    for (let k = 0; k < count; k++) bytes[at++] = text.charCodeAt(k)
    this.length = at
  }

  /** Any text, as UTF-8. */
  text(text: string): void {
    const count = text.length
    if (this.length + count * MAX_UTF8_PER_UNIT > this.buffer.length) this.#grow(count * MAX_UTF8_PER_UNIT)
    const bytes = this.buffer
    const start = this.length
    let at = start
    for (let k = 0; k < count; k++) {
      const code = text.charCodeAt(k)
      if (code >= ASCII_END) {
        this.length = start + bytes.write(text, start, 'utf8')
        return
      }
      bytes[at++] = code
    }
    this.length = at
  }

  /** A string, or null, as its JSON literal (what JSON.stringify gives), as UTF-8. */
  string(value: string | null): void {
    this.text(JSON.stringify(value))
  }

  /** `"` + ASCII text + `"`, for values known to need no escaping. */
  quotedAscii(text: string): void {
    this.byte(0x22)
    this.ascii(text)
    this.byte(0x22)
  }

  bytesOf(piece: Uint8Array): void {
    const count = piece.length
    if (this.length + count > this.buffer.length) this.#grow(count)
    if (count < SHORT_PIECE) {
      const bytes = this.buffer
      let at = this.length
      for (let k = 0; k < count; k++) bytes[at++] = piece[k]!
      this.length = at
      return
    }
    this.buffer.set(piece, this.length)
    this.length += count
  }

  /** What another writer holds. */
  writer(other: JsonByteWriter): void {
    this.range(other, 0, other.length)
  }

  /** Bytes [start, end) of what another writer holds. */
  range(other: JsonByteWriter, start: number, end: number): void {
    const count = end - start
    if (this.length + count > this.buffer.length) this.#grow(count)
    other.buffer.copy(this.buffer, this.length, start, end)
    this.length += count
  }

  byte(value: number): void {
    if (this.length === this.buffer.length) this.#grow(1)
    this.buffer[this.length++] = value
  }

  /** A whole number from 0 to 2^53, in decimal (as String(value) writes it). */
  natural(value: number): void {
    if (value < 10) {
      this.byte(ZERO + value)
      return
    }
    let digits = 1
    for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) digits++
    if (this.length + digits > this.buffer.length) this.#grow(digits)
    const bytes = this.buffer
    let at = this.length + digits
    this.length = at
    let rest = value
    while (rest >= 10) {
      bytes[--at] = ZERO + (rest % 10)
      rest = Math.floor(rest / 10)
    }
    bytes[--at] = ZERO + rest
  }

  /** Any number, as a template literal writes it (String(value)); null as `null`. */
  number(value: number | null): void {
    if (value === null) this.ascii('null')
    else if (Number.isSafeInteger(value) && value >= 0) this.natural(value)
    else this.ascii(String(value))
  }

  boolean(value: boolean): void {
    this.ascii(value ? 'true' : 'false')
  }

  /** Room for `more` bytes past `length`: a larger buffer of its own (transferable), the bytes copied. */
  #grow(more: number): void {
    const size = Math.max(this.length + more, this.buffer.length * 2)
    const bigger = Buffer.from(new ArrayBuffer(size))
    bigger.set(this.buffer.subarray(0, this.length))
    this.buffer = bigger
  }
}
