// The version of the data a server answers from, named in every answer so that a result can be cited and the
// query repeated on the same data: `meta.data_version` where an answer has `meta`, and the `Data-Version` header
// on every response (a single entity's answer is the record itself).
import type { H3Event } from 'h3'
import { withEditedHeaders } from '../server/byte-responses.ts'

export interface DataVersion {
  /** The name the server gives the catalog (`default` unless it serves several). */
  readonly name: string
  /** The newest `updated_date` of the snapshots the catalog was built from (`YYYY-MM-DD`), or null. */
  readonly snapshotDate: string | null
  /** A fingerprint of the snapshots' manifests (`catalogVersionOf`): the same data, the same fingerprint. */
  readonly fingerprint: string
}

export const DATA_VERSION_HEADER = 'data-version'

/** `meta.data_version` of an answer. */
export const dataVersionJson = (version: DataVersion) => ({
  name: version.name,
  snapshot_date: version.snapshotDate,
  fingerprint: version.fingerprint,
})

/** The header's value: `default; snapshot_date=2025-01-20; fingerprint=3f9a1c2e4b5d`. */
export const dataVersionHeader = (version: DataVersion): string =>
  `${version.name}; snapshot_date=${version.snapshotDate ?? 'unknown'}; fingerprint=${version.fingerprint}`

const versions = new WeakMap<H3Event, DataVersion>()

/**
 * Marks the request as answered from `version`: its answer, an error's too, carries the header. h3 adds the
 * headers set here to an answer below 400 and those of `errHeaders` to a returned error; a thrown one gets it
 * from the app's error hook (`withDataVersionHeader`).
 */
export const setDataVersion = (event: H3Event, version: DataVersion): void => {
  versions.set(event, version)
  const value = dataVersionHeader(version)
  event.res.headers.set(DATA_VERSION_HEADER, value)
  event.res.errHeaders.set(DATA_VERSION_HEADER, value)
}

/** The error response with the request's data version header (for the app's error hook). */
export const withDataVersionHeader = (response: Response, event: H3Event | undefined): Response => {
  const version = event === undefined ? undefined : versions.get(event)
  return version === undefined
    ? response
    : withEditedHeaders(response, (headers) => headers.set(DATA_VERSION_HEADER, dataVersionHeader(version)))
}

/** `{data_version}` to spread into an answer's `meta`: empty when the app was given no version. */
export const dataVersionMeta = (event: H3Event): { data_version?: ReturnType<typeof dataVersionJson> } => {
  const version = versions.get(event)
  return version === undefined ? {} : { data_version: dataVersionJson(version) }
}

/** `{dataVersion}` to spread into an envelope's facts: empty when the app was given no version. */
export const versionFact = (event: H3Event): { dataVersion?: DataVersion } => {
  const version = versions.get(event)
  return version === undefined ? {} : { dataVersion: version }
}
