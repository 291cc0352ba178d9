// The list index's file, `vectors/works.ivf`: read into memory whole, like the matrix, and viewed in place.
// Little-endian throughout:
//
//   bytes 0-7     the magic `OQLKIVF1`
//   8             u32 file version (1)
//   12            u32 dimensions
//   16            u32 rows (of the matrix it indexes)
//   20            u32 lists
//   24            u32 scanRows
//   28            u32 0 (reserved)
//   32            f32 centroids, `dimensions` a list
//   then          u32 list offsets, `lists + 1`
//   then          u32 rows grouped by list
//
// Every section starts at a multiple of 4, so the numbers are read as typed arrays over the file's bytes.
// Reading checks everything a search relies on: the header against catalog.json, the size, the lists'
// bounds, every row once (a row out of range would read past the matrix), and finite centroids. A file that
// fails is refused with a `VectorIndexError` naming the file, what is wrong and how to mend it. There is no
// quiet fallback to the exact scan: at 10M works that turns a 50 ms search into seconds with nothing to say
// why, so a damaged index is an error (its size is checked when the catalog opens, its content on first use).
import { IvfVectorIndex, VectorIndexError } from './ivf-vector-index.ts'

const MAGIC = 'OQLKIVF1'
const FILE_VERSION = 1
const HEADER_BYTES = 32

/** The size of the file of an index of `lists` lists over `rows` rows of `dimensions` dimensions. */
export function ivfIndexFileBytes(rows: number, dimensions: number, lists: number): number {
  return HEADER_BYTES + 4 * lists * dimensions + 4 * (lists + 1) + 4 * rows
}

export function encodeIvfIndex(index: IvfVectorIndex): Uint8Array {
  const rows = index.rows.length
  const bytes = new Uint8Array(ivfIndexFileBytes(rows, index.dimensions, index.lists))
  const view = new DataView(bytes.buffer)
  for (let at = 0; at < MAGIC.length; at++) bytes[at] = MAGIC.charCodeAt(at)
  view.setUint32(8, FILE_VERSION, true)
  view.setUint32(12, index.dimensions, true)
  view.setUint32(16, rows, true)
  view.setUint32(20, index.lists, true)
  view.setUint32(24, index.scanRows, true)
  view.setUint32(28, 0, true)
  let at = HEADER_BYTES
  for (const values of [index.centroids, index.offsets, index.rows]) {
    // Typed arrays hold the platform's byte order: written through a DataView so the file is little-endian.
    const write =
      values instanceof Float32Array
        ? (offset: number, value: number) => view.setFloat32(offset, value, true)
        : (offset: number, value: number) => view.setUint32(offset, value, true)
    for (let item = 0; item < values.length; item++, at += 4) write(at, values[item]!)
  }
  return bytes
}

/** What catalog.json says the file holds. */
export interface IvfIndexExpectation {
  readonly file: string
  readonly rows: number
  readonly dimensions: number
  readonly lists: number
  readonly scanRows: number
}

export function decodeIvfIndex(bytes: Uint8Array, expected: IvfIndexExpectation): IvfVectorIndex {
  const fail = (what: string): never => {
    throw new VectorIndexError(
      `The list index ${expected.file} ${what}; build the vectors again (oqlkit ingest), or remove its entry (extensions.vectors.listIndex) from catalog.json to search without it`,
    )
  }
  if (bytes.length < HEADER_BYTES) fail(`holds ${bytes.length} bytes, less than its header`)
  const magic = String.fromCharCode(...bytes.subarray(0, MAGIC.length))
  if (magic !== MAGIC) fail(`does not start with ${MAGIC}`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  const version = view.getUint32(8, true)
  if (version !== FILE_VERSION) fail(`is of version ${version}; this oqlkit reads version ${FILE_VERSION}`)
  const header = {
    dimensions: view.getUint32(12, true),
    rows: view.getUint32(16, true),
    lists: view.getUint32(20, true),
    scanRows: view.getUint32(24, true),
  }
  for (const key of ['dimensions', 'rows', 'lists', 'scanRows'] as const)
    if (header[key] !== expected[key])
      fail(`gives ${header[key]} ${key} where catalog.json says ${expected[key]}`)
  const { rows, dimensions, lists } = header
  const size = ivfIndexFileBytes(rows, dimensions, lists)
  if (bytes.length !== size) fail(`holds ${bytes.length} bytes where its header makes ${size}`)
  // Views need 4-byte alignment and the platform's byte order (little-endian on every platform Node runs on).
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice()
  const wordsAt = (offset: number) => aligned.byteOffset + offset
  const centroids = new Float32Array(aligned.buffer, wordsAt(HEADER_BYTES), lists * dimensions)
  const offsets = new Uint32Array(aligned.buffer, wordsAt(HEADER_BYTES + 4 * lists * dimensions), lists + 1)
  const listed = new Uint32Array(
    aligned.buffer,
    wordsAt(HEADER_BYTES + 4 * lists * dimensions + 4 * (lists + 1)),
    rows,
  )
  for (let at = 0; at < centroids.length; at++)
    if (!Number.isFinite(centroids[at]!))
      fail(`has a centroid number that is not finite (list ${Math.floor(at / dimensions)})`)
  const seen = new Uint8Array(rows)
  for (let at = 0; at < rows; at++) {
    const row = listed[at]!
    if (row >= rows) fail(`lists row ${row}, past the matrix's ${rows} rows`)
    if (seen[row] === 1) fail(`lists row ${row} twice`)
    seen[row] = 1
  }
  try {
    return new IvfVectorIndex({ dimensions, centroids, offsets, rows: listed, scanRows: header.scanRows })
  } catch (error) {
    return fail(`is inconsistent: ${error instanceof Error ? error.message : String(error)}`)
  }
}
