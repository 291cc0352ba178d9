// The slices of an entity's staged rows that the ranged sort splits one statement at a time
// (catalog-builder.ts): each at most `sliceBytes` of staged JSON where a part allows, as ranges of staging
// numbers. Consecutive parts share a slice: a snapshot has many small parts (the bundled sample's 80 works
// parts are 130 KB each), and one statement per part made the split 165 partitioned writes for the sample
// sorted in 22 ranges, most of its 13 s of CPU above a single sort. A part larger than a slice is cut into
// pieces of equal record counts.

/** The rows one parse task staged: numbered `firstSeq` on, `records` of them, `bytes` of JSON lines. */
export interface StagedPart {
  readonly firstSeq: bigint
  readonly records: number
  readonly bytes: number
}

/** `[first, last]` staging numbers, inclusive. */
export type StagedRowSlice = readonly [bigint, bigint]

/**
 * The slices of `parts` (a part's rows are numbered `firstSeq` to `firstSeq + records - 1`, no two parts
 * overlapping). A slice spanning several parts covers the numbers between them too, which belong to other
 * entities' parts or to none, never to this entity's: the parts are taken in order of their numbers.
 */
export function stagedRowSlices(parts: readonly StagedPart[], sliceBytes: number): StagedRowSlice[] {
  const slices: StagedRowSlice[] = []
  let open: { first: bigint; last: bigint; bytes: number } | undefined
  const close = () => {
    if (open !== undefined) slices.push([open.first, open.last])
    open = undefined
  }
  const ordered = parts
    .filter((part) => part.records > 0)
    .sort((a, b) => (a.firstSeq < b.firstSeq ? -1 : a.firstSeq > b.firstSeq ? 1 : 0))
  for (const part of ordered) {
    const last = part.firstSeq + BigInt(part.records - 1)
    if (part.bytes > sliceBytes) {
      close()
      const pieces = Math.ceil(part.bytes / sliceBytes)
      const perPiece = Math.max(1, Math.ceil(part.records / pieces))
      for (let from = 0; from < part.records; from += perPiece)
        slices.push([
          part.firstSeq + BigInt(from),
          part.firstSeq + BigInt(Math.min(part.records, from + perPiece) - 1),
        ])
      continue
    }
    if (open !== undefined && open.bytes + part.bytes > sliceBytes) close()
    if (open === undefined) open = { first: part.firstSeq, last, bytes: part.bytes }
    else {
      open.last = last
      open.bytes += part.bytes
    }
  }
  close()
  return slices
}
