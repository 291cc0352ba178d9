// What an ingest records of the data it read (`CatalogIngestRecord.snapshot`): the newest partition's date and a
// digest of the manifests that name its parts, from which the catalog's version is made (`catalogVersionOf`).
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { relative, sep } from 'node:path'
import type { SnapshotVersionRecord } from '@oqlkit/catalog'
import type { SnapshotPlan } from './snapshot-plan.ts'

export async function snapshotVersionOf(plan: SnapshotPlan): Promise<SnapshotVersionRecord> {
  let date: string | null = null
  for (const part of plan.parts)
    if (part.partitionDate !== null && (date === null || part.partitionDate > date)) date = part.partitionDate
  // Each manifest once (a combined manifest names every entity's parts), by its path from the layout's root,
  // so the same snapshot gives the same digest wherever it lies.
  const manifests = [...new Set(plan.parts.map((part) => part.manifestPath))]
    .map((path) => ({ path, name: relative(plan.root, path).split(sep).join('/') }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const hash = createHash('sha256')
  for (const { path, name } of manifests) {
    hash.update(`${name}\0`)
    hash.update(await readFile(path))
    hash.update('\0')
  }
  return { date, manifestsDigest: hash.digest('hex') }
}
