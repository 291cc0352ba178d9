// The same snapshot in the 2026 Parquet layout, for the ingest benchmark's Parquet contender: every part file
// of a legacy-layout snapshot (the generator's) written by DuckDB as a Parquet part of
// `data/parquet/<entity>/updated_date=…/part_NNNN.parquet`, with the entity's `manifest.json` (files, sizes,
// record counts) as the 2026 snapshot states them. Every row of a part is read before its types are fixed
// (`sample_size = -1`) and dates stay text, so the row read back with `to_json` is the record again but for
// the keys a record lacks, which its row holds as null. Written once, untimed.
//
//   node --import tsx bench/parquet-layout-writer.ts LEGACY_SNAPSHOT_DIR OUT_DIR
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'

interface LegacyManifest {
  readonly entries: readonly { readonly url: string; readonly meta: { readonly record_count: number } }[]
}

const READ_OPTIONS =
  "format = 'newline_delimited', sample_size = -1, maximum_object_size = 134217728, hive_partitioning = false"
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`
/** A column type with its dates and timestamps (at any depth of a STRUCT or LIST) as VARCHAR. */
const asText = (type: string) => type.replace(/\b(DATE|TIMESTAMP(?: WITH TIME ZONE)?)\b/g, 'VARCHAR')

/** The folder holding the legacy layout's entity folders (`works/manifest`, …). */
const legacyRootOf = (snapshotDir: string): string => {
  const root = [snapshotDir, join(snapshotDir, 'data'), join(snapshotDir, 'legacy-data')].find((dir) =>
    existsSync(join(dir, 'works', 'manifest')),
  )
  if (root === undefined) throw new Error(`${snapshotDir}: no works/manifest of the legacy layout`)
  return root
}

/**
 * Writes the Parquet layout of `snapshotDir` under `outDir` (its root is `outDir/data/parquet`) unless
 * `outDir` already holds one; returns the root.
 */
export async function writeParquetLayout(
  snapshotDir: string,
  outDir: string,
  log: (line: string) => void = () => {},
): Promise<string> {
  const root = join(resolve(outDir), 'data', 'parquet')
  if (existsSync(join(root, 'works', 'manifest.json'))) return root
  const legacy = legacyRootOf(resolve(snapshotDir))
  const instance = await createDuckDbInstance()
  const connection = await instance.connect()
  try {
    for (const entity of readdirSync(legacy).sort()) {
      const manifestPath = join(legacy, entity, 'manifest')
      if (!existsSync(manifestPath)) continue
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as LegacyManifest
      const files: { url: string; meta: { content_length: number; record_count: number } }[] = []
      for (const entry of manifest.entries) {
        // `s3://…/data/<entity>/updated_date=…/part_000.gz` → `updated_date=…/part_0000.parquet`
        const [, partition, part] = /(updated_date=[^/]+)\/part_(\d+)\.gz$/.exec(entry.url) ?? []
        if (partition === undefined || part === undefined) throw new Error(`cannot place ${entry.url}`)
        const relative = `${entity}/${partition}/part_${part.padStart(4, '0')}.parquet`
        const target = join(root, ...relative.split('/'))
        mkdirSync(join(target, '..'), { recursive: true })
        const source = join(legacy, entity, partition, `part_${part}.gz`)
        // The JSON reader types ISO dates and timestamps as DATE or TIMESTAMP, which `to_json` would write
        // back in another form (or cut to the day): those columns stay text, the rest keep the types found.
        const described = await connection.runAndReadAll(
          `DESCRIBE SELECT * FROM read_json_auto($1, ${READ_OPTIONS})`,
          [source],
        )
        const columns = described
          .getRowObjectsJson()
          .map((row) => `${literal(String(row.column_name))}: ${literal(asText(String(row.column_type)))}`)
        await connection.run(
          `COPY (SELECT * FROM read_json($1, ${READ_OPTIONS}, columns = {${columns.join(', ')}})) TO $2 (FORMAT parquet, COMPRESSION zstd)`,
          [source, target],
        )
        files.push({
          url: `s3://openalex/data/parquet/${relative}`,
          meta: { content_length: statSync(target).size, record_count: entry.meta.record_count },
        })
      }
      const sum = (pick: (file: (typeof files)[number]) => number) =>
        files.reduce((total, file) => total + pick(file), 0)
      writeFileSync(
        join(root, entity, 'manifest.json'),
        `${JSON.stringify(
          {
            format: 'parquet',
            entity,
            record_count: sum((file) => file.meta.record_count),
            content_length: sum((file) => file.meta.content_length),
            files,
          },
          null,
          2,
        )}\n`,
      )
      log(`${entity}: ${files.length} Parquet part${files.length === 1 ? '' : 's'}`)
    }
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
  return root
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [snapshotDir, outDir] = process.argv.slice(2)
  if (snapshotDir === undefined || outDir === undefined) {
    console.error('usage: parquet-layout-writer.ts LEGACY_SNAPSHOT_DIR OUT_DIR')
    process.exit(2)
  }
  console.log(await writeParquetLayout(snapshotDir, outDir, console.log))
}
