// Ratcliff/Obershelp similarity (the measure behind "did you mean" suggestions): twice the number of
// characters in matching blocks over the total length, where blocks are found by repeatedly taking the
// longest common substring and recursing on both sides of it.
const matchingCharacters = (a: string, b: string): number => {
  if (a.length === 0 || b.length === 0) return 0
  let bestLength = 0
  let bestA = 0
  let bestB = 0
  let previous = new Array<number>(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1).fill(0)
    for (let j = 1; j <= b.length; j++) {
      if (a[i - 1] === b[j - 1]) {
        const length = (previous[j - 1] ?? 0) + 1
        current[j] = length
        if (length > bestLength) {
          bestLength = length
          bestA = i - length
          bestB = j - length
        }
      }
    }
    previous = current
  }
  if (bestLength === 0) return 0
  return (
    bestLength +
    matchingCharacters(a.slice(0, bestA), b.slice(0, bestB)) +
    matchingCharacters(a.slice(bestA + bestLength), b.slice(bestB + bestLength))
  )
}

export const similarity = (a: string, b: string): number =>
  a.length + b.length === 0 ? 1 : (2 * matchingCharacters(a, b)) / (a.length + b.length)

/** The candidates at least `cutoff` similar to `word`, most similar first (at most `limit`). */
export const closestMatches = (
  word: string,
  candidates: Iterable<string>,
  limit = 3,
  cutoff = 0.8,
): string[] => {
  const scored: Array<[string, number]> = []
  for (const candidate of candidates) {
    const score = similarity(word.toLowerCase(), candidate.toLowerCase())
    if (score >= cutoff) scored.push([candidate, score])
  }
  return scored
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .slice(0, limit)
    .map(([candidate]) => candidate)
}
