// The bundled sample snapshot as fixture parts, and an update of it: a newer partition that revises 20 works
// (title, fewer authors and references, a new DOI for some), adds 3, renames 5 authors, and merges two works
// into a third. Shared by the tests that check an update against a full build of the same records.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { SAMPLE_SNAPSHOT_DIR } from '@oqlkit/snapshot'
import type { FixturePart } from './snapshot-fixtures.ts'

const sampleDir = SAMPLE_SNAPSHOT_DIR
/** Newer than every partition of the sample. */
export const UPDATE_PARTITION = '2026-06-01'

export type Json = Record<string, unknown>

/** The sample's parts as they are (each line's text kept), and its merged-id files. */
export function readSample(): { parts: FixturePart[]; merged: Record<string, Record<string, string>> } {
  const parts: FixturePart[] = []
  const merged: Record<string, Record<string, string>> = {}
  for (const entity of readdirSync(sampleDir, { withFileTypes: true })) {
    if (!entity.isDirectory()) continue
    const entityDir = join(sampleDir, entity.name)
    if (entity.name === 'merged_ids') {
      for (const mergedEntity of readdirSync(entityDir))
        merged[mergedEntity] = Object.fromEntries(
          readdirSync(join(entityDir, mergedEntity)).map((file) => [
            file,
            readFileSync(join(entityDir, mergedEntity, file), 'utf8'),
          ]),
        )
      continue
    }
    for (const partition of readdirSync(entityDir)
      .filter((name) => name.startsWith('updated_date='))
      .sort())
      for (const file of readdirSync(join(entityDir, partition)).sort()) {
        const lines = gunzipSync(readFileSync(join(entityDir, partition, file)))
          .toString('utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
        parts.push({
          entity: entity.name,
          partition: partition.slice('updated_date='.length),
          content: lines,
        })
      }
  }
  return { parts, merged }
}

export const recordsOf = (parts: readonly FixturePart[], entity: string): Json[] =>
  parts
    .filter((part) => part.entity === entity)
    .flatMap((part) => (part.content as string[]).map((line) => JSON.parse(line) as Json))

/** A newer partition: 20 works revised (title, fewer authors and references, a new DOI for some), 3 new works, 5 authors renamed. */
export function updateParts(
  sample: readonly FixturePart[],
  /** The id of the `at`th new work (default `W900000000<at + 1>`, which sorts among the sample's ids). */
  newWorkId: (at: number) => string = (at) => `W900000000${at + 1}`,
): FixturePart[] {
  const works = recordsOf(sample, 'works')
  const revised = works.slice(0, 20).map((work, at) => ({
    ...work,
    title: `${String(work.title)} (revised)`,
    display_name: `${String(work.display_name)} (revised)`,
    authorships: (work.authorships as unknown[] | undefined)?.slice(0, 1) ?? [],
    referenced_works: (work.referenced_works as unknown[] | undefined)?.slice(0, 2) ?? [],
    ...(at % 4 === 0 ? { doi: `https://doi.org/10.9999/revised.${at}` } : {}),
    updated_date: `${UPDATE_PARTITION}T08:00:00.000000`,
  }))
  const added = works.slice(20, 23).map((work, at) => {
    const id = `https://openalex.org/${newWorkId(at)}`
    return {
      ...work,
      id,
      ids: { ...(work.ids as Json), openalex: id },
      doi: `https://doi.org/10.9999/new.${at}`,
      updated_date: `${UPDATE_PARTITION}T09:00:00.000000`,
    }
  })
  const authors = recordsOf(sample, 'authors')
    .slice(0, 5)
    .map((author) => ({
      ...author,
      display_name: `${String(author.display_name)} (renamed)`,
      updated_date: `${UPDATE_PARTITION}T10:00:00.000000`,
    }))
  return [
    {
      entity: 'works',
      partition: UPDATE_PARTITION,
      content: [...revised, ...added].map((r) => JSON.stringify(r)),
    },
    { entity: 'authors', partition: UPDATE_PARTITION, content: authors.map((r) => JSON.stringify(r)) },
  ]
}

/** Two works of the sample merged into a third in the update. */
export function updateMerges(sample: readonly FixturePart[]): Record<string, Record<string, string>> {
  const [into, first, second] = [0, 30, 31].map((at) =>
    String(recordsOf(sample, 'works')[at]!.id).replace('https://openalex.org/', ''),
  )
  return {
    works: {
      [`${UPDATE_PARTITION}.csv`]: `merge_date,id,merge_into_id\n${UPDATE_PARTITION},${first},${into}\n${UPDATE_PARTITION},${second},${into}\n`,
    },
  }
}
