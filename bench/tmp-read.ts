import { readFileSync } from 'node:fs'
import { DuckDBInstance } from '@duckdb/node-api'
import { RecordStoreReader } from '../packages/catalog/src/records/record-store-reader.ts'
for (const dir of process.argv.slice(2)) {
  const db = await DuckDBInstance.create(`${dir}/catalog.duckdb`, { access_mode: 'READ_ONLY' })
  const c = await db.connect()
  const rows = (await c.runAndReadAll('select record_offset, record_bytes from works__locations using sample 4000 rows (reservoir, 7)')).getRowObjects()
  c.closeSync()
  const manifest = JSON.parse(readFileSync(`${dir}/catalog.json`, 'utf8'))
  const reader = new RecordStoreReader(dir, manifest)
  const locs = rows.map((r) => ({ offset: Number(r.record_offset), bytes: Number(r.record_bytes) }))
  for (let round = 0; round < 4; round++) {
    const s = performance.now()
    for (let i = 0; i < locs.length; i += 25) await reader.read('works', locs.slice(i, i + 25))
    if (round > 0) console.log(dir, (((performance.now() - s) * 1000) / locs.length).toFixed(1), 'µs per record')
  }
  await reader.close?.()
}
