import { describe, expect, it } from 'vitest'
import { type ParseContext, parseContext } from '../src/parser/index.ts'

// What the grammar expects at a cursor (`/parse-context`). The states follow the reference's recorded
// replies (§7): entity, field, operator, value, connective, directives, and none inside strings.

const at = (text: string, position = text.length): ParseContext => parseContext(text, position)
const values = (context: ParseContext): string[] => context.suggestions.map((suggestion) => suggestion.value)

// [text, cursor (default: end), expected state, other expected keys]
const TABLE: readonly (readonly [
  string,
  number | undefined,
  ParseContext['state'],
  Partial<ParseContext>,
])[] = [
  ['', undefined, 'entity', { prefix: '' }],
  ['wor', undefined, 'entity', { prefix: 'wor' }],
  ['works', 5, 'entity', { prefix: 'works' }],
  ['works ', undefined, 'after-entity', { entity: 'works' }],
  ['works where ', undefined, 'field', {}],
  ['works where ye', undefined, 'field', { prefix: 'ye' }],
  ['works where year', undefined, 'field', { prefix: 'year' }],
  ['works where year > 2000 and ', undefined, 'field', { afterConnective: 'and' }],
  ['works where year ', undefined, 'operator', { valueKind: 'num' }],
  ['works where institution ', undefined, 'operator', { valueKind: 'id' }],
  ['works where title ', undefined, 'operator', { valueKind: 'search' }],
  [
    'works where institution is har',
    undefined,
    'value',
    {
      valueKind: 'id',
      autocompleteEntity: 'institutions',
      prefix: 'har',
      replaceRange: { start: 27, end: 30 },
    },
  ],
  ['works where institution is ', undefined, 'value', { autocompleteEntity: 'institutions', prefix: '' }],
  ['works where author is ', undefined, 'value', { autocompleteEntity: 'authors' }],
  ['works where funder is ', undefined, 'value', { autocompleteEntity: 'funders' }],
  ['works where year > ', undefined, 'value', { valueKind: 'num', operator: '>' }],
  ['works where type is ', undefined, 'value', { valueKind: 'enum' }],
  ['works where institution is not ', undefined, 'value', { valueKind: 'id', operator: 'is not' }],
  ['works where institution is (', undefined, 'value', { inList: true }],
  ['works where type is (article or ', undefined, 'value', { inList: true, valueKind: 'enum' }],
  ['works where year > 2000 ', undefined, 'connective', {}],
  ['works where institution is I27837315 ', undefined, 'connective', {}],
  ["works where it's ", undefined, 'verb-phrase', {}],
  ['works where year > 2000 and ti', undefined, 'field', { prefix: 'ti' }],
  ['works where title has foo and (', undefined, 'field', { openGroups: 1 }],
  ['works where title has (foo or ', undefined, 'search-term', { valueKind: 'search', inList: true }],
  ['works group by ', undefined, 'group-by-field', {}],
  ['works sample ', undefined, 'sample-size', {}],
  ['works sample 10 ', undefined, 'directive', {}],
  ['works (al', undefined, 'corpus', { prefix: 'al' }],
  ['works where title has "clim', undefined, 'none', {}],
  ['works where institution is I27 [Harv', undefined, 'none', {}],
  ['works where title has "climate"', 27, 'none', {}],
]

describe('parseContext', () => {
  it.each(TABLE)('%j at %s is %s', (text, position, state, expected) => {
    const context = at(text, position)
    expect(context.state).toBe(state)
    expect(context).toMatchObject(expected)
  })

  it('names the field and its column', () => {
    expect(at('works where institution is har').field).toEqual({
      text: 'institution',
      word: 'institution',
      column: 'authorships.institutions.lineage',
      kind: 'id',
      valueEntity: 'institutions',
    })
    expect(at('works where title ').field).toMatchObject({ column: 'display_name.search', kind: 'search' })
  })

  it('offers the operators of the field', () => {
    expect(values(at('works where year '))).toEqual(['is', 'is not', '>', '>=', '<', '<='])
    expect(values(at('works where open access '))).toEqual(['is', 'is not'])
    // `title` is the title search only (`title is` is a bad operator, as in the reference); the raw
    // column id `display_name` names the search and (with `is`) the title column.
    expect(values(at('works where title '))).toEqual(['has', 'does not have', 'is similar to'])
    expect(values(at('works where display_name '))).toEqual([
      'has',
      'does not have',
      'is similar to',
      'is',
      'is not',
    ])
    expect(values(at('works where abstract '))).toEqual(['has', 'does not have', 'is similar to'])
  })

  it('offers the codes of a closed vocabulary, matched on code or name', () => {
    expect(values(at('works where language is e')).slice(0, 2)).toEqual(['en', 'es'])
    const kingdom = at('works where country is united ki')
    expect(kingdom).toMatchObject({ state: 'value', prefix: 'united ki' })
    expect(kingdom.suggestions).toEqual([{ value: 'GB', kind: 'value', detail: 'United Kingdom' }])
    expect(values(at('works where open access is '))).toEqual(['true', 'false', 'unknown'])
  })

  it('reads a multi-word prefix as one value or one field name', () => {
    const text = 'works where institution is university of fl'
    expect(at(text)).toMatchObject({
      state: 'value',
      prefix: 'university of fl',
      replaceRange: { start: text.indexOf('university'), end: text.length },
    })
    expect(at('works where last known inst')).toMatchObject({ state: 'field', prefix: 'last known inst' })
    expect(values(at('works where last known inst'))).toEqual(['last known institution'])
    // A new clause after the connective is not swallowed into the first one's value.
    expect(at('works where institution is I1 [UM] and last known institution is har')).toMatchObject({
      state: 'value',
      prefix: 'har',
      field: { word: 'last known institution' },
    })
  })

  it('after `value or ▮` offers a new field and the clause the value list could extend', () => {
    const text = 'works where type is article or '
    const context = at(text)
    expect(context).toMatchObject({ state: 'field', afterConnective: 'or' })
    expect(context.diagnostic).toBeUndefined()
    const sibling = context.sibling!
    expect(sibling.field).toMatchObject({ word: 'type', kind: 'enum' })
    expect(text.slice(sibling.clauseRange.start, sibling.clauseRange.end)).toBe('type is article')
    expect(text.slice(sibling.valueRange.start, sibling.valueRange.end)).toBe('article')
    const grouped = 'works where type is (article or book) or '
    const groupSibling = at(grouped).sibling!
    expect(grouped.slice(groupSibling.valueRange.start, groupSibling.valueRange.end)).toBe(
      '(article or book)',
    )
    expect(at('works where institution is I27837315 [UM] and university of fl')).toMatchObject({
      state: 'field',
      prefix: 'university of fl',
      autocompleteEntity: 'institutions',
      sibling: { field: { kind: 'id' } },
    })
  })

  it('offers connectives and directives after a complete condition, never where', () => {
    const offered = values(at('works where year > 2000 '))
    expect(offered).toEqual(['and', 'or', 'group by', 'sample'])
    expect(values(at('works where (year > 2000 '))).toContain(')')
    expect(values(at('works group by year sample 5 '))).toEqual(['seed'])
  })

  it('reads `group ▮` after a condition as the directive begun, not as a second bare value', () => {
    for (const text of ['works where year is 2020 group ', 'works where title has cancer group ']) {
      expect(at(text).state, text).toBe('directive')
      expect(values(at(text))).toEqual(['by'])
    }
    // Inside parentheses a directive cannot start: nothing to offer.
    expect(at('works where (year is 2020 group ').state).toBe('none')
  })

  it('filters field names by the prefix', () => {
    expect(values(at('works where ti'))).toEqual(['title', 'title/abstract'])
    expect(values(at('authors where na'))).toContain('name')
  })

  it('offers entity types and the words after the entity', () => {
    expect(values(at('au'))).toEqual(['authors'])
    expect(values(at('works '))).toEqual([
      'where',
      '(all corpora)',
      '(expansion corpus)',
      'group by',
      'sample',
    ])
    expect(values(at('authors '))).toEqual(['where', 'group by', 'sample'])
  })

  it('reports the first real problem before the cursor', () => {
    expect(at('works where bogus is 1 and year ').diagnostic).toMatchObject({
      code: 'OQL_UNKNOWN_FIELD',
      position: 12,
    })
    expect(at('works where year ').diagnostic).toBeUndefined()
  })

  it('clamps the cursor to the text', () => {
    expect(at('works where ', 9999).state).toBe('field')
    expect(at('works', -5)).toMatchObject({ state: 'entity', prefix: '' })
  })

  it('answers at every cursor position of real queries', () => {
    for (const text of [
      'works where institution is I27837315 [Harvard] and title has "climate change" and year >= 2020 group by type',
      'works where type is (article or review)',
      'works where institution is in collection col_abc123',
      'works where abstract is similar to "machine learning"',
      'works where (year >= 2020 and is_oa is true) or type is review',
      "works where it's cited by (W1) and it cites (not W2)",
      'works where title has (within 3 ("smart", "phone") or stemmed "x y")',
      'works group by type sample 50 seed 7',
    ])
      for (let position = 0; position <= text.length; position++) {
        const context = parseContext(text, position)
        expect(text.slice(context.replaceRange.start, context.replaceRange.end)).toBe(context.prefix)
      }
  })
})
