// Builds the bundled sample snapshot (this package's `sample-snapshot/`) from the shared OpenAlex
// sample and prints what it wrote. Rerunnable: the output is replaced and byte-identical for the same inputs.
//
//   npm run build:sample -w @oqlkit/snapshot [-- --source <dir>] [-- --out <dir>]
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { buildSampleSnapshot, SAMPLE_SNAPSHOT_DIR, type SampleSnapshotSummary } from '../src/index.ts'

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url))

const { values } = parseArgs({
  options: { source: { type: 'string' }, out: { type: 'string' } },
  allowPositionals: false,
})
const sourceDir = resolve(
  values.source ??
    process.env.OQLKIT_SAMPLE_SOURCE ??
    resolve(repoRoot, '..', 'shared', 'data', 'openalex-sample'),
)
const outDir = resolve(values.out ?? SAMPLE_SNAPSHOT_DIR)

const started = performance.now()
const summary = buildSampleSnapshot({ sourceDir, outDir })
printSummary(summary)
console.log(`\nwrote ${outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`)

function printSummary(summary: SampleSnapshotSummary): void {
  const header = ['entity', 'real', 'real (unref.)', 'derived', 'vocabulary', 'total', 'parts', 'bytes']
  const rows: Array<Array<string | number>> = summary.entities.map((e) => [
    e.entity,
    e.realReferenced,
    e.realUnreferenced,
    e.derived,
    e.vocabulary,
    e.total,
    e.parts,
    e.bytes,
  ])
  const sum = (index: number): number => rows.reduce((total, row) => total + Number(row[index]), 0)
  rows.push(['all', sum(1), sum(2), sum(3), sum(4), sum(5), sum(6), sum(7)])
  const cells = [header, ...rows].map((row) => row.map(String))
  const widths = header.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)))
  for (const row of cells) {
    console.log(
      row
        .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
        .join('  '),
    )
  }
  console.log(`\nas of ${summary.asOf}; ${(summary.totalBytes / 1024 / 1024).toFixed(2)} MiB of part files`)
  console.log(`merged ids: ${summary.mergedIdsFiles.join(', ')}`)
  console.log(`derived records without a display_name: ${JSON.stringify(summary.derivedWithoutName)}`)
  console.log(
    `ids referenced by real non-work records, not in the snapshot: ${JSON.stringify(summary.danglingFromRealRecords)}`,
  )
  console.log(
    `values outside the vocabularies: ${summary.outOfVocabulary.map((v) => `${v.id} (${v.works})`).join(', ') || 'none'}`,
  )
  console.log(
    `subfields without field: ${summary.subfieldsWithoutField}, fields without domain: ${summary.fieldsWithoutDomain}, hierarchy conflicts: ${summary.hierarchyConflicts}`,
  )
}
