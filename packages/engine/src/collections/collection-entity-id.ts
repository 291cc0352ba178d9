import { type EntityType, NATIVE_ID_PREFIXES } from '@oqlkit/oqo-schema/registry'

/** An entity id read in any accepted form, normalised, with the type its shape gives. */
export interface CollectionEntityId {
  /** `W123`, `K123`, `sdgs/3` or `keywords/machine-learning`: the short form filters take. */
  readonly id: string
  readonly entityType: EntityType
}

/** Where entity ids point unless the server is told otherwise. */
export const DEFAULT_ID_BASE = 'https://openalex.org'

const OPENALEX_HOST = String.raw`(?:https?:\/\/(?:www\.)?openalex\.org\/)?`
const LETTER_ID = new RegExp(`^${OPENALEX_HOST}(?:([a-z-]+)\\/)?([a-z])(\\d{1,19})$`, 'i')
const SDG_ID = new RegExp(
  `^(?:${OPENALEX_HOST}sdgs\\/|https?:\\/\\/metadata\\.un\\.org\\/sdg\\/)(\\d{1,2})$`,
  'i',
)
const KEYWORD_ID = new RegExp(`^${OPENALEX_HOST}keywords\\/([a-z0-9]+(?:-[a-z0-9]+)*)$`, 'i')

/**
 * The letter each id type carries. The API description gives keywords the letter K (`K<digits>`), though
 * the catalog's own keyword ids are slugs (`keywords/machine-learning`) and K is no native prefix of the
 * registry: a collection takes both, so ids a client holds in either form can be collected.
 */
const TYPE_OF_LETTER = new Map<string, EntityType>([
  ...Object.entries(NATIVE_ID_PREFIXES).map(([entity, letter]): [string, EntityType] => [
    letter,
    entity as EntityType,
  ]),
  ['K', 'keywords'],
])

/** Longer than any id shape: such text is refused before a pattern looks at it. */
const MAX_ID_LENGTH = 200

/**
 * Reads an entity id as a collection accepts it: a full URL (`https://openalex.org/W123`), a short id
 * (`W123`, `w123`, `works/W123`), an SDG as `sdgs/3` or its UN URL, a keyword as `K123` (or its URL) or
 * as `keywords/<slug>` (or its URL). Case does not matter; the result is the normalised short form.
 * Anything else is undefined.
 */
export const readCollectionEntityId = (text: string): CollectionEntityId | undefined => {
  const trimmed = text.trim()
  if (trimmed.length === 0 || trimmed.length > MAX_ID_LENGTH) return undefined
  const letter = LETTER_ID.exec(trimmed)
  if (letter !== null) {
    const entityType = TYPE_OF_LETTER.get(letter[2]!.toUpperCase())
    if (entityType === undefined) return undefined
    // `authors/W1` names two types at once.
    if (letter[1] !== undefined && letter[1].toLowerCase() !== entityType) return undefined
    // Leading zeros name the same number: `W0123` is `W123`.
    return { id: `${letter[2]!.toUpperCase()}${letter[3]!.replace(/^0+(?=\d)/, '')}`, entityType }
  }
  const sdg = SDG_ID.exec(trimmed)
  if (sdg !== null) {
    const goal = Number(sdg[1])
    return goal >= 1 && goal <= 17 ? { id: `sdgs/${goal}`, entityType: 'sdgs' } : undefined
  }
  const keyword = KEYWORD_ID.exec(trimmed)
  if (keyword !== null) return { id: `keywords/${keyword[1]!.toLowerCase()}`, entityType: 'keywords' }
  return undefined
}

/** The full URL form of a normalised id (`https://openalex.org/W123`). */
export const entityIdUrl = (id: string, idBase: string = DEFAULT_ID_BASE): string =>
  `${idBase.replace(/\/+$/, '')}/${id}`
