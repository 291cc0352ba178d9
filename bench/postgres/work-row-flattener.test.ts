import { describe, expect, it } from 'vitest'
import { encodeCopyField, encodeCopyRow } from './copy-text-encoder.ts'
import { ALL_TABLES, createTableSql, keyAndIndexSql, WORK_TABLES } from './postgres-tables.ts'
import { flattenInstitution, flattenTopic, flattenWork } from './work-row-flattener.ts'

const W = 'https://openalex.org/W1'
const work = {
  id: W,
  doi: 'https://doi.org/10.1/x',
  title: 'Deep learning\tof networks',
  display_name: 'Deep learning\tof networks',
  publication_year: 2020,
  publication_date: '2020-05-01',
  ids: {
    openalex: W,
    doi: 'https://doi.org/10.1/x',
    mag: '2741809807',
    pmid: 'https://pubmed.ncbi.nlm.nih.gov/1',
  },
  language: 'en',
  type: 'article',
  cited_by_count: 12,
  is_retracted: false,
  is_paratext: false,
  open_access: {
    is_oa: true,
    oa_status: 'gold',
    oa_url: 'https://x/pdf',
    any_repository_has_fulltext: false,
  },
  biblio: { volume: '1', issue: null, first_page: '10', last_page: '20' },
  authorships: [
    {
      author_position: 'first',
      author: { id: 'https://openalex.org/A1' },
      institutions: [{ id: 'https://openalex.org/I1' }, { id: 'https://openalex.org/I2' }],
      raw_affiliation_strings: ['Uni One', 'Uni Two'],
    },
    {
      author_position: 'last',
      author: { id: 'https://openalex.org/A2' },
      institutions: [],
      raw_affiliation_strings: [],
    },
  ],
  concepts: [
    { id: 'https://openalex.org/C1', score: 0.5 },
    { id: 'https://openalex.org/C1', score: 0.4 },
  ],
  topics: [{ id: 'https://openalex.org/T1', score: 0.99 }],
  primary_location: {
    source: { id: 'https://openalex.org/S1' },
    is_oa: true,
    version: 'publishedVersion',
    license: 'cc-by',
  },
  locations: [
    { source: { id: 'https://openalex.org/S1' }, is_oa: true, landing_page_url: 'https://a' },
    { source: null, is_oa: false, landing_page_url: 'https://b' },
  ],
  best_oa_location: null,
  referenced_works: ['https://openalex.org/W2', 'https://openalex.org/W3', 'https://openalex.org/W2'],
  related_works: [],
  abstract_inverted_index: { Deep: [0], learning: [1] },
  is_xpac: true,
}

describe('flattenWork', () => {
  const rows = flattenWork(work)

  it('writes a row for every table of the layout, in the columns order of its table', () => {
    expect(Object.keys(rows).sort()).toEqual(WORK_TABLES.map((table) => table.name).sort())
    for (const table of WORK_TABLES)
      for (const row of rows[table.name]!) expect(row).toHaveLength(table.columns.length)
  })

  it('keeps the work columns the scripts keep, with the inverted index as JSON', () => {
    expect(rows.works).toEqual([
      [
        W,
        'https://doi.org/10.1/x',
        'Deep learning\tof networks',
        'Deep learning\tof networks',
        2020,
        '2020-05-01',
        'article',
        12,
        false,
        false,
        null,
        { Deep: [0], learning: [1] },
        'en',
        true,
      ],
    ])
    expect(rows.works_ids).toEqual([
      [W, W, 'https://doi.org/10.1/x', 2741809807, 'https://pubmed.ncbi.nlm.nih.gov/1', null],
    ])
    expect(rows.works_open_access).toEqual([[W, true, 'gold', 'https://x/pdf', false]])
    expect(rows.works_biblio).toEqual([[W, '1', null, '10', '20']])
  })

  it('writes one authorship row per author and institution, and one with no institution when there is none', () => {
    expect(rows.works_authorships).toEqual([
      [W, 'first', 'https://openalex.org/A1', 'https://openalex.org/I1', 'Uni One'],
      [W, 'first', 'https://openalex.org/A1', 'https://openalex.org/I2', 'Uni One'],
      [W, 'last', 'https://openalex.org/A2', null, null],
    ])
  })

  it('keeps each concept, topic and reference once (they are the keys of their tables)', () => {
    expect(rows.works_concepts).toEqual([[W, 'https://openalex.org/C1', 0.5]])
    expect(rows.works_topics).toEqual([[W, 'https://openalex.org/T1', 0.99]])
    expect(rows.works_referenced_works).toEqual([
      [W, 'https://openalex.org/W2'],
      [W, 'https://openalex.org/W3'],
    ])
    expect(rows.works_related_works).toEqual([])
  })

  it('writes every location, the primary one, and no best OA location when there is none', () => {
    expect(rows.works_locations).toEqual([
      [W, 'https://openalex.org/S1', 'https://a', null, true, null, null],
      [W, null, 'https://b', null, false, null, null],
    ])
    expect(rows.works_primary_locations).toEqual([
      [W, 'https://openalex.org/S1', null, null, true, 'publishedVersion', 'cc-by'],
    ])
    expect(rows.works_best_oa_locations).toEqual([])
  })

  it('refuses a record without an id rather than writing rows of nothing', () => {
    expect(() => flattenWork({ title: 'x' })).toThrow('without an id')
  })

  it('drops a MAG id that is not a number instead of failing the bigint column', () => {
    expect(flattenWork({ id: W, ids: { mag: 'n/a' } }).works_ids![0]![3]).toBeNull()
  })
})

describe('flattenInstitution and flattenTopic', () => {
  it('write the columns of their tables', () => {
    const institution = flattenInstitution({
      id: 'https://openalex.org/I1',
      ror: 'https://ror.org/1',
      display_name: 'Uni',
      country_code: 'FR',
      type: 'education',
      display_name_acronyms: ['U'],
      works_count: 3,
    })
    expect(institution).toEqual([
      'https://openalex.org/I1',
      'https://ror.org/1',
      'Uni',
      'FR',
      'education',
      null,
      ['U'],
      null,
      3,
      null,
      null,
    ])
    const topic = flattenTopic({
      id: 'https://openalex.org/T1',
      display_name: 'Topic',
      subfield: { id: 'https://openalex.org/subfields/1', display_name: 'Sub' },
    })
    expect(topic.slice(0, 4)).toEqual([
      'https://openalex.org/T1',
      'Topic',
      'https://openalex.org/subfields/1',
      'Sub',
    ])
    expect(topic).toHaveLength(ALL_TABLES.find((table) => table.name === 'topics')!.columns.length)
  })
})

describe('COPY text encoding', () => {
  it('writes NULL as \\N, booleans as t/f and numbers as they are', () => {
    expect(encodeCopyRow([null, undefined, true, false, 12, 0.5])).toBe('\\N\t\\N\tt\tf\t12\t0.5\n')
  })

  it('escapes the characters that would end a field or a row, and the backslash itself', () => {
    expect(encodeCopyField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e')
  })

  it('writes objects as JSON text, escaped like any text', () => {
    // JSON writes the tab as \t and the backslash as \\; COPY then doubles every backslash.
    expect(encodeCopyField({ 'a\tb': ['x\\y'] })).toBe('{"a\\\\tb":["x\\\\\\\\y"]}')
  })

  it('refuses numbers PostgreSQL cannot read', () => {
    expect(() => encodeCopyField(Number.NaN)).toThrow('NaN')
  })
})

describe('the DDL', () => {
  it('creates each table with its columns, and keys and indexes after the load', () => {
    const works = WORK_TABLES.find((table) => table.name === 'works')!
    expect(createTableSql(works)).toMatch(
      /^CREATE TABLE works \(id text NOT NULL, doi text, .*language text, is_xpac boolean\)$/,
    )
    expect(keyAndIndexSql(works)).toContain('ALTER TABLE works ADD PRIMARY KEY (id)')
    expect(keyAndIndexSql(works)).toContain(
      'CREATE INDEX works_publication_year_idx ON works (publication_year)',
    )
    const referenced = WORK_TABLES.find((table) => table.name === 'works_referenced_works')!
    expect(keyAndIndexSql(referenced)).toEqual([
      'ALTER TABLE works_referenced_works ADD PRIMARY KEY (work_id, referenced_work_id)',
      'CREATE INDEX works_referenced_works_referenced_work_id_idx ON works_referenced_works (referenced_work_id)',
    ])
  })
})
