// Searches on text the index does not hold (works' raw affiliation strings) scan the records: every word of
// the query among the field's tokens. Checked against the same rule in JavaScript over the sample's records.
import type { EntityRecord } from '@oqlkit/engine'
import { planQuery } from '@oqlkit/engine'
import { canonicalizeOqo } from '@oqlkit/oqo-schema'
import { exactTokens } from '@oqlkit/text-models'
import { describe, expect, it } from 'vitest'
import { readSampleRecords, useSampleCatalogConnections } from './query-sample-fixture.ts'

const connections = useSampleCatalogConnections()

const affiliationTokens = (work: EntityRecord): Set<string> =>
  new Set(
    exactTokens(
      ((work.authorships as { raw_affiliation_strings?: string[] }[] | undefined) ?? [])
        .flatMap((authorship) => authorship.raw_affiliation_strings ?? [])
        .join(' '),
    ),
  )

describe('raw_affiliation_strings.search', () => {
  it('finds the works whose affiliation strings hold every word, whatever the case', async () => {
    const works = readSampleRecords('works')
    for (const text of ['Harvard', 'university of california', 'DEPARTMENT physics', 'zzzz nowhere']) {
      const planned = planQuery(
        canonicalizeOqo({
          get_rows: 'works',
          filter_rows: [{ column_id: 'raw_affiliation_strings.search', value: text, operator: 'has' }],
        }),
        { perPage: 100 },
      )
      if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
      const result = await connections.adapter.queryRows(planned.plan)
      const words = exactTokens(text)
      const expected = works.filter((work) => {
        const tokens = affiliationTokens(work)
        return words.every((word) => tokens.has(word))
      })
      expect(result.count, text).toBe(expected.length)
      const expectedIds = new Set(expected.map((work) => work.id))
      for (const row of result.rows) expect(expectedIds.has(row.id), `${text}: ${String(row.id)}`).toBe(true)
      expect(result.rows.length).toBe(Math.min(100, expected.length))
    }
  })
})
