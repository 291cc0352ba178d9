import {
  COLLECTION_ENTITY_TYPES,
  type CollectionErrorCode,
  englishProfanityFilter,
  entityIdUrl,
  isCollectionError,
  looksLikeUrl,
  newCollectionId,
  readCollectionChanges,
  readCollectionEntityId,
  readCollectionInput,
  readEntityIds,
} from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'

const codeOf = (read: () => unknown): CollectionErrorCode | 'accepted' => {
  try {
    read()
    return 'accepted'
  } catch (error) {
    if (isCollectionError(error)) return error.code
    throw error
  }
}

const create = (body: unknown) => readCollectionInput(body, englishProfanityFilter)
const base = { display_name: 'My papers', entity_type: 'works' }

describe('reading entity ids', () => {
  it.each([
    ['W2741809807', 'W2741809807', 'works'],
    ['w2741809807', 'W2741809807', 'works'],
    ['https://openalex.org/W2741809807', 'W2741809807', 'works'],
    ['HTTPS://OpenAlex.org/w2741809807', 'W2741809807', 'works'],
    ['  works/W12  ', 'W12', 'works'],
    ['W0012', 'W12', 'works'],
    ['A5023888391', 'A5023888391', 'authors'],
    ['https://openalex.org/S137773608', 'S137773608', 'sources'],
    ['i4210127875', 'I4210127875', 'institutions'],
    ['T10017', 'T10017', 'topics'],
    ['F4320306076', 'F4320306076', 'funders'],
    ['P4310320990', 'P4310320990', 'publishers'],
    ['C41008148', 'C41008148', 'concepts'],
    ['sdgs/3', 'sdgs/3', 'sdgs'],
    ['https://openalex.org/sdgs/13', 'sdgs/13', 'sdgs'],
    ['https://metadata.un.org/sdg/10', 'sdgs/10', 'sdgs'],
    ['keywords/Machine-Learning', 'keywords/machine-learning', 'keywords'],
    ['https://openalex.org/keywords/cardiac-imaging', 'keywords/cardiac-imaging', 'keywords'],
    // The API description's keyword letter, K, in each form.
    ['K123', 'K123', 'keywords'],
    ['k0123', 'K123', 'keywords'],
    ['https://openalex.org/K987654', 'K987654', 'keywords'],
    ['https://openalex.org/keywords/K55', 'K55', 'keywords'],
    ['keywords/k55', 'K55', 'keywords'],
  ])('reads %s as %s (%s)', (text, id, entityType) => {
    expect(readCollectionEntityId(text)).toEqual({ id, entityType })
  })

  it.each([
    '',
    'W',
    '2741809807',
    'X123',
    'authors/W1',
    'works/K1',
    'K',
    'sdgs/0',
    'sdgs/18',
    'keywords/',
    'machine-learning',
    'https://example.org/W1',
    'https://doi.org/10.1/x',
    'W1 W2',
    `W${'1'.repeat(300)}`,
  ])('refuses %j', (text) => {
    expect(readCollectionEntityId(text)).toBeUndefined()
  })

  it('writes normalised ids as full URLs under the id base', () => {
    expect(entityIdUrl('W1')).toBe('https://openalex.org/W1')
    expect(entityIdUrl('sdgs/3', 'https://example.org/')).toBe('https://example.org/sdgs/3')
  })

  it('issues collection ids of col_ and 10 letters or digits, different each time', () => {
    const ids = Array.from({ length: 200 }, newCollectionId)
    for (const id of ids) expect(id).toMatch(/^col_[A-Za-z0-9]{10}$/)
    expect(new Set(ids).size).toBe(200)
  })
})

describe('reading a new collection', () => {
  it('trims, defaults and normalises', () => {
    expect(
      create({
        display_name: '  Climate  ',
        entity_type: 'works',
        description: ' Papers on climate ',
        entity_ids: ['W1', 'https://openalex.org/w1', 'W2'],
      }),
    ).toEqual({
      displayName: 'Climate',
      entityType: 'works',
      description: 'Papers on climate',
      entityIds: ['W1', 'W2'],
    })
    expect(create(base)).toEqual({
      displayName: 'My papers',
      entityType: 'works',
      description: '',
      entityIds: [],
    })
  })

  it('accepts each of the ten entity types and nothing else', () => {
    for (const entityType of COLLECTION_ENTITY_TYPES)
      expect(codeOf(() => create({ ...base, entity_type: entityType }))).toBe('accepted')
    for (const entityType of [undefined, 'awards', 'Works', 'work', 'countries', 3, null])
      expect(codeOf(() => create({ display_name: 'x', entity_type: entityType }))).toBe('entity_type_invalid')
  })

  it.each([
    [undefined, 'display_name_invalid'],
    [42, 'display_name_invalid'],
    ['   ', 'display_name_invalid'],
    ['a'.repeat(30), 'accepted'],
    [` ${'a'.repeat(30)} `, 'accepted'],
    ['a'.repeat(31), 'display_name_too_long'],
    ['😀'.repeat(30), 'accepted'],
    ['line\nbreak', 'display_name_invalid'],
    ['tab\there', 'display_name_invalid'],
    ['bell\u0007', 'display_name_invalid'],
    ['rtl\u202Eoverride', 'display_name_invalid'],
    ['https://example.org', 'display_name_invalid'],
    ['see www.example', 'display_name_invalid'],
    ['example.com', 'display_name_invalid'],
    ['example.net/papers', 'display_name_invalid'],
    ['ftp://files', 'display_name_invalid'],
    ['Fuck this', 'display_name_invalid'],
    ['fuuuuckk list', 'display_name_invalid'],
    ['bitch papers', 'display_name_invalid'],
    ['J. Biol. Chem. 2020', 'accepted'],
    ['Scunthorpe studies', 'accepted'],
    ['Assessment & analysis', 'accepted'],
    ['Node v2 papers', 'accepted'],
  ])('display_name %j: %s', (displayName, code) => {
    expect(codeOf(() => create({ ...base, display_name: displayName }))).toBe(code)
  })

  it.each([
    ['', 'accepted'],
    ['x'.repeat(500), 'accepted'],
    ['x'.repeat(501), 'description_invalid'],
    [null, 'description_invalid'],
    [12, 'description_invalid'],
    [['a'], 'description_invalid'],
    ['two\nlines', 'description_invalid'],
    ['from http://example.org', 'description_invalid'],
  ])('description %j: %s', (description, code) => {
    expect(codeOf(() => create({ ...base, description }))).toBe(code)
  })

  it('fails the whole list on the first id of no known shape or of another type, naming it', () => {
    expect(codeOf(() => create({ ...base, entity_ids: 'W1' }))).toBe('entity_id_invalid')
    expect(codeOf(() => create({ ...base, entity_ids: ['W1', 7] }))).toBe('entity_id_invalid')
    expect(codeOf(() => create({ ...base, entity_ids: ['W1', 'nonsense', 'A1'] }))).toBe('entity_id_invalid')
    expect(() => create({ ...base, entity_ids: ['W1', 'A5023888391', 'S1'] })).toThrow(
      /"A5023888391" is a authors id, but the collection holds works/,
    )
    expect(codeOf(() => create({ ...base, entity_type: 'sdgs', entity_ids: ['sdgs/1', 'W1'] }))).toBe(
      'entity_id_wrong_type',
    )
    expect(codeOf(() => readEntityIds(['G123'], 'works'))).toBe('entity_id_wrong_type')
  })

  it('refuses more than 1,000 distinct ids, but not 1,000 plus repeats', () => {
    const ids = Array.from({ length: 1000 }, (_, index) => `W${index + 1}`)
    expect(codeOf(() => create({ ...base, entity_ids: [...ids, 'W1', 'w2'] }))).toBe('accepted')
    expect(codeOf(() => create({ ...base, entity_ids: [...ids, 'W1001'] }))).toBe('collection_full')
  })

  it('refuses bodies that are not objects of the known fields', () => {
    for (const body of [null, 'text', [], 42, { ...base, owner: 'me' }, { ...base, user_id: 'u2' }])
      expect(codeOf(() => create(body))).toBe('invalid_body')
  })

  it('reads a PATCH of any of its three fields, and refuses an empty one', () => {
    expect(readCollectionChanges({ display_name: ' New ' }, englishProfanityFilter)).toEqual({
      displayName: 'New',
    })
    expect(
      readCollectionChanges({ entity_type: 'authors', description: '' }, englishProfanityFilter),
    ).toEqual({
      entityType: 'authors',
      description: '',
    })
    expect(codeOf(() => readCollectionChanges({}, englishProfanityFilter))).toBe('invalid_body')
    expect(codeOf(() => readCollectionChanges({ entity_ids: ['W1'] }, englishProfanityFilter))).toBe(
      'invalid_body',
    )
    expect(codeOf(() => readCollectionChanges({ display_name: null }, englishProfanityFilter))).toBe(
      'display_name_invalid',
    )
    expect(codeOf(() => readCollectionChanges({ entity_type: 'awards' }, englishProfanityFilter))).toBe(
      'entity_type_invalid',
    )
  })

  it('tells URL-shaped text from ordinary names', () => {
    expect(looksLikeUrl('arxiv.org/abs/1234')).toBe(true)
    expect(looksLikeUrl('mailto://x')).toBe(true)
    expect(looksLikeUrl('U.S. policy papers')).toBe(false)
    expect(looksLikeUrl('e.g. these')).toBe(false)
  })
})
