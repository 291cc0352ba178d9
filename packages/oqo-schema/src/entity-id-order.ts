import { type EntityType, NATIVE_ID_PREFIXES } from './entity-types.ts'

// The order of an entity's ids, the tiebreak that makes every sort total. Letter ids (`W123`) order by their
// number, then by their text (only ids written with leading zeros share a number); the other ids, codes of
// closed vocabularies, by their text. By number because OpenAlex numbers new records upwards while their
// ids grow longer (`W99854102` is older than `W4390000001`): in that order a catalog's new records come
// last, where its serving rows can be appended, and a person reading ids sees them counted.

const compareText = (left: string, right: string): number => (left === right ? 0 : left < right ? -1 : 1)

const hasLetterIds = (entity: EntityType): boolean => Object.hasOwn(NATIVE_ID_PREFIXES, entity)

/** The digits of a letter id without its leading zeros (`W0012` gives `12`, `W0` gives `0`). */
const significantDigits = (id: string): string => {
  let start = 1
  while (start < id.length - 1 && id.charCodeAt(start) === 48) start++
  return id.slice(start)
}

/** Two letter ids of one entity (`W9`, `W10`) in id order: by number, then text. */
export const compareLetterIds = (left: string, right: string): number => {
  // Without leading zeros (every OpenAlex id), the shorter number is the smaller: no digits to strip. Semantic
  // search walks up to a million ids with this.
  if (left.charCodeAt(1) !== 48 && right.charCodeAt(1) !== 48)
    return left.length !== right.length ? left.length - right.length : compareText(left, right)
  const a = significantDigits(left)
  const b = significantDigits(right)
  if (a.length !== b.length) return a.length - b.length
  return a !== b ? compareText(a, b) : compareText(left, right)
}

/** Two short ids of `entity` in id order (negative when `left` comes first). */
export const compareEntityIds = (entity: EntityType, left: string, right: string): number =>
  hasLetterIds(entity) ? compareLetterIds(left, right) : compareText(left, right)
