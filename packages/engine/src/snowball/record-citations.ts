// A work's id and the works it cites, read from its record: from the stored JSON text by substring search when
// it has the usual shape, else by picking the two members. A snowball reads them from every work it reaches when
// the storage has no citation lookup of its own.
import type { EntityRecord } from '../adapter/storage-adapter.ts'
import { pickJsonMembers } from '../shaping/json-member-picker.ts'

export interface RecordCitations {
  /** The work's short id (`W2741809807`). */
  readonly id: string
  /** The short ids it cites, in its record's order. */
  readonly cites: readonly string[]
}

const CITATION_MEMBERS: ReadonlySet<string> = new Set(['id', 'referenced_works'])
const ID_KEY = '{"id":"'
const REFERENCES_KEY = '"referenced_works":['
const utf8 = new TextDecoder()

/** The part of an OpenAlex id URL after its last slash: `W2741809807`. */
export const shortIdOf = (value: unknown): string => {
  const text = String(value)
  return text.slice(text.lastIndexOf('/') + 1)
}

/**
 * The id and references of a stored record's JSON text found by substring search, without parsing the record:
 * its id when the record opens with it (as every stored work does), and its references when
 * `"referenced_works":[` occurs once (a quote inside a string is escaped, so the pattern can only be a key;
 * OpenAlex has it at the top level only). Undefined when either is not so: the caller parses the record instead.
 * Picking the members walks every value of a 16 KB work; the search is native.
 */
const citationsBySearch = (json: string): RecordCitations | undefined => {
  if (!json.startsWith(ID_KEY)) return undefined
  const idEnd = json.indexOf('"', ID_KEY.length)
  const key = json.indexOf(REFERENCES_KEY)
  if (idEnd === -1 || key === -1 || json.includes(REFERENCES_KEY, key + 1)) return undefined
  const listStart = key + REFERENCES_KEY.length - 1
  // Ids hold no bracket: the list ends at the first one.
  const listEnd = json.indexOf(']', listStart)
  if (listEnd === -1) return undefined
  const list = JSON.parse(json.slice(listStart, listEnd + 1)) as unknown[]
  return { id: shortIdOf(json.slice(ID_KEY.length, idEnd)), cites: list.map(shortIdOf) }
}

/** A work's short id and the short ids it cites, from its stored bytes or its record. */
export const recordCitationsOf = (record: Uint8Array | EntityRecord): RecordCitations => {
  const json = record instanceof Uint8Array ? utf8.decode(record) : undefined
  const found = json === undefined ? undefined : citationsBySearch(json)
  if (found !== undefined) return found
  const fields =
    json === undefined
      ? (record as EntityRecord)
      : (JSON.parse(pickJsonMembers(json, CITATION_MEMBERS)) as EntityRecord)
  const references = Array.isArray(fields.referenced_works) ? fields.referenced_works : []
  return { id: shortIdOf(fields.id), cites: references.map(shortIdOf) }
}
