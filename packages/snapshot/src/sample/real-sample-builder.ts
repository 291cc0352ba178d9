// Builds the bundled real-text sample (`real-sample-snapshot/`): the 4,431 real works of five systematic
// reviews (SYNERGY, CC0; `shared/data/real-works`), without the `_review` field each carries for the
// measurements, as a works-only snapshot in the legacy layout. Real titles and abstracts of five topical
// neighbourhoods: what search and semantic search can be tried on, which the generated snapshots (no topical
// structure) and the small sample (a few hundred unrelated works) do not give.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { type SnapshotLine, type WrittenEntity, writeEntity } from './legacy-snapshot-writer.ts'

/** Records per part file: more than any one `updated_date` partition of these works holds, so one part each. */
const REAL_RECORDS_PER_PART = 2500

/** Fields of the source records that are not OpenAlex's: what the measurements label them with. */
const MEASUREMENT_FIELDS = ['_review']

export interface BuildRealSampleOptions {
  /** The real works, one JSON record a line, gzipped (`shared/data/real-works/works.jsonl.gz`). */
  readonly sourceFile: string
  readonly outDir: string
}

/** Writes the works of the real sample into `outDir` (replacing its `works/`), byte for byte the same each run. */
export function buildRealSampleSnapshot(options: BuildRealSampleOptions): WrittenEntity {
  const lines: SnapshotLine[] = []
  for (const text of gunzipSync(readFileSync(options.sourceFile)).toString('utf8').split('\n')) {
    if (text.trim() === '') continue
    const record = JSON.parse(text) as Record<string, unknown>
    for (const field of MEASUREMENT_FIELDS) delete record[field]
    lines.push({
      id: String(record.id),
      updatedDate: String(record.updated_date),
      line: JSON.stringify(record),
    })
  }
  return writeEntity(options.outDir, 'works', lines, { recordsPerPart: REAL_RECORDS_PER_PART })
}
