// The version of a catalog's data, as answers name it so that a query can be cited and repeated: the date of the
// newest snapshot it was built from and a fingerprint of every snapshot's manifests, in the order they were
// ingested. Two catalogs built from the same snapshots have the same version wherever they were built; an update
// makes a new one.
import { createHash } from 'node:crypto'
import type { CatalogManifest } from './catalog-layout.ts'

export interface CatalogVersion {
  /** The newest `updated_date` the catalog's snapshots hold (`YYYY-MM-DD`), or null when none says. */
  readonly snapshotDate: string | null
  /** 12 hex digits of SHA-256 over the ingests' manifest digests. */
  readonly fingerprint: string
}

const FINGERPRINT_DIGITS = 12

/**
 * The catalog's version. An ingest recorded before the snapshot was (no `snapshot`) counts by when it ran and
 * what it read, so such a catalog still gets a version, stable until it is updated.
 */
export function catalogVersionOf(manifest: CatalogManifest): CatalogVersion {
  const hash = createHash('sha256')
  let snapshotDate: string | null = null
  for (const ingest of manifest.ingests) {
    const { snapshot } = ingest
    hash.update(
      snapshot === undefined
        ? `ingest:${ingest.at}:${ingest.snapshotDir}:${ingest.recordsRead}\n`
        : `${snapshot.manifestsDigest}\n`,
    )
    const date = snapshot?.date ?? null
    if (date !== null && (snapshotDate === null || date > snapshotDate)) snapshotDate = date
  }
  return { snapshotDate, fingerprint: hash.digest('hex').slice(0, FINGERPRINT_DIGITS) }
}
