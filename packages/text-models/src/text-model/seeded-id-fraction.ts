// A stable pseudo-random number in [0, 1) per (seed, id): which works a model trains on when a catalog is
// too big to train on all of them, and which works a benchmark holds out. The same seed picks the same works
// in any order and on any machine (FNV-1a over the UTF-16 code units, then a murmur finaliser to spread it).

export function seededIdFraction(id: string, seed: number): number {
  let hash = 0x811c9dc5 ^ (seed >>> 0)
  for (let i = 0; i < id.length; i++) {
    hash ^= id.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  hash ^= hash >>> 16
  hash = Math.imul(hash, 0x85ebca6b)
  hash ^= hash >>> 13
  hash = Math.imul(hash, 0xc2b2ae35)
  hash ^= hash >>> 16
  return (hash >>> 0) / 0x1_0000_0000
}
