// How type-ahead text is compared with display names, shared by the engine (which ranks merged results)
// and adapters (which match): case and accents ignored, every run of non-letters and non-digits one space.

/** `Université  de Montréal (UdeM)` is `universite de montreal udem`. */
export const normalizeAutocompleteText = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/**
 * How well a display name matches typed text: 3 for the same name, 2 when the name starts with the
 * text, 1 when a word of it does (a phrase prefix), 0 for no match.
 */
export const autocompleteTier = (displayName: string, text: string): 0 | 1 | 2 | 3 => {
  const name = normalizeAutocompleteText(displayName)
  const typed = normalizeAutocompleteText(text)
  if (typed === '') return 0
  if (name === typed) return 3
  if (name.startsWith(typed)) return 2
  return ` ${name}`.includes(` ${typed}`) ? 1 : 0
}
