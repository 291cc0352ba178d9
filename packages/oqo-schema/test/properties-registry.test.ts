import {
  buildPropertiesPayload,
  columnsOf,
  ENTITY_TYPES,
  entityPath,
  findColumnsByWord,
  findVocabularyEntry,
  propertiesRegistry,
  resolveColumn,
  suggestColumns,
  VOCABULARY_ENTITY_TYPES,
  vocabularyOf,
} from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import snapshot from '../src/registry/properties-snapshot.json' with { type: 'json' }

const snapshotProperties = snapshot.properties

describe('the properties registry', () => {
  it('has the 24 entity types and every property of the snapshot', () => {
    expect(ENTITY_TYPES).toHaveLength(24)
    expect(new Set(ENTITY_TYPES.map(entityPath))).toEqual(new Set(Object.keys(snapshot.properties)))
    for (const entity of ENTITY_TYPES) {
      const listed = propertiesRegistry
        .columnsOf(entity, { includeUnlisted: false })
        .map((column) => column.id)
      expect(listed.sort()).toEqual(Object.keys(snapshotProperties[entityPath(entity)] ?? {}).sort())
    }
    expect(propertiesRegistry.meta.propertyCount).toBe(snapshot.meta.property_count)
  })

  it('resolves canonical ids, alternate keys and dash spellings to the canonical column', () => {
    expect(resolveColumn('works', 'is_oa')?.id).toBe('open_access.is_oa')
    expect(resolveColumn('works', 'cites')?.id).toBe('referenced_works')
    expect(resolveColumn('works', 'openalex')?.id).toBe('ids.openalex')
    expect(resolveColumn('works', 'openalex_id')?.id).toBe('ids.openalex')
    expect(resolveColumn('works', 'service')?.id).toBe('ids.openalex')
    expect(resolveColumn('works', 'title.search')?.id).toBe('display_name.search')
    expect(resolveColumn('works', 'default.search')?.id).toBe('fulltext.search')
    expect(resolveColumn('authors', 'default.search')?.id).toBe('text.search')
    expect(resolveColumn('works', 'publication-year')?.id).toBe('publication_year')
    expect(resolveColumn('works', 'cited_by')?.id).toBe('cited_by')
    expect(resolveColumn('works', 'nonsense')).toBeUndefined()
  })

  it('accepts the classic keys the snapshot does not list', () => {
    expect(resolveColumn('works', 'is_xpac')).toMatchObject({ kind: 'boolean', unlisted: true })
    expect(resolveColumn('authors', 'last_known_authorships.institutions.lineage')?.id).toBe(
      'last_known_institutions.id',
    )
    expect(resolveColumn('locations', 'raw_type')).toMatchObject({ kind: 'string', unlisted: true })
    expect(resolveColumn('works', 'abstract.search.semantic')).toMatchObject({
      kind: 'search',
      operators: ['has'],
    })
    expect(resolveColumn('authors', 'display_name.search.semantic')).toBeUndefined()
    for (const entity of ENTITY_TYPES)
      if (resolveColumn(entity, 'ids.openalex') !== undefined)
        expect(resolveColumn(entity, 'service')?.id).toBe('ids.openalex')
  })

  it('derives value kinds, the entity of values, casing and OQO operators', () => {
    const kindOf = (id: string) => {
      const column = resolveColumn('works', id)
      return column && [column.kind, column.valueEntity, column.casing, column.operators.join(' ')]
    }
    expect(kindOf('publication_year')).toEqual(['number', null, 'verbatim', 'is > >= < <='])
    expect(kindOf('fwci')).toEqual(['float', null, 'verbatim', 'is > >= < <='])
    expect(kindOf('publication_date')).toEqual(['date', null, 'verbatim', 'is > >= < <='])
    expect(kindOf('open_access.is_oa')).toEqual(['boolean', null, 'verbatim', 'is'])
    expect(kindOf('authorships.author.id')).toEqual(['entity_id', 'authors', 'verbatim', 'is in collection'])
    expect(kindOf('referenced_works')).toEqual(['entity_id', 'works', 'verbatim', 'is in collection'])
    expect(kindOf('sustainable_development_goals.id')).toEqual([
      'entity_id',
      'sdgs',
      'verbatim',
      'is in collection',
    ])
    expect(kindOf('authorships.countries')).toEqual(['enum', 'countries', 'upper', 'is in collection'])
    expect(kindOf('type')).toEqual(['enum', 'types', 'lower', 'is in collection'])
    expect(kindOf('doi')).toEqual(['string', null, 'verbatim', 'is'])
    expect(kindOf('title_and_abstract.search')).toEqual(['search', null, 'verbatim', 'has'])
    expect(kindOf('collection')).toEqual(['collection', 'works', 'verbatim', 'in collection'])
    expect(kindOf('abstract_inverted_index')).toEqual([null, null, 'verbatim', ''])
  })

  it('gives every column of a closed vocabulary the vocabulary, whatever the entity', () => {
    // The snapshot names the vocabulary on some entities only (`country_code` on institutions, not on
    // funders); a column holding the same codes must be validated and cased the same everywhere.
    const vocabularyColumns = (suffix: RegExp) => {
      const found = ENTITY_TYPES.flatMap((entity) =>
        columnsOf(entity)
          .filter((column) => column.kind !== null && column.kind !== 'search' && suffix.test(column.id))
          .map((column) => [`${entity}.${column.id}`, column.kind, column.valueEntity, column.casing]),
      )
      // Each family spans several entities, or the check below proves nothing.
      expect(new Set(found.map(([id]) => id!.split('.')[0])).size, String(suffix)).toBeGreaterThan(1)
      return found
    }
    for (const [id, kind, valueEntity, casing] of vocabularyColumns(/(^|\.)country_codes?$/))
      expect([id, kind, valueEntity, casing]).toEqual([id, 'enum', 'countries', 'upper'])
    for (const [id, kind, valueEntity] of vocabularyColumns(/(^|\.)continent$/))
      expect([id, kind, valueEntity]).toEqual([id, 'entity_id', 'continents'])
    for (const [id, kind, valueEntity] of vocabularyColumns(/(^|\.)institutions?(_awarded)?\.type$/))
      expect([id, kind, valueEntity]).toEqual([id, 'enum', 'institution-types'])
    for (const [level, entity] of [
      ['domain', 'domains'],
      ['field', 'fields'],
      ['subfield', 'subfields'],
    ] as const)
      for (const [id, kind, valueEntity] of vocabularyColumns(new RegExp(`(^|\\.)${level}\\.id$`)))
        expect([id, kind, valueEntity]).toEqual([id, 'entity_id', entity])
    expect(resolveColumn('funders', 'country_code')).toMatchObject({ kind: 'enum', casing: 'upper' })
    expect(resolveColumn('publishers', 'country_codes')).toMatchObject({ valueEntity: 'countries' })
  })

  it('types the id columns of the vocabulary entities as ids, keeping the id text', () => {
    // The snapshot types `fields.id` of a domain and `subfields.id` of a field `number`, but they name
    // vocabulary entries: the reference reads them with its id fields (`field`, `subfield`) and keeps the
    // id text. Every other column keeps the value type the snapshot gives it.
    const typeOf = (kind: string | null) =>
      kind === 'number' || kind === 'float' ? 'number' : kind === 'boolean' ? 'boolean' : 'string'
    for (const entity of VOCABULARY_ENTITY_TYPES)
      for (const column of columnsOf(entity)) {
        if (column.kind === null || column.kind === 'search' || column.unlisted) continue
        const property = snapshotProperties[entityPath(entity)]?.[column.id]
        const namesEntity = property?.type === 'number' && property.entity_type !== null
        const expected =
          property?.type === 'number' && !namesEntity
            ? 'number'
            : property?.type === 'boolean'
              ? 'boolean'
              : 'string'
        expect([entity, column.id, typeOf(column.kind)]).toEqual([entity, column.id, expected])
      }
    // An id does not compare: the range bucket the snapshot gives these columns brings no `>`.
    for (const [entity, columnId, valueEntity] of [
      ['domains', 'fields.id', 'fields'],
      ['fields', 'subfields.id', 'subfields'],
    ] as const)
      expect(resolveColumn(entity, columnId)).toMatchObject({
        kind: 'entity_id',
        valueEntity,
        operators: ['is', 'in collection'],
      })
  })

  it('gives every column a value kind unless it can only be selected', () => {
    for (const entity of ENTITY_TYPES)
      for (const column of columnsOf(entity))
        if (column.kind === null)
          expect(
            column.actions.filter((action) => action !== 'select'),
            `${entity}.${column.id}`,
          ).toEqual([])
        else expect(column.operators.length, `${entity}.${column.id}`).toBeGreaterThan(0)
  })

  it('finds columns by their OQL words and suggests ids for typos', () => {
    const ids = (entity: 'works' | 'authors', word: string) =>
      findColumnsByWord(entity, word).map((column) => column.id)
    expect(ids('works', 'Year')).toEqual(['publication_year'])
    expect(ids('works', 'title/abstract')).toEqual(['title_and_abstract.search'])
    expect(ids('authors', 'name')).toContain('display_name.search')
    expect(ids('works', 'no such word')).toEqual([])
    expect(suggestColumns('works', 'cited_by_cuont')[0]).toBe('cited_by_count')
  })

  it('suggests what a mistyped key most likely meant: an id, an alternate key, or the column of a name', () => {
    // By the name people use for the column: `year` is publication_year's.
    expect(suggestColumns('works', 'yeer')).toEqual(['publication_year'])
    // An alternate key is written as it is.
    expect(suggestColumns('works', 'is_oaa')).toContain('is_oa')
    expect(suggestColumns('works', 'publication_yeer')[0]).toBe('publication_year')
    // Nothing like it: nothing.
    expect(suggestColumns('works', 'zzzzzz')).toEqual([])
    expect(suggestColumns('works', 'autorships.institution.id').length).toBeLessThanOrEqual(3)
  })

  it('serves the snapshot back, plus only the documented additions', () => {
    const payload = buildPropertiesPayload()
    expect(payload.meta).toMatchObject({
      version: `${snapshot.meta.version}+oqlkit.1`,
      entity_count: 24,
      property_count: 809,
    })
    for (const [path, properties] of Object.entries(payload.properties))
      for (const [name, property] of Object.entries(properties)) {
        const original = snapshotProperties[path]?.[name]
        const { value_kind: _kind, value_entity: _entity, oqo_operators: _operators, ...served } = property
        const expected = {
          ...original,
          alternate_keys:
            name === 'ids.openalex'
              ? [...(original?.alternate_keys ?? []), 'service']
              : original?.alternate_keys,
          entity_type: served.entity_type,
          actions: [...(original?.actions ?? [])].sort(),
        }
        expect(served, `${path}.${name}`).toEqual(expected)
        // Where the snapshot names the entity of a value, we serve the same one (`types` is `work-types`).
        if (original?.entity_type != null)
          expect(served.entity_type, `${path}.${name}`).toBe(
            original.entity_type === 'types' ? 'work-types' : original.entity_type,
          )
      }
  })
})

describe('the vocabularies', () => {
  it('holds every closed vocabulary with its codes', () => {
    expect(VOCABULARY_ENTITY_TYPES).toHaveLength(13)
    expect(vocabularyOf('countries')).toHaveLength(247)
    expect(vocabularyOf('types')?.[0]).toEqual({ code: 'article', displayName: 'article' })
    expect(vocabularyOf('works')).toBeUndefined()
  })

  it('finds an entry in any of its id forms, in any case', () => {
    expect(findVocabularyEntry('countries', 'us')?.code).toBe('US')
    expect(findVocabularyEntry('countries', 'https://openalex.org/countries/gb')?.displayName).toBe(
      'United Kingdom',
    )
    expect(findVocabularyEntry('types', 'types/Article')?.code).toBe('article')
    expect(findVocabularyEntry('sdgs', '3')?.displayName).toBe('Good health and well-being')
    expect(findVocabularyEntry('countries', 'uk')).toBeUndefined()
  })
})
