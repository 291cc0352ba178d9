// How a name picked from the catalog goes into OQL: the id the query needs, then the display name as an
// annotation for the reader (`I136199984 [Harvard University]`, as the printer writes it). Annotations
// are trivia to the parser, so the name may say anything but `]`, which would end it.

/** One suggestion of `/autocomplete/{entity}` (the members the editor reads). */
export interface AutocompleteHit {
  readonly id: string
  readonly display_name: string
  readonly hint?: string | null
}

/** `I136199984` from `https://openalex.org/I136199984` (or `institutions/I136199984`). */
export const shortId = (id: string): string => id.slice(id.lastIndexOf('/') + 1)

/** An annotation runs to the first `]`, so a name keeps none of its brackets. */
const annotationText = (name: string): string => name.replace(/[[\]]/g, '').replace(/\s+/g, ' ').trim()

/** `I136199984 [Harvard University]`; the id alone when the name has nothing left to say. */
export const oqlEntityValue = (hit: AutocompleteHit): string => {
  const name = annotationText(hit.display_name)
  return name === '' ? shortId(hit.id) : `${shortId(hit.id)} [${name}]`
}
