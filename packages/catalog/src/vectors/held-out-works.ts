// Which works the built-in model never trains on, when a build holds some out: a fixed share chosen by a hash
// of the id and the seed, so the benchmark can name the same works again without a list stored anywhere.

/** FNV-1a (32 bits) of the text: small, fast and the same everywhere. */
const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

/** True when the work `id` is in the held-out share `fraction` (0 to 1) for `seed`. */
export const isHeldOut = (id: string, seed: number, fraction: number): boolean =>
  fraction > 0 && fnv1a(`${seed}/${id}`) / 0x1_0000_0000 < fraction
