import { type EntityType, resolveColumn } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { CURATED_FIELDS } from '../src/fields/curated-fields.ts'
import { curatedColumnOf, fieldWordFor, parsesBackTo, splitSearchColumn } from '../src/fields/field-words.ts'

// The column → word lookup against the reference's render words (OQL v2.2 Appendix B for works, the
// corpus and §3.4 for the re-pointing on other entities).

const wordOf = (entity: EntityType, columnId: string): string => fieldWordFor(entity, columnId).word

describe('fieldWordFor', () => {
  it.each([
    ['authorships.institutions.lineage', 'institution'],
    ['primary_topic.domain.id', 'domain'],
    ['publication_year', 'year'],
    ['fwci', 'FWCI'],
    ['open_access.oa_status', 'open access status'],
    ['display_name.search', 'title'],
    ['display_name.search.exact', 'title'],
    ['title_and_abstract.search.semantic', 'title/abstract'],
    ['fulltext.search', 'full text'],
    ['collection', 'work'],
    ['apc_list.currency', 'APC list currency'],
    ['authorships.institutions.country_code', 'institution country'],
    ['best_oa_location.source.host_organization', 'best OA host organization'],
    // No word of their own: a display name shared with another column, or holding a keyword.
    ['topics.domain.id', 'topics.domain.id'],
    ['authorships.is_corresponding', 'authorships.is_corresponding'],
    ['has_content.grobid_xml', 'has_content.grobid_xml'],
    ['sustainable_development_goals.score', 'sustainable_development_goals.score'],
  ])('works %s prints as %s', (columnId, word) => {
    expect(wordOf('works', columnId)).toBe(word)
  })

  it('re-points curated words per entity, preferring the word whose own column it is', () => {
    expect(wordOf('topics', 'domain.id')).toBe('domain')
    expect(wordOf('topics', 'field.id')).toBe('field')
    expect(wordOf('authors', 'orcid')).toBe('ORCID')
    expect(wordOf('sources', 'issn')).toBe('ISSN')
    expect(wordOf('authors', 'topics.id')).toBe('topics')
    expect(wordOf('authors', 'last_known_institutions.id')).toBe('last known institution')
    expect(wordOf('authors', 'last_known_institutions.country_code')).toBe('author country')
    expect(wordOf('institutions', 'country_code')).toBe('country code')
    expect(wordOf('sources', 'type')).toBe('type')
    expect(wordOf('sources', 'is_oa')).toBe('fully OA')
    expect(wordOf('sources', 'apc_usd')).toBe('article processing charge')
    expect(wordOf('funders', 'works_count')).toBe('works count')
  })

  it('names search columns after their base column outside works', () => {
    expect(wordOf('authors', 'display_name.search')).toBe('name')
    expect(wordOf('types', 'display_name.search')).toBe('name')
    expect(wordOf('authors', 'text.search')).toBe('text')
    expect(wordOf('topics', 'description.search')).toBe('description')
  })

  it('tells the printer about search modes, date bounds, verbs and annotations', () => {
    expect(fieldWordFor('works', 'abstract.search.exact').search).toEqual({ base: 'abstract', mode: 'exact' })
    expect(fieldWordFor('works', 'to_updated_date').dateBound).toEqual({
      word: 'updated date',
      operator: '<=',
    })
    expect(fieldWordFor('works', 'publication_date').boundColumns).toEqual({
      from: 'from_publication_date',
      to: 'to_publication_date',
    })
    expect(fieldWordFor('works', 'cited_by').verb).toBe("it's cited by")
    expect(fieldWordFor('works', 'cites')).toMatchObject({ columnId: 'referenced_works', verb: 'it cites' })
    expect(fieldWordFor('works', 'authorships.countries').nameEntity).toBe('countries')
    expect(fieldWordFor('works', 'sustainable_development_goals.id').nameEntity).toBe('sdgs')
    expect(fieldWordFor('works', 'referenced_works').nameEntity).toBe('works')
    for (const columnId of [
      'type',
      'open_access.oa_status',
      'primary_location.source.type',
      'ids.openalex',
      'doi',
    ])
      expect(fieldWordFor('works', columnId).nameEntity, columnId).toBeUndefined()
  })

  it('answers for columns and entities it does not know, with the raw id', () => {
    expect(fieldWordFor('works', 'no_such.column')).toMatchObject({ word: 'no_such.column', source: 'raw' })
    expect(fieldWordFor('nonsense' as EntityType, 'x.search.exact')).toMatchObject({
      word: 'x.search.exact',
      search: { base: 'x', mode: 'exact' },
    })
  })
})

describe('the shared resolution rules', () => {
  it('splits search column ids', () => {
    expect(splitSearchColumn('title_and_abstract.search')).toEqual({
      base: 'title_and_abstract',
      mode: 'stemmed',
    })
    expect(splitSearchColumn('abstract.search.semantic')).toEqual({ base: 'abstract', mode: 'semantic' })
    expect(splitSearchColumn('publication_year')).toBeUndefined()
  })

  it('finds the column a curated word names on an entity', () => {
    const field = (word: string) => CURATED_FIELDS.find((candidate) => candidate.word === word)!
    expect(curatedColumnOf('works', field('domain'))?.id).toBe('primary_topic.domain.id')
    expect(curatedColumnOf('topics', field('domain'))?.id).toBe('domain.id')
    expect(curatedColumnOf('authors', field('ORCID'))?.id).toBe('orcid')
    expect(curatedColumnOf('works', field('title'))?.id).toBe('display_name.search')
    expect(curatedColumnOf('works', field('author country'))).toBeUndefined()
  })

  it('accepts a registry word only when it reads back as that column alone', () => {
    const works = (columnId: string) => resolveColumn('works', columnId)!
    expect(parsesBackTo('works', 'APC list currency', works('apc_list.currency'))).toBe(true)
    expect(parsesBackTo('works', 'domain', works('topics.domain.id'))).toBe(false)
    expect(parsesBackTo('works', 'is corresponding author', works('authorships.is_corresponding'))).toBe(
      false,
    )
    expect(parsesBackTo('works', 'topics count', works('topics_count'))).toBe(false)
  })

  it('gives every curated word the column it prints for, on works', () => {
    for (const field of CURATED_FIELDS) {
      const column = curatedColumnOf('works', field)
      if (column === undefined || field.boundOf !== undefined) continue
      const printed = fieldWordFor('works', column.id).word
      // Two curated words can name one column (`DOAJ`); the printed one must be one of them.
      const claimants = CURATED_FIELDS.filter((other) => curatedColumnOf('works', other)?.id === column.id)
      expect(
        claimants.map((other) => other.word),
        field.word,
      ).toContain(printed)
    }
  })
})
