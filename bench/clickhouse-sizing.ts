// What a catalog loaded into ClickHouse takes, table group by table group (rows, bytes on disk, bytes
// uncompressed, the primary index and marks, which a server keeps in memory when the table is hot), read from `system.parts` of each catalog's served version;
// with two catalogs of different sizes, how each group grows per work and what the full snapshot would
// take at that growth.
//
//   npm run bench:clickhouse-sizing -- --clickhouse http://127.0.0.1:18123/c100k --clickhouse http://127.0.0.1:18123/c1m [--works 463000000]
import { parseArgs } from 'node:util'
import { connectClickHouse, readClickHouseTarget, servedVersion } from '@oqlkit/adapter-clickhouse'

const { values } = parseArgs({
  options: {
    clickhouse: { type: 'string', multiple: true },
    works: { type: 'string', default: '463000000' },
  },
})
const targets = (values.clickhouse ?? []).map(readClickHouseTarget)
if (targets.length === 0) throw new Error('--clickhouse URL is required (once per catalog, smallest first)')
const projectedWorks = Number(values.works)

/** The group a table's size is reported under. */
const groupOf = (table: string): string =>
  table === 'works__records'
    ? 'works records'
    : table.endsWith('__records')
      ? 'other records'
      : table === 'works'
        ? 'works table'
        : table.startsWith('link_')
          ? 'links'
          : table.startsWith('search_works__')
            ? 'works search index'
            : table.startsWith('search_')
              ? 'other search indexes'
              : table === 'work_vectors'
                ? 'vectors'
                : ['external_ids', 'merged_ids', 'deleted_ids'].includes(table)
                  ? 'ids'
                  : table === 'catalog_files'
                    ? 'model files'
                    : 'other entity tables'

interface Size {
  rows: number
  disk: number
  uncompressed: number
  primaryKey: number
}

const measured: { works: number; groups: Map<string, Size> }[] = []
for (const target of targets) {
  const client = connectClickHouse(target)
  const version = await servedVersion(client, target.catalog)
  if (version === undefined) throw new Error(`${target.catalog} has no loaded version`)
  const result = await client.query({
    query:
      'SELECT table, sum(rows) AS rows, sum(bytes_on_disk) AS disk, sum(data_uncompressed_bytes) AS uncompressed, sum(primary_key_size + marks_bytes) AS pk FROM system.parts WHERE database = {database:String} AND active GROUP BY table',
    query_params: { database: version.database },
    format: 'JSONEachRow',
  })
  const groups = new Map<string, Size>()
  for (const row of (await result.json()) as Record<string, string>[]) {
    const group = groupOf(row.table!)
    const size = groups.get(group) ?? { rows: 0, disk: 0, uncompressed: 0, primaryKey: 0 }
    size.rows += Number(row.rows)
    size.disk += Number(row.disk)
    size.uncompressed += Number(row.uncompressed)
    size.primaryKey += Number(row.pk)
    groups.set(group, size)
  }
  measured.push({ works: Number(version.entityRows.works ?? 0), groups })
  await client.close()
}

const mb = (bytes: number) => (bytes / 1e6).toFixed(1)
const gb = (bytes: number) => (bytes / 1e9).toFixed(0)
const names = [...new Set(measured.flatMap((catalog) => [...catalog.groups.keys()]))].sort()
const total = (catalog: (typeof measured)[number], key: keyof Size) =>
  [...catalog.groups.values()].reduce((sum, size) => sum + size[key], 0)
console.log(
  `| group | ${measured.map((catalog) => `${catalog.works.toLocaleString('en-US')} works: rows, MB on disk, MB uncompressed, MB index and marks`).join(' | ')}${measured.length > 1 ? ` | bytes per work (growth) | ${projectedWorks.toLocaleString('en-US')} works: GB on disk, GB index and marks` : ''} |`,
)
console.log(`|---|${measured.map(() => '---|').join('')}${measured.length > 1 ? '---|---|' : ''}`)
const first = measured[0]!
const last = measured.at(-1)!
const line = (name: string, of: (catalog: (typeof measured)[number], key: keyof Size) => number) => {
  const cells = measured.map(
    (catalog) =>
      `${of(catalog, 'rows').toLocaleString('en-US')}, ${mb(of(catalog, 'disk'))}, ${mb(of(catalog, 'uncompressed'))}, ${(of(catalog, 'primaryKey') / 1e6).toFixed(2)}`,
  )
  if (measured.length > 1) {
    const span = last.works - first.works
    const perWork = (key: keyof Size) => (of(last, key) - of(first, key)) / span
    const projected = (key: keyof Size) => of(last, key) + perWork(key) * (projectedWorks - last.works)
    cells.push(`${perWork('disk').toFixed(0)}`)
    cells.push(`${gb(projected('disk'))}, ${(projected('primaryKey') / 1e9).toFixed(2)}`)
  }
  console.log(`| ${name} | ${cells.join(' | ')} |`)
}
for (const name of names) line(name, (catalog, key) => catalog.groups.get(name)?.[key] ?? 0)
line('**all**', total)
