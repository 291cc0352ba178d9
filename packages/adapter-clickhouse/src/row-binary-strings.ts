// Rows of Strings in ClickHouse's RowBinary format, both ways: each value its byte length as an unsigned LEB128
// number, then its bytes. The records go to ClickHouse this way because they are bytes already (UTF-8 JSON
// out of the record store): RowBinary takes them as they are, where a text format would have to escape
// every backslash and quote of every record first. (The official client's `insert` offers no binary
// format, so the loader sends these rows with `exec`.)

/** An unsigned LEB128 length, as RowBinary writes the size of a String or an Array. */
export const lengthBytes = (length: number): number[] => {
  const bytes: number[] = []
  let rest = length
  do {
    const low = rest & 0x7f
    rest = Math.floor(rest / 128)
    bytes.push(rest > 0 ? low | 0x80 : low)
  } while (rest > 0)
  return bytes
}

/** One buffer holding the rows, each a list of String values in the table's column order. */
export const encodeStringRows = (rows: readonly (readonly Uint8Array[])[]): Buffer => {
  let size = 0
  for (const row of rows) for (const value of row) size += value.length + lengthBytes(value.length).length
  const buffer = Buffer.allocUnsafe(size)
  let at = 0
  for (const row of rows)
    for (const value of row) {
      for (const byte of lengthBytes(value.length)) buffer[at++] = byte
      buffer.set(value, at)
      at += value.length
    }
  return buffer
}

/**
 * The rows of a RowBinary answer whose columns are all Strings (`SELECT id, record … FORMAT RowBinary`):
 * each value a view of `buffer`, without a copy or a decode, as records are passed on as bytes.
 */
export const decodeStringRows = (buffer: Uint8Array, columns: number): Uint8Array[][] => {
  const rows: Uint8Array[][] = []
  let at = 0
  while (at < buffer.length) {
    const row: Uint8Array[] = []
    for (let column = 0; column < columns; column++) {
      let length = 0
      let scale = 1
      for (;;) {
        if (at >= buffer.length) throw new Error('A RowBinary answer ended inside a value')
        const byte = buffer[at++]!
        length += (byte & 0x7f) * scale
        scale *= 128
        if ((byte & 0x80) === 0) break
      }
      if (at + length > buffer.length) throw new Error('A RowBinary answer ended inside a value')
      row.push(buffer.subarray(at, at + length))
      at += length
    }
    rows.push(row)
  }
  return rows
}
