// Lists and the classic filter value grammar, on several entity types, against counts and id sets computed
// from the sample records: `,` AND, `|` OR, leading `!`, `>`/`<`, ranges, `null`, from/to dates, id
// normalisation of URL and short forms, quoted values with commas, the ID-list filter and its aliases.
import { describe, expect, it } from 'vitest'
import { useContractApp } from './support/contract-app.ts'
import { getAllByCursor, getCount, getList, resultIds } from './support/contract-http.ts'
import {
  ENTITY_PATHS,
  idKey,
  idSet,
  normalizeExternal,
  records,
  type SampleRecord,
  shortId,
  valueFrequencies,
  valuesAt,
  where,
} from './support/sample-oracle.ts'

const context = useContractApp()

const q = (filter: string) => encodeURIComponent(filter)

const has = (record: SampleRecord, path: string, value: string) =>
  valuesAt(record, path).some((stated) => idKey(stated) === idKey(value))

/** The id set of a filter: every page by cursor, compared with the records the predicate keeps. */
async function expectSameIds(entity: string, filter: string, predicate: (record: SampleRecord) => boolean) {
  const expected = idSet(where(entity, predicate))
  const { results, pages } = await getAllByCursor(context.app, `/${entity}?filter=${q(filter)}`)
  expect(pages[0]!.meta.count, `${entity} ${filter}: meta.count`).toBe(expected.length)
  expect(resultIds(results), `${entity} ${filter}: ids`).toEqual(expected)
}

/** Most frequent stated value at a path (short form). */
const top = (entity: string, path: string, rank = 0): string => {
  const entry = valueFrequencies(records(entity), path)[rank]
  if (!entry) throw new Error(`no ${entity} value at ${path}`)
  return shortId(entry[0])
}

describe('the list envelope', () => {
  it('has meta, results, and the defaults (page 1, per_page 25)', async () => {
    const body = await getList(context.app, '/works')
    const total = records('works').length
    expect(body.meta.count).toBe(total)
    expect(body.meta.page).toBe(1)
    expect(body.meta.per_page).toBe(25)
    expect(body.meta.groups_count).toBeNull()
    expect(Number.isInteger(body.meta.db_response_time_ms)).toBe(true)
    expect(typeof body.meta.cost_usd).toBe('number')
    expect(body.meta.x_query).toBeTypeOf('object')
    expect(typeof body.meta.x_query.oql).toBe('string')
    expect(body.meta.x_query.oqo).toBeTypeOf('object')
    expect(body.meta.x_query.url === null || typeof body.meta.x_query.url === 'string').toBe(true)
    expect(body.results).toHaveLength(25)
    // every result is a served record, with its full id URL
    for (const result of body.results) {
      expect(String(result.id)).toMatch(/^https:\/\/openalex\.org\/W\d+$/)
      expect(idSet(records('works'))).toContain(shortId(result.id).toUpperCase())
    }
  })

  it('x_query is present on a filtered list too', async () => {
    const body = await getList(context.app, `/works?filter=${q('publication_year:2020')}`)
    expect(typeof body.meta.x_query.oql).toBe('string')
    expect(body.meta.x_query.oqo).toBeTypeOf('object')
  })

  it.each(ENTITY_PATHS)('/%s lists every served record', async (entity) => {
    const body = await getList(context.app, `/${entity}?per_page=100`)
    expect(body.meta.count).toBe(records(entity).length)
    expect(body.results.length).toBe(Math.min(100, records(entity).length))
    const all = idSet(records(entity))
    for (const id of resultIds(body.results)) expect(all).toContain(id)
  })

  it.each(['work-types', 'countries', 'topics'])(
    '/%s by cursor returns exactly the records',
    async (entity) => {
      const { results } = await getAllByCursor(context.app, `/${entity}`)
      expect(resultIds(results)).toEqual(idSet(records(entity)))
    },
  )

  it('accepts api_key and answers the same list', async () => {
    const plain = await getList(context.app, '/authors?per_page=5')
    const keyed = await getList(context.app, '/authors?per_page=5&api_key=some-key')
    expect(keyed.meta.count).toBe(plain.meta.count)
  })
})

describe('works: value grammar', () => {
  const author = () => top('works', 'authorships.author.id')
  const institution = () => top('works', 'authorships.institutions.id')

  it('an author id in short, lower-case and URL form', async () => {
    const id = author()
    const predicate = (w: SampleRecord) => has(w, 'authorships.author.id', id)
    expect(where('works', predicate).length).toBeGreaterThan(1)
    await expectSameIds('works', `authorships.author.id:${id}`, predicate)
    await expectSameIds('works', `authorships.author.id:${id.toLowerCase()}`, predicate)
    await expectSameIds('works', `authorships.author.id:https://openalex.org/${id}`, predicate)
    await expectSameIds('works', `author.id:${id}`, predicate)
  })

  it('an institution id, and its alias institutions.id', async () => {
    const id = institution()
    const predicate = (w: SampleRecord) => has(w, 'authorships.institutions.id', id)
    await expectSameIds('works', `authorships.institutions.id:${id}`, predicate)
    await expectSameIds('works', `institutions.id:https://openalex.org/${id}`, predicate)
  })

  it('a source id and a topic id', async () => {
    const source = top('works', 'primary_location.source.id')
    await expectSameIds('works', `primary_location.source.id:${source}`, (w) =>
      has(w, 'primary_location.source.id', source),
    )
    const topic = top('works', 'primary_topic.id')
    await expectSameIds('works', `primary_topic.id:${topic}`, (w) => has(w, 'primary_topic.id', topic))
  })

  it('a number, > and <, an inclusive range, and its negation', async () => {
    const year = (w: SampleRecord) => w.publication_year as number
    await expectSameIds('works', 'publication_year:2020', (w) => year(w) === 2020)
    await expectSameIds('works', 'publication_year:>2020', (w) => year(w) > 2020)
    await expectSameIds('works', 'publication_year:<1990', (w) => year(w) < 1990)
    await expectSameIds('works', 'publication_year:2000-2005', (w) => year(w) >= 2000 && year(w) <= 2005)
    await expectSameIds('works', 'publication_year:!2020', (w) => year(w) !== 2020)
    await expectSameIds('works', 'cited_by_count:>100', (w) => (w.cited_by_count as number) > 100)
  })

  it('`,` is AND, a repeated key is AND, and `|` is OR', async () => {
    const oa = (w: SampleRecord) => (w.open_access as { is_oa: boolean }).is_oa
    await expectSameIds(
      'works',
      'publication_year:2020,open_access.is_oa:true',
      (w) => w.publication_year === 2020 && oa(w),
    )
    await expectSameIds(
      'works',
      'type:book|book-chapter',
      (w) => w.type === 'book' || w.type === 'book-chapter',
    )
    const [a, b] = [top('works', 'authorships.author.id', 0), top('works', 'authorships.author.id', 1)]
    await expectSameIds(
      'works',
      `authorships.author.id:${a}|${b}`,
      (w) => has(w, 'authorships.author.id', a) || has(w, 'authorships.author.id', b),
    )
    await expectSameIds(
      'works',
      'authorships.countries:US,authorships.countries:GB',
      (w) => has(w, 'authorships.countries', 'US') && has(w, 'authorships.countries', 'GB'),
    )
  })

  it('a leading ! negates a value, and a whole OR list', async () => {
    await expectSameIds('works', 'type:!article', (w) => w.type !== 'article')
    await expectSameIds('works', 'type:!article|book', (w) => w.type !== 'article' && w.type !== 'book')
    await expectSameIds(
      'works',
      'primary_location.source.type:!journal',
      (w) => !has(w, 'primary_location.source.type', 'journal'),
    )
  })

  it('null and !null', async () => {
    const licensed = (w: SampleRecord) => valuesAt(w, 'primary_location.license').length > 0
    await expectSameIds('works', 'primary_location.license:null', (w) => !licensed(w))
    await expectSameIds('works', 'primary_location.license:!null', licensed)
    await expectSameIds('works', 'language:null', (w) => valuesAt(w, 'language').length === 0)
  })

  it('from/to dates, and > < on a date', async () => {
    const date = (w: SampleRecord) => String(w.publication_date)
    await expectSameIds('works', 'from_publication_date:2020-01-01', (w) => date(w) >= '2020-01-01')
    await expectSameIds('works', 'to_publication_date:1999-12-31', (w) => date(w) <= '1999-12-31')
    await expectSameIds(
      'works',
      'from_publication_date:2005-01-01,to_publication_date:2009-12-31',
      (w) => date(w) >= '2005-01-01' && date(w) <= '2009-12-31',
    )
    await expectSameIds('works', 'publication_date:>2020-06-30', (w) => date(w) > '2020-06-30')
    await expectSameIds('works', 'publication_date:<1990-01-01', (w) => date(w) < '1990-01-01')
    const created = (w: SampleRecord) => String(w.created_date ?? '')
    await expectSameIds('works', 'from_created_date:2024-01-01', (w) => created(w) >= '2024-01-01')
  })

  it('a DOI in bare, URL and upper-case form', async () => {
    const work = where('works', (w) => typeof w.doi === 'string').sort((a, b) =>
      String(a.id).localeCompare(String(b.id)),
    )[0]!
    const doi = normalizeExternal('doi', work.doi)
    const predicate = (w: SampleRecord) =>
      typeof w.doi === 'string' && normalizeExternal('doi', w.doi) === doi
    await expectSameIds('works', `doi:${doi}`, predicate)
    await expectSameIds('works', `doi:https://doi.org/${doi}`, predicate)
    await expectSameIds('works', `doi:${doi.toUpperCase()}`, predicate)
  })

  it('a quoted value keeps its commas', async () => {
    const work = where(
      'works',
      (w) => typeof w.display_name === 'string' && /,/.test(w.display_name) && !/["|]/.test(w.display_name),
    )[0]!
    const title = String(work.display_name)
    await expectSameIds(
      'works',
      `display_name:"${title}"`,
      (w) => String(w.display_name ?? '').toLowerCase() === title.toLowerCase(),
    )
  })

  it('the ID-list filter: openalex_id, openalex, service, ids.openalex', async () => {
    const ids = idSet(records('works')).slice(0, 7)
    const wanted = new Set(ids)
    const predicate = (w: SampleRecord) => wanted.has(shortId(w.id).toUpperCase())
    for (const key of ['openalex_id', 'openalex', 'service', 'ids.openalex'])
      await expectSameIds('works', `${key}:${ids.join('|')}`, predicate)
    await expectSameIds(
      'works',
      `openalex_id:${ids.map((id) => `https://openalex.org/${id}`).join('|')}`,
      predicate,
    )
    await expectSameIds('works', `openalex_id:!${ids.join('|')}`, (w) => !predicate(w))
  })

  it('the citation graph: cites, cited_by, related_to', async () => {
    const served = new Set(idSet(records('works')))
    const inSample = (ids: unknown) =>
      (Array.isArray(ids) ? ids : []).filter((id) => served.has(shortId(id).toUpperCase()))
    const citing = [...records('works')].sort(
      (a, b) => inSample(b.referenced_works).length - inSample(a.referenced_works).length,
    )[0]!
    const cited = new Set(inSample(citing.referenced_works).map((id) => shortId(id).toUpperCase()))
    expect(cited.size).toBeGreaterThan(1)
    // cited_by:W is the works W cites
    await expectSameIds('works', `cited_by:${shortId(citing.id)}`, (w) =>
      cited.has(shortId(w.id).toUpperCase()),
    )
    // cites:W is the works that cite W
    const target = shortId([...cited][0])
    await expectSameIds('works', `cites:${target}`, (w) => has(w, 'referenced_works', target))
    const relating = [...records('works')].sort(
      (a, b) => inSample(b.related_works).length - inSample(a.related_works).length,
    )[0]!
    const related = new Set(inSample(relating.related_works).map((id) => shortId(id).toUpperCase()))
    expect(related.size).toBeGreaterThan(1)
    await expectSameIds('works', `related_to:${shortId(relating.id)}`, (w) =>
      related.has(shortId(w.id).toUpperCase()),
    )
  })

  it('doi_starts_with takes a DOI prefix', async () => {
    const prefix = '10.1016'
    await expectSameIds('works', `doi_starts_with:${prefix}`, (w) =>
      typeof w.doi === 'string' ? normalizeExternal('doi', w.doi).startsWith(prefix) : false,
    )
  })

  it('100 OR values are accepted', async () => {
    const ids = idSet(records('works')).slice(0, 100)
    expect(await getCount(context.app, `/works?filter=${q(`openalex_id:${ids.join('|')}`)}`)).toBe(100)
  })
})

describe('other entity types', () => {
  it('authors: last known institution, ORCID presence, counts, the ID list', async () => {
    const institution = top('authors', 'last_known_institutions.id')
    await expectSameIds(
      'authors',
      `last_known_institutions.id:${institution}`,
      (a) =>
        has(a, 'last_known_institutions.id', institution) || has(a, 'last_known_institution.id', institution),
    )
    await expectSameIds('authors', 'has_orcid:true', (a) => typeof a.orcid === 'string')
    await expectSameIds('authors', 'works_count:>5', (a) => (a.works_count as number) > 5)
    const ids = idSet(records('authors')).slice(3, 8)
    await expectSameIds('authors', `openalex:${ids.join('|')}`, (a) =>
      ids.includes(shortId(a.id).toUpperCase()),
    )
    await expectSameIds('authors', `service:${ids.join('|')}`, (a) =>
      ids.includes(shortId(a.id).toUpperCase()),
    )
  })

  it('institutions: country code (any case), type, ROR in both forms, lineage', async () => {
    await expectSameIds('institutions', 'country_code:gb', (i) => i.country_code === 'GB')
    await expectSameIds('institutions', 'country_code:!us', (i) => i.country_code !== 'US')
    await expectSameIds(
      'institutions',
      'type:education|healthcare',
      (i) => i.type === 'education' || i.type === 'healthcare',
    )
    const withRor = where('institutions', (i) => typeof i.ror === 'string')[0]!
    const ror = normalizeExternal('ror', withRor.ror)
    const rorMatch = (i: SampleRecord) => typeof i.ror === 'string' && normalizeExternal('ror', i.ror) === ror
    await expectSameIds('institutions', `ror:${ror}`, rorMatch)
    await expectSameIds('institutions', `ror:https://ror.org/${ror}`, rorMatch)
    const parent = top('institutions', 'lineage')
    await expectSameIds('institutions', `lineage:${parent}`, (i) => has(i, 'lineage', parent))
  })

  it('sources: ISSN, type, host organization, open access', async () => {
    const withIssn = where('sources', (s) => Array.isArray(s.issn) && s.issn.length > 0)[0]!
    const issn = String((withIssn.issn as string[])[0])
    await expectSameIds(
      'sources',
      `issn:${issn}`,
      (s) => valuesAt(s, 'issn').includes(issn) || s.issn_l === issn,
    )
    await expectSameIds('sources', 'type:journal', (s) => s.type === 'journal')
    const host = top('sources', 'host_organization')
    await expectSameIds('sources', `host_organization:${host}`, (s) => has(s, 'host_organization', host))
    await expectSameIds('sources', 'is_oa:true', (s) => s.is_oa === true)
  })

  it('topics: domain, field and subfield in short, path and URL form', async () => {
    const field = top('topics', 'field.id')
    const byField = (t: SampleRecord) => has(t, 'field.id', field)
    await expectSameIds('topics', `field.id:${field}`, byField)
    await expectSameIds('topics', `field.id:fields/${field}`, byField)
    await expectSameIds('topics', `field.id:https://openalex.org/fields/${field}`, byField)
    await expectSameIds(
      'topics',
      'domain.id:1|2',
      (t) => has(t, 'domain.id', '1') || has(t, 'domain.id', '2'),
    )
    const subfield = top('topics', 'subfield.id')
    await expectSameIds('topics', `subfield.id:${subfield}`, (t) => has(t, 'subfield.id', subfield))
  })

  it('countries and work-types: id codes, counts', async () => {
    await expectSameIds('countries', 'id:US|gb', (c) => ['US', 'GB'].includes(shortId(c.id)))
    await expectSameIds('countries', 'works_count:>10', (c) => (c.works_count as number) > 10)
    await expectSameIds('work-types', 'id:article|book', (t) => ['article', 'book'].includes(shortId(t.id)))
    await expectSameIds('work-types', 'works_count:0', (t) => t.works_count === 0)
    await expectSameIds('languages', 'works_count:>0', (l) => (l.works_count as number) > 0)
  })
})
