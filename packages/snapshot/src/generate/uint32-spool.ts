// Temporary files of 32-bit unsigned integers, written and read strictly in order through a fixed buffer.
// The generator keeps what does not fit a per-work typed array here (the references of every work, the
// work-to-entity links), so its memory stays flat however many works it makes.
import { closeSync, openSync, readSync, writeSync } from 'node:fs'

const BUFFER_WORDS = 1 << 18

export class Uint32SpoolWriter {
  readonly path: string
  #fd: number
  readonly #buffer = new Uint32Array(BUFFER_WORDS)
  #used = 0
  #written = 0

  constructor(path: string) {
    this.path = path
    this.#fd = openSync(path, 'w')
  }

  /** Words written so far. */
  get length(): number {
    return this.#written + this.#used
  }

  push(value: number): void {
    this.#buffer[this.#used++] = value
    if (this.#used === BUFFER_WORDS) this.#flush()
  }

  push2(a: number, b: number): void {
    this.push(a)
    this.push(b)
  }

  close(): void {
    if (this.#fd === -1) return
    this.#flush()
    closeSync(this.#fd)
    this.#fd = -1
  }

  #flush(): void {
    let offset = 0
    const bytes = this.#used * 4
    while (offset < bytes) offset += writeSync(this.#fd, this.#buffer, offset, bytes - offset)
    this.#written += this.#used
    this.#used = 0
  }
}

export class Uint32SpoolReader {
  readonly #fd: number
  readonly #buffer = new Uint32Array(BUFFER_WORDS)
  #available = 0
  #position = 0
  /** Byte offset in the file of the word after the buffered ones. */
  #filePosition = 0
  #closed = false

  /** Reads from word `start` on (a work range's first word, for a reader that starts mid-spool). */
  constructor(path: string, start = 0) {
    this.#fd = openSync(path, 'r')
    this.#filePosition = start * 4
  }

  /** The index of the word next() returns. */
  get word(): number {
    return this.#filePosition / 4 - (this.#available - this.#position)
  }

  /**
   * Continues at word `word`. A reader handed one range after another (a worker's batches) is usually there
   * already, and then keeps its buffer.
   */
  seek(word: number): void {
    if (word === this.word) return
    this.#filePosition = word * 4
    this.#available = 0
    this.#position = 0
  }

  /** The next word; throws past the end (a spool is always read back exactly as it was written). */
  next(): number {
    if (this.#position === this.#available) this.#fill()
    return this.#buffer[this.#position++]!
  }

  /** True when every word has been read. */
  done(): boolean {
    if (this.#position < this.#available) return false
    this.#fill(false)
    return this.#available === 0
  }

  close(): void {
    if (this.#closed) return
    closeSync(this.#fd)
    this.#closed = true
  }

  #fill(required = true): void {
    const view = new Uint8Array(this.#buffer.buffer)
    let bytes = 0
    for (;;) {
      const read = readSync(this.#fd, view, bytes, view.length - bytes, this.#filePosition + bytes)
      if (read === 0) break
      bytes += read
      if (bytes % 4 === 0) break
    }
    this.#filePosition += bytes
    this.#available = bytes / 4
    this.#position = 0
    if (required && this.#available === 0) throw new Error('read past the end of a spool file')
  }
}
