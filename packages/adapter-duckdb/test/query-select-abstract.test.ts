// A page's `select` and a work's abstract: the records of a page whose selection leaves the abstract out are
// read without unpacking it (the store packs abstracts as words), and a selection that keeps it gives the
// abstract the whole record has, word for word.
import { planQuery } from '@oqlkit/engine'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDuckDbAdapter, type DuckDbAdapter } from '../src/query/duckdb-adapter.ts'

let adapter: DuckDbAdapter

beforeAll(async () => {
  adapter = await createDuckDbAdapter({ catalogDir: await sharedSampleCatalog() })
}, 240_000)
afterAll(async () => {
  await adapter?.close()
})

/** The first 100 works by publication date (then id), with `select` when given. */
const works = async (select?: string[]) => {
  const planned = planQuery(
    { get_rows: 'works' },
    {
      sort: [{ field: 'publication_date', direction: 'asc' }],
      perPage: 100,
      ...(select === undefined ? {} : { select }),
    },
  )
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return (await adapter.queryRows(planned.plan)).rows
}

describe('a list of works with a select', () => {
  it('keeps the abstract the whole record has when the selection names it', async () => {
    const whole = await works()
    const selected = await works(['id', 'abstract_inverted_index'])
    expect(selected.map((row) => Object.keys(row).sort())).toEqual(
      whole.map(() => ['abstract_inverted_index', 'id']),
    )
    expect(selected).toEqual(
      whole.map((row) => ({ id: row.id, abstract_inverted_index: row.abstract_inverted_index })),
    )
    // The sample's works have abstracts: the comparison is of some, not of nulls alone.
    expect(selected.filter((row) => row.abstract_inverted_index !== null).length).toBeGreaterThan(10)
  })

  it('gives the other fields as the whole record has them when the selection leaves the abstract out', async () => {
    const whole = await works()
    const selected = await works(['id', 'title', 'publication_year'])
    expect(selected).toEqual(
      whole.map((row) => ({ id: row.id, title: row.title, publication_year: row.publication_year })),
    )
  })
})
