// The README's "Querying a catalog from DuckDB" recipe, run as written on the sample catalog: every statement
// runs, and its answers agree with the sample's records read from the snapshot files.
import { readFileSync } from 'node:fs'
import { openDuckDbDatabase } from '@oqlkit/adapter-duckdb'
import { coreWorks } from '@oqlkit/http/test-support'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { beforeAll, expect, it } from 'vitest'

let catalogDir: string
beforeAll(async () => {
  catalogDir = await sharedSampleCatalog()
}, 240_000)

/** The SQL block of the README's DuckDB section, one statement a line. */
const recipe = (): string[] => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8')
  const section = readme.slice(readme.indexOf('### Querying a catalog from DuckDB'))
  const block = section.slice(
    section.indexOf('```sql\n') + 7,
    section.indexOf('```\n', section.indexOf('```sql')),
  )
  return block
    .split(';')
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '')
}

const countBy = <T>(values: readonly T[]): Map<T, number> => {
  const counts = new Map<T, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return counts
}

it("runs the README's DuckDB recipe on the sample catalog, with the records' answers", async () => {
  const statements = recipe()
  expect(statements.length).toBe(8)
  // The recipe is run from the folder that holds `.catalog`: here, its paths name the test's catalog.
  const db = await openDuckDbDatabase({ connections: 1 })
  try {
    const answers = []
    for (const statement of statements)
      answers.push(await db.all(statement.replaceAll("'.catalog/", `'${catalogDir}/`)))
    const works = coreWorks()
    const byYear = countBy(works.map((work) => work.publication_year as number))
    const years = [...byYear.keys()].sort((a, b) => b - a).slice(0, 3)
    expect(answers[4]).toEqual(years.map((year) => ({ publication_year: year, works: byYear.get(year) })))
    expect(answers[5]!.length).toBe(3)
    expect(Number(answers[5]![0]!.works)).toBeGreaterThan(1)
    const types2020 = countBy(works.filter((work) => work.publication_year === 2020).map((work) => work.type))
    for (const row of answers[6]!) expect(row.works).toBe(types2020.get(String(row.type)))
    expect(answers[7]!.length).toBe(2)
    expect(answers[7]![0]).toMatchObject({ entity: 'works', scheme: 'doi' })
  } finally {
    await db.close()
  }
})
