// The English stemmer of the `stemmed` token stream: M. F. Porter's 1980 suffix-stripping algorithm ("An
// algorithm for suffix stripping", Program 14(3)), steps 1a–5b, with the two small rule changes Porter
// published later (`bli → ble` instead of `abli → able`, and `logi → log`). It runs in TypeScript because the
// same function must stem the index (at build time, once per distinct term) and the query words (at compile
// time); a SQL version would have to be kept equal to this one by hand.
//
// Only tokens made of the letters a–z are stemmed: numbers, mixed tokens (`covid19`) and non-Latin words are
// returned unchanged, which keeps the function total and deterministic for every token the tokenizer emits.
//
// Why not the npm `stemmer` package (2.0.1, also Porter 1980): compared on the 25,826 distinct tokens of the
// bundled sample's searchable texts (2026-11), it gives another stem for 763 of them: it also stems tokens with
// digits or non-Latin letters (`1990s` → `1990`, `københavns` → `københavn`), and `ies` → `ie` (here `i`).
// Switching would change the stems of an existing index, so this one stays.

const ASCII_WORD = /^[a-z]+$/

/** The stem of one exact token (already lower-cased and accent-folded). */
export function porterStem(token: string): string {
  if (token.length <= 2 || !ASCII_WORD.test(token)) return token
  let word = step1a(token)
  word = step1b(word)
  word = step1c(word)
  word = replaceBySuffix(word, STEP2, 0)
  word = replaceBySuffix(word, STEP3, 0)
  word = step4(word)
  word = step5(word)
  return word
}

const isConsonantAt = (word: string, i: number): boolean => {
  const char = word[i]
  if (char === 'a' || char === 'e' || char === 'i' || char === 'o' || char === 'u') return false
  // `y` is a vowel after a consonant (`happy`) and a consonant at the start or after a vowel (`yes`, `toy`).
  if (char === 'y') return i === 0 || !isConsonantAt(word, i - 1)
  return true
}

/** Porter's m: the number of vowel-consonant sequences in `[C](VC)^m[V]`. */
function measure(stem: string): number {
  let count = 0
  let i = 0
  while (i < stem.length && isConsonantAt(stem, i)) i++
  while (i < stem.length) {
    while (i < stem.length && !isConsonantAt(stem, i)) i++
    if (i >= stem.length) break
    count++
    while (i < stem.length && isConsonantAt(stem, i)) i++
  }
  return count
}

const hasVowel = (stem: string): boolean => {
  for (let i = 0; i < stem.length; i++) if (!isConsonantAt(stem, i)) return true
  return false
}

const endsWithDoubleConsonant = (stem: string): boolean =>
  stem.length >= 2 && stem.at(-1) === stem.at(-2) && isConsonantAt(stem, stem.length - 1)

/** Porter's *o: consonant-vowel-consonant at the end, the last one not w, x or y (`hop`, not `bow`). */
function endsWithCvc(stem: string): boolean {
  const n = stem.length
  if (n < 3) return false
  const last = stem[n - 1]
  return (
    isConsonantAt(stem, n - 3) &&
    !isConsonantAt(stem, n - 2) &&
    isConsonantAt(stem, n - 1) &&
    last !== 'w' &&
    last !== 'x' &&
    last !== 'y'
  )
}

function step1a(word: string): string {
  if (word.endsWith('sses')) return word.slice(0, -2)
  if (word.endsWith('ies')) return word.slice(0, -2)
  if (word.endsWith('ss')) return word
  if (word.endsWith('s')) return word.slice(0, -1)
  return word
}

function step1b(word: string): string {
  if (word.endsWith('eed')) return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word
  let stem: string | undefined
  if (word.endsWith('ed')) stem = word.slice(0, -2)
  else if (word.endsWith('ing')) stem = word.slice(0, -3)
  if (stem === undefined || !hasVowel(stem)) return word
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return `${stem}e`
  if (endsWithDoubleConsonant(stem) && !/[lsz]$/.test(stem)) return stem.slice(0, -1)
  if (measure(stem) === 1 && endsWithCvc(stem)) return `${stem}e`
  return stem
}

const step1c = (word: string): string =>
  word.endsWith('y') && hasVowel(word.slice(0, -1)) ? `${word.slice(0, -1)}i` : word

type SuffixRule = readonly [suffix: string, replacement: string]

// Longest suffixes first within a shared ending, so the first match is the longest one.
const STEP2: readonly SuffixRule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
]

const STEP3: readonly SuffixRule[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
]

/**
 * Replaces the longest listed suffix when the rest has a measure above `minMeasure`. As in Porter's
 * algorithm, only the longest matching suffix is tried: when its condition fails, the step does nothing.
 */
function replaceBySuffix(word: string, rules: readonly SuffixRule[], minMeasure: number): string {
  let best: SuffixRule | undefined
  for (const rule of rules) {
    if (word.endsWith(rule[0]) && (best === undefined || rule[0].length > best[0].length)) best = rule
  }
  if (best === undefined) return word
  const stem = word.slice(0, -best[0].length)
  return measure(stem) > minMeasure ? stem + best[1] : word
}

const STEP4 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
]

function step4(word: string): string {
  let suffix: string | undefined
  for (const candidate of STEP4) {
    if (word.endsWith(candidate) && (suffix === undefined || candidate.length > suffix.length))
      suffix = candidate
  }
  if (suffix === undefined) return word
  const stem = word.slice(0, -suffix.length)
  if (measure(stem) <= 1) return word
  if (suffix === 'ion' && !stem.endsWith('s') && !stem.endsWith('t')) return word
  return stem
}

function step5(word: string): string {
  let result = word
  if (result.endsWith('e')) {
    const stem = result.slice(0, -1)
    const m = measure(stem)
    if (m > 1 || (m === 1 && !endsWithCvc(stem))) result = stem
  }
  if (result.endsWith('ll') && measure(result) > 1) result = result.slice(0, -1)
  return result
}
