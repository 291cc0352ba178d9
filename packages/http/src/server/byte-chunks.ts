/** Chunks read from a stream as one array of `size` bytes (the sum of their lengths). */
export const concatChunks = (chunks: readonly Uint8Array[], size: number): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    bytes.set(chunk, at)
    at += chunk.byteLength
  }
  return bytes
}
