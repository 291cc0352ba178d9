// Which works a model trains on when the catalog has more than it needs: the `max` of lowest seeded key
// (bottom-k sampling). Every work's key depends only on its id and the seed, so the same catalog and seed pick
// the same works in any order, a work's choice does not move when another is added far away in the key order,
// and the count is exact (a share of a hash's range gives only about `max`). The builders read the ids first
// (a small column), pick the rows here, then read and parse the texts of the picked rows only.

/**
 * The rows (indexes into `keys`) of the `max` lowest keys, ascending by row; ties go to the lower row. A key
 * that is not a finite number (`NaN`, `Infinity`) marks a row that may not be picked (held out). Every
 * pickable row when there are `max` or fewer.
 */
export function lowestKeyRows(keys: ArrayLike<number>, max: number): Uint32Array {
  if (!(max >= 0)) throw new RangeError(`A sample holds 0 rows or more, not ${max}`)
  const pickable: number[] = []
  for (let row = 0; row < keys.length; row++) if (Number.isFinite(keys[row])) pickable.push(row)
  if (pickable.length <= max) return Uint32Array.from(pickable)
  pickable.sort((a, b) => keys[a]! - keys[b]! || a - b)
  return Uint32Array.from(pickable.slice(0, Math.floor(max))).sort()
}
