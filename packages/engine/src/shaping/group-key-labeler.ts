import {
  bareVocabularyCode,
  decodePercentEscapes,
  type EntityType,
  findVocabularyEntry,
  isVocabularyEntityType,
  NATIVE_ID_PREFIXES,
  type PropertiesRegistry,
} from '@oqlkit/oqo-schema/registry'
import type { StorageAdapter } from '../adapter/storage-adapter.ts'
import type { ColumnRef } from '../plan/filter-node.ts'
import { findDisplayNames } from './display-name-lookup.ts'

/** A group key as an adapter returns it: the stored value, or null for the unknown bucket. */
export type RawGroupKey = string | number | boolean | null

/** A key in the API's form and the name shown for it. */
export interface GroupKeyLabel {
  readonly key: string
  readonly displayName: string
}

export const ID_BASE = 'https://openalex.org/'

const UNKNOWN: GroupKeyLabel = Object.freeze({ key: 'unknown', displayName: 'unknown' })
const LETTER_ID = /^(?:https?:\/\/(?:www\.)?openalex\.org\/)?([A-Za-z]\d+)$/i

const entityOfLetter = (letter: string): EntityType | undefined =>
  (Object.entries(NATIVE_ID_PREFIXES) as [EntityType, string][]).find(
    ([, prefix]) => prefix === letter.toUpperCase(),
  )?.[0]

/** The last path segment of an id URL, percent-decoded (`…/source-types/book%20series` is `book series`). */
const lastSegment = (value: string): string => {
  return decodePercentEscapes(value.replace(/\/+$/, '').split('/').at(-1) ?? value)
}

interface Pending {
  readonly entity: EntityType
  readonly short: string
  readonly key: string
}

/**
 * Labels the keys of one group dimension: URL-form keys for entity ids and vocabulary codes, with the
 * vocabulary's name or the entity's `display_name` (looked up through the adapter, in batches);
 * booleans and numbers as text; rows without a value as `unknown`. A key whose entity cannot be found
 * is labelled with itself, so labelling never fails a response.
 */
export const labelGroupKeys = async (
  adapter: StorageAdapter,
  entity: EntityType,
  dimension: ColumnRef,
  keys: readonly RawGroupKey[],
  registry: PropertiesRegistry,
): Promise<Map<RawGroupKey, GroupKeyLabel>> => {
  const valueEntity = registry.resolveColumn(entity, dimension.id)?.valueEntity ?? null
  const labels = new Map<RawGroupKey, GroupKeyLabel>()
  const pending = new Map<RawGroupKey, Pending>()
  for (const raw of new Set(keys)) {
    if (raw === null) labels.set(raw, UNKNOWN)
    else if (typeof raw !== 'string') labels.set(raw, { key: String(raw), displayName: String(raw) })
    else if (valueEntity !== null && isVocabularyEntityType(valueEntity)) {
      const entry = findVocabularyEntry(valueEntity, raw)
      const code = entry?.code ?? bareVocabularyCode(raw)
      labels.set(raw, {
        key: `${ID_BASE}${valueEntity}/${encodeURIComponent(code)}`,
        displayName: entry?.displayName ?? code,
      })
    } else {
      // Only id columns hold ids: a volume or an ORCID that looks like `A12` is a plain value.
      const letter = dimension.kind === 'entity_id' ? LETTER_ID.exec(raw)?.[1] : undefined
      const letterEntity =
        letter === undefined
          ? undefined
          : valueEntity !== null && valueEntity in NATIVE_ID_PREFIXES
            ? valueEntity
            : entityOfLetter(letter[0]!)
      if (letter !== undefined && letterEntity !== undefined) {
        const short = letter.toUpperCase()
        pending.set(raw, { entity: letterEntity, short, key: `${ID_BASE}${short}` })
      } else if (valueEntity !== null && dimension.kind === 'entity_id' && letter === undefined) {
        // Ids of open path vocabularies (keywords): `https://openalex.org/keywords/ecology`.
        const short = lastSegment(raw)
        const key = /^https?:\/\//i.test(raw) ? raw : `${ID_BASE}${valueEntity}/${encodeURIComponent(short)}`
        pending.set(raw, { entity: valueEntity, short, key })
      } else labels.set(raw, { key: raw, displayName: raw })
    }
  }

  const byEntity = new Map<EntityType, Set<string>>()
  for (const { entity: target, short } of pending.values()) {
    const shorts = byEntity.get(target) ?? new Set<string>()
    shorts.add(short)
    byEntity.set(target, shorts)
  }
  const names = new Map<string, string>()
  for (const [target, shorts] of byEntity) {
    const found = await findDisplayNames(adapter, target, [...shorts], registry)
    for (const [short, name] of found) names.set(`${target}\u0000${short}`, name)
  }
  for (const [raw, { entity: target, short, key }] of pending)
    labels.set(raw, { key, displayName: names.get(`${target}\u0000${short}`) ?? key })
  return labels
}
