// Collects what the real records say about other entities: the objects they embed (`authorships[].author`,
// `primary_location.source`, `topics[]`, `x_concepts[]`, ...) and the id/name pairs they carry side by side
// (`host_organization` + `host_organization_name`, `grants[].funder` + `funder_display_name`, ...). These
// observations are the only material a derived record is built from.
import {
  classifyOpenAlexId,
  compareOpenAlexIds,
  isDerivable,
  isJsonObject,
  type JsonObject,
  type JsonValue,
} from './openalex-id-classifier.ts'
import type { RealRecord } from './sample-source-reader.ts'

export interface Observation {
  /** The embedded object, or the fields read from an id/name pair. */
  readonly values: JsonObject
  /** `updated_date` of the record that embeds it. */
  readonly date: string
  /** Id of the record that embeds it. */
  readonly containerId: string
  /** Position in the walk, for a total order. */
  readonly order: number
}

// Parallel arrays of ids and names, as sources carry them.
const LINEAGE_NAME_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['host_organization_lineage', 'host_organization_lineage_names'],
  ['publisher_lineage', 'publisher_lineage_names'],
  ['host_institution_lineage', 'host_institution_lineage_names'],
]

// Single id/name pairs.
const ID_NAME_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['host_organization', 'host_organization_name'],
  ['publisher_id', 'publisher'],
  ['funder', 'funder_display_name'],
  ['funder_id', 'funder_display_name'],
]

export class ObservationIndex {
  readonly #byId = new Map<string, Observation[]>()
  #order = 0
  #sorted = false

  /** Adds the observations found in these real records. */
  collect(records: Iterable<RealRecord>): void {
    for (const real of records) {
      const date = real.record.updated_date as string
      this.#walk(real.record, date, real.id, true)
    }
  }

  /** All observations of an id, newest container first. */
  observationsOf(id: string): readonly Observation[] {
    if (!this.#sorted) {
      for (const list of this.#byId.values()) list.sort(compareObservations)
      this.#sorted = true
    }
    return this.#byId.get(id) ?? []
  }

  /**
   * For each key, the value from the newest observation that has the key (a `null` there wins over an older
   * non-null value: it is what the API said most recently). Keys no observation has are left out.
   */
  latestFields(id: string, keys: readonly string[]): JsonObject {
    const out: JsonObject = {}
    const observations = this.observationsOf(id)
    for (const key of keys) {
      for (const observation of observations) {
        const value = observation.values[key]
        if (value !== undefined) {
          out[key] = value
          break
        }
      }
    }
    return out
  }

  #add(id: string, values: JsonObject, date: string, containerId: string): void {
    const entity = classifyOpenAlexId(id)
    if (entity === undefined || !isDerivable(entity)) return
    const list = this.#byId.get(id)
    const observation = { values, date, containerId, order: this.#order++ }
    if (list) list.push(observation)
    else this.#byId.set(id, [observation])
    this.#sorted = false
  }

  #walk(value: JsonValue, date: string, containerId: string, isTop: boolean): void {
    if (Array.isArray(value)) {
      for (const item of value) this.#walk(item, date, containerId, false)
      return
    }
    if (!isJsonObject(value)) return
    if (!isTop && typeof value.id === 'string') this.#add(value.id, value, date, containerId)
    for (const [idKey, nameKey] of ID_NAME_PAIRS) {
      const id = value[idKey]
      const name = value[nameKey]
      if (typeof id === 'string' && typeof name === 'string') {
        this.#add(id, { display_name: name }, date, containerId)
      }
    }
    for (const [idsKey, namesKey] of LINEAGE_NAME_PAIRS) {
      const ids = value[idsKey]
      const names = value[namesKey]
      if (!Array.isArray(ids) || !Array.isArray(names) || ids.length !== names.length) continue
      ids.forEach((id, index) => {
        const name = names[index]
        if (typeof id === 'string' && typeof name === 'string') {
          this.#add(id, { display_name: name }, date, containerId)
        }
      })
    }
    for (const child of Object.values(value)) this.#walk(child, date, containerId, false)
  }
}

function compareObservations(a: Observation, b: Observation): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1
  const byContainer = compareOpenAlexIds(a.containerId, b.containerId)
  return byContainer !== 0 ? byContainer : a.order - b.order
}

/**
 * Every OpenAlex id a record mentions, other than its own, in first-seen order. Strings only count when the
 * whole string is an id URL (`https://openalex.org/…`), so API URLs and DOIs are never taken for references.
 */
export function collectReferencedIds(record: JsonObject): string[] {
  const own = record.id
  const seen = new Set<string>()
  const visit = (value: JsonValue): void => {
    if (typeof value === 'string') {
      if (value !== own && classifyOpenAlexId(value) !== undefined) seen.add(value)
    } else if (Array.isArray(value)) {
      for (const item of value) visit(item)
    } else if (isJsonObject(value)) {
      for (const child of Object.values(value)) visit(child)
    }
  }
  visit(record)
  return [...seen]
}
