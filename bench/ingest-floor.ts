// The floor of the ingest benchmark, run as a child process of its own: DuckDB reading the snapshot's works
// the way DuckDB would on its own (`read_json_auto` over the gzipped part files, into a table), then writing
// them out as one parquet file. Prints the number of rows read, for the benchmark to check.
//
//   node --import tsx bench/ingest-floor.ts '<root>/works/updated_date=*/part_*.gz' OUT.parquet TEMP_DIR
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'

const [glob, parquet, tempDir] = process.argv.slice(2)
if (glob === undefined || parquet === undefined || tempDir === undefined) {
  console.error('usage: ingest-floor.ts GLOB OUT.parquet TEMP_DIR')
  process.exit(2)
}
const quote = (text: string) => `'${text.replaceAll("'", "''")}'`

mkdirSync(dirname(parquet), { recursive: true })
const instance = await createDuckDbInstance()
const connection = await instance.connect()
// Spills go beside the output, not into the working folder.
await connection.run(`SET temp_directory = ${quote(tempDir)}`)
await connection.run(`CREATE TABLE w AS SELECT * FROM read_json_auto(${quote(glob)})`)
await connection.run(`COPY w TO ${quote(parquet)} (FORMAT parquet)`)
const rows = (await connection.runAndReadAll('SELECT count(*)::INTEGER AS n FROM w')).getRowObjects()[0]!.n
console.log(JSON.stringify({ rows }))
connection.closeSync()
instance.closeSync()
