// Continents and the Global South: the country table covers every country of the vocabulary, and the filters
// and group-bys built on it agree with the same question answered in plain JavaScript over the sample's
// records (their institutions' country codes, looked up in the table).
import { readFileSync } from 'node:fs'
import { useSampleCatalogConnections } from '@oqlkit/adapter-duckdb/test-support'
import type { EntityRecord, QueryPlan } from '@oqlkit/engine'
import { planQuery } from '@oqlkit/engine'
import { readSampleRecords } from '@oqlkit/ingest/test-support'
import type { Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import {
  CONTINENT_IDS,
  COUNTRIES_BY_CONTINENT,
  continentOfCountry,
  GLOBAL_SOUTH_COUNTRIES,
  isGlobalSouthCountry,
} from '../src/layout/country-geography.ts'

const connections = useSampleCatalogConnections()
const vocabularyFile = new URL('../../oqo-schema/src/vocabularies/countries.json', import.meta.url)

const planOf = (oqo: Oqo): QueryPlan => {
  const planned = planQuery(oqo, { perPage: 1 })
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}
const countOf = async (oqo: Oqo): Promise<number> => (await connections.adapter.queryRows(planOf(oqo))).count

const institutionCountries = (work: EntityRecord): string[] =>
  ((work.authorships as { institutions?: { country_code?: string | null }[] }[] | undefined) ?? []).flatMap(
    (authorship) => (authorship.institutions ?? []).flatMap((institution) => institution.country_code ?? []),
  )

describe('the country → continent and Global South table', () => {
  it('puts every country of the countries vocabulary on exactly one continent', () => {
    const vocabulary = (JSON.parse(readFileSync(vocabularyFile, 'utf8')) as { id: string }[]).map(
      (country) => country.id.split('/').pop()!,
    )
    expect(vocabulary.length).toBeGreaterThan(240)
    for (const code of vocabulary) expect(continentOfCountry(code), code).toBeDefined()
    const listed = Object.values(COUNTRIES_BY_CONTINENT).flat()
    expect(new Set(listed).size).toBe(listed.length)
    for (const code of GLOBAL_SOUTH_COUNTRIES) expect(continentOfCountry(code), code).toBeDefined()
    expect([continentOfCountry('fr'), continentOfCountry('BR'), isGlobalSouthCountry('cn')]).toStrictEqual([
      CONTINENT_IDS.europe,
      CONTINENT_IDS.southAmerica,
      true,
    ])
    expect(isGlobalSouthCountry('DE')).toBe(false)
  })
})

describe('continent and Global South filters on the sample catalog', () => {
  const works = readSampleRecords('works')

  it('filters works by their institutions’ continent, in short and URL form', async () => {
    for (const continent of Object.values(CONTINENT_IDS)) {
      const expected = works.filter((work) =>
        institutionCountries(work).some((code) => continentOfCountry(code) === continent),
      ).length
      const filter = { column_id: 'authorships.institutions.continent', value: continent }
      expect(await countOf({ get_rows: 'works', filter_rows: [filter] }), continent).toBe(expected)
      const url = { ...filter, value: `https://openalex.org/continents/${continent}` }
      expect(await countOf({ get_rows: 'works', filter_rows: [url] })).toBe(expected)
    }
    expect(
      works.some((work) =>
        institutionCountries(work).some((code) => continentOfCountry(code) === CONTINENT_IDS.europe),
      ),
    ).toBe(true)
  })

  it('filters works with an institution in the Global South, and the complement', async () => {
    const south = works.filter((work) => institutionCountries(work).some(isGlobalSouthCountry)).length
    expect(south).toBeGreaterThan(0)
    const column_id = 'authorships.institutions.is_global_south'
    expect(await countOf({ get_rows: 'works', filter_rows: [{ column_id, value: true }] })).toBe(south)
    expect(await countOf({ get_rows: 'works', filter_rows: [{ column_id, value: false }] })).toBe(
      works.length - south,
    )
  })

  it('filters institutions by their own country’s continent and Global South membership', async () => {
    const institutions = readSampleRecords('institutions')
    const code = (record: EntityRecord) => String(record.country_code ?? '')
    expect(
      await countOf({
        get_rows: 'institutions',
        filter_rows: [{ column_id: 'continent', value: CONTINENT_IDS.asia }],
      }),
    ).toBe(institutions.filter((record) => continentOfCountry(code(record)) === CONTINENT_IDS.asia).length)
    expect(
      await countOf({
        get_rows: 'institutions',
        filter_rows: [{ column_id: 'is_global_south', value: true }],
      }),
    ).toBe(institutions.filter((record) => isGlobalSouthCountry(code(record))).length)
  })

  it('groups works by continent with full continent ids as keys', async () => {
    const planned = planQuery(
      {
        get_rows: 'works',
        filter_rows: [],
        group_by: [{ column_id: 'authorships.institutions.continent' }],
      } as Oqo,
      { perPage: 20 },
    )
    if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
    const groups = await connections.adapter.queryGroups(planned.plan)
    const expected = new Map<string, number>()
    for (const work of works)
      for (const continent of new Set(institutionCountries(work).map(continentOfCountry)))
        if (continent !== undefined)
          expected.set(
            `https://openalex.org/continents/${continent}`,
            (expected.get(`https://openalex.org/continents/${continent}`) ?? 0) + 1,
          )
    expect(new Map(groups.groups.map((group) => [group.keys[0], group.count]))).toStrictEqual(expected)
  })
})
