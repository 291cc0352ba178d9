import { describe, expect, it } from 'vitest'
import {
  OQL_DIAGNOSTIC_CODES,
  OQL_PARSE_DIAGNOSTIC_ENTRIES,
  type OqlDiagnostic,
  type OqlDiagnosticCode,
  toDiagnostic,
} from '../src/diagnostics/index.ts'
import { parseOql, validateOql } from '../src/parser/index.ts'
import {
  type OqlMessage,
  writeImplicitAdjacencyMessage,
  writeNoExactSearchMessage,
  writeStrayTextInGroupMessage,
  writeUnclosedCorpusMessage,
  writeUnknownCorpusMessage,
  writeUnknownFieldMessage,
  writeUnquotedWildcardMessage,
} from '../src/parser/oql-message-writers.ts'

// Every parse code with a text that produces it, the offset it points at and its span. Positions are
// UTF-16 offsets; where the reference engine reports one (§3.8, Appendix E) it is the same.
const CASES: readonly (readonly [OqlDiagnosticCode, string, number, number])[] = [
  ['OQL_UNTERMINATED_STRING', 'works where title has "cancer', 22, 29],
  ['OQL_UNTERMINATED_ANNOTATION', 'works where institution is (I1 [Harvard', 31, 39],
  ['OQL_EMPTY', '', 0, 0],
  ['OQL_EMPTY', 'works where', 11, 11],
  ['OQL_MISSING_ENTITY', 'where year is 2020', 0, 5],
  ['OQL_UNKNOWN_ENTITY', 'banana where year is 2020', 0, 6],
  ['OQL_BAD_CORPUS', 'works (banana) where year is 2020', 6, 14],
  ['OQL_TRAILING_TOKENS', 'works where year is 2020; sort by year', 26, 30],
  ['OQL_IMPLICIT_ADJACENCY', 'works where type is article year is 2020', 28, 32],
  ['OQL_UNBALANCED_PARENS', 'works where title has (cancer', 29, 29],
  ['OQL_UNBALANCED_PARENS', 'works where year is 2020)', 24, 25],
  ['OQL_UNKNOWN_FIELD', 'works where a is b', 12, 13],
  ['OQL_MISSING_OPERATOR', 'works where year (2020)', 17, 18],
  ['OQL_BAD_OPERATOR_FOR_FIELD', 'works where year has (2020)', 17, 20],
  ['OQL_BAD_OPERATOR_FOR_FIELD', 'works where abstract is (x)', 21, 23],
  ['OQL_CONTAINS_RENAMED', 'works where title contains dog', 18, 26],
  ['OQL_CONTAINS_RENAMED', 'works where title does not contain dog', 18, 34],
  ['OQL_BAD_VERB_PHRASE', "works where it doesn't cite (W1)", 12, 14],
  ['OQL_BAD_BOOL_VALUE', 'works where open access is yes', 27, 30],
  ['OQL_MISSING_VALUE', 'works where year is', 19, 19],
  ['OQL_MISSING_ENTITY_ID', 'works where institution is [Harvard]', 27, 36],
  ['OQL_BAD_NUMBER', 'works where year >= 2019.5', 20, 26],
  ['OQL_BAD_DATE', 'works where date >= 2020', 20, 24],
  ['OQL_RANGE_LITERAL_REMOVED', 'works where year is 2019-2023', 20, 29],
  ['OQL_BAD_COLLECTION_REF', 'works where country is in collection US', 37, 39],
  ['OQL_UNDELIMITED_TERM_LIST', 'works where country is us uk', 26, 28],
  ['OQL_UNDELIMITED_TERM_LIST', 'works where title has apple and banana or cherry', 28, 31],
  ['OQL_COMMA_IN_GROUP', 'works where type is (article, review)', 28, 29],
  ['OQL_GROUP_VALUES_NEED_CONNECTIVE', 'works where type is (article review)', 29, 35],
  ['OQL_GROUP_NEEDS_ONE_VALUE', 'works where year >= (2019 or 2020)', 26, 28],
  ['OQL_GROUP_NEEDS_ONE_VALUE', 'works where work is in collection (col_a or col_b)', 41, 43],
  ['OQL_BANG_NOT_SUPPORTED', 'works where title has (dog !cat)', 27, 28],
  ['OQL_SEMANTIC_NEEDS_TEXT', 'works where abstract is similar to (graph)', 36, 41],
  ['OQL_BAD_PROXIMITY', 'works where abstract has (within 5 (a b, c))', 38, 39],
  ['OQL_PROXIMITY_SUFFIX_REMOVED', 'works where title has "smart phone" within 3 words', 36, 50],
  ['OQL_PROXIMITY_NEEDS_OPERANDS', 'works where title has within 3 ("only")', 22, 28],
  ['OQL_PROXIMITY_MIXED_OPERANDS', 'works where title has within 3 (foo, "bar")', 22, 28],
  ['OQL_WILDCARD_NEEDS_EXACT', 'works where title has bar*', 22, 26],
  ['OQL_WILDCARD_NEEDS_EXACT', 'authors where name has ("ein*")', 24, 30],
  ['OQL_LEADING_WILDCARD', 'works where title has *cycle', 22, 28],
  ['OQL_SHORT_WILDCARD_PREFIX', 'works where title has ab*', 22, 25],
  ['OQL_TOO_MANY_WILDCARDS', 'works where title has "big* cat* dog*"', 22, 38],
  ['OQL_MULTI_WILDCARD_SHORT_PREFIX', 'works where title has within 3 ("pro*", "pre*")', 22, 28],
  ['OQL_BAD_SAMPLE', 'works sample ten', 13, 16],
  ['OQL_NO_FUZZY', 'works where title has (cancer~1)', 23, 31],
  ['OQL_NO_FUZZY', 'works where title has ("machine learning"~3)', 41, 43],
  ['OQL_CHAR_NOT_OPERATOR', 'works where title has (dog|cat)', 23, 30],
  ['OQL_CHAR_NOT_OPERATOR', 'works where title has ("a\\b")', 23, 28],
  ['OQL_PARSE_ERROR', `works where ${'('.repeat(100)}year is 1${')'.repeat(100)}`, 0, 221],
  // Nested past the parser's limit, a parenthesis that closes nothing or is never closed is still named.
  ['OQL_UNBALANCED_PARENS', `works where ${'('.repeat(100)}year is 1${')'.repeat(101)}`, 221, 222],
  ['OQL_UNBALANCED_PARENS', `works where ${'('.repeat(100)}year is 1${')'.repeat(99)}`, 220, 220],
  // `title` is a search field, as in the reference: works' `display_name` column is `display_name is`.
  ['OQL_BAD_OPERATOR_FOR_FIELD', 'works where title is (x)', 18, 20],
]

/** The diagnostic a message writer's words become: its code, full message and fix. */
const diagnosticOf = (code: OqlDiagnosticCode, written: OqlMessage) => {
  const { message, fix } = toDiagnostic('', { code, span: { start: 0, end: 0 }, ...written })
  return { code, message, fix }
}

const firstError = (text: string): OqlDiagnostic => {
  const result = parseOql(text)
  if (result.ok) throw new Error(`${text} parsed`)
  return result.diagnostics[0]!
}

describe('parse diagnostics', () => {
  it.each(CASES)('%s: %s', (code, text, start, end) => {
    expect(firstError(text)).toMatchObject({ code, severity: 'error', position: start, span: { start, end } })
  })

  it('has a case for every code of the registry', () => {
    const tested = new Set(CASES.map(([code]) => code))
    expect(
      Object.keys(OQL_DIAGNOSTIC_CODES).filter((code) => !tested.has(code as OqlDiagnosticCode)),
    ).toEqual([])
  })

  it('ends every message with its fix', () => {
    for (const [, text] of CASES) {
      const diagnostic = firstError(text)
      expect(diagnostic.fix.length).toBeGreaterThan(0)
      expect(diagnostic.message.endsWith(diagnostic.fix)).toBe(true)
    }
  })

  it('gives the line and column of the position', () => {
    expect(firstError('works\nwhere year is 2020\n  and type is (article, review)')).toMatchObject({
      code: 'OQL_COMMA_IN_GROUP',
      line: 3,
      column: 23,
    })
  })

  it('names the field and suggests the one meant', () => {
    expect(firstError('works where yaer is 2020')).toMatchObject(
      diagnosticOf('OQL_UNKNOWN_FIELD', writeUnknownFieldMessage('yaer', 'works', ['year'])),
    )
    expect(firstError('works where yaer is 2020').message).toContain('Did you mean "year"')
    expect(firstError('works where year is 2020 and tpye is article')).toMatchObject({
      code: 'OQL_UNKNOWN_FIELD',
      position: 29,
    })
  })

  it('never sends a wildcard from "quote it" to "remove it" on a field with no exact search', () => {
    for (const text of ['works where byline has (smith*)', 'works where byline has ("smith*")']) {
      expect(firstError(text)).toMatchObject(
        diagnosticOf('OQL_WILDCARD_NEEDS_EXACT', writeNoExactSearchMessage('byline', 'works')),
      )
    }
    expect(firstError('works where title has (smith*)')).toMatchObject(
      diagnosticOf('OQL_WILDCARD_NEEDS_EXACT', writeUnquotedWildcardMessage('smith*')),
    )
  })

  it('writes the fix of a range literal with the field', () => {
    expect(firstError('works where citation count is 1-100').fix).toBe(
      'Write explicit bounds: citation count >= (1) and citation count <= (100).',
    )
  })

  it('points a missing id at the annotation written in its place', () => {
    expect(firstError('works where institution is (I1 or [Harvard])')).toMatchObject({
      code: 'OQL_MISSING_ENTITY_ID',
      span: { start: 34, end: 43 },
    })
  })

  it('lists the parse codes as registry entries', () => {
    expect(OQL_PARSE_DIAGNOSTIC_ENTRIES).toHaveLength(Object.keys(OQL_DIAGNOSTIC_CODES).length)
    expect(OQL_PARSE_DIAGNOSTIC_ENTRIES[0]).toEqual({
      code: 'OQL_UNTERMINATED_STRING',
      severity: 'error',
      source: 'parse',
      summary: OQL_DIAGNOSTIC_CODES.OQL_UNTERMINATED_STRING,
    })
  })
})

describe('the more specific diagnostic at one spot', () => {
  const all = (text: string) =>
    validateOql(text).map((diagnostic) => [diagnostic.code, diagnostic.span.start] as const)

  it('reads a condition after a semicolon as adjacent, not as trailing text', () => {
    expect(all('works where year is 2020; type is article')).toEqual([['OQL_IMPLICIT_ADJACENCY', 26]])
    expect(firstError('works where year is 2020 ; it cites W1')).toMatchObject(
      diagnosticOf('OQL_IMPLICIT_ADJACENCY', writeImplicitAdjacencyMessage('it')),
    )
    // Not a condition, or a condition after a directive or with no where: text out of place.
    expect(all('works where year is 2020; sort by year')).toEqual([['OQL_TRAILING_TOKENS', 26]])
    expect(all('works where year is 2020; sample 10; year is 2021')).toEqual([['OQL_TRAILING_TOKENS', 37]])
    expect(all('works; year is 2020')).toEqual([['OQL_TRAILING_TOKENS', 7]])
  })

  it('reports stray text before a closing parenthesis as such, not as an unclosed group', () => {
    expect(all('works where (year is (2020) foo)')).toEqual([['OQL_TRAILING_TOKENS', 28]])
    expect(all('works where (year is (2020) or (type is (article) foo)) and year is (2021 or abc)')).toEqual([
      ['OQL_TRAILING_TOKENS', 50],
      ['OQL_BAD_NUMBER', 77],
    ])
    // A directive inside a group is stray text too; the `)` still closes the group.
    expect(all('works where (year is (2020) group by type)')).toEqual([['OQL_TRAILING_TOKENS', 28]])
    const stray = firstError('works where (year is (2020) foo) and type is article')
    expect(stray).toMatchObject(diagnosticOf('OQL_TRAILING_TOKENS', writeStrayTextInGroupMessage('foo')))
    expect(stray.message).not.toContain('after the query')
  })

  it('keeps the unbalanced parenthesis where one really is, once per spot', () => {
    expect(all('works where (year is (2020) foo')).toEqual([['OQL_UNBALANCED_PARENS', 28]])
    expect(all('works where (year is 2020 and type is article')).toEqual([['OQL_UNBALANCED_PARENS', 45]])
    expect(all('works where year is 2020)')).toEqual([['OQL_UNBALANCED_PARENS', 24]])
  })

  it('names a closed corpus parenthetical that names no corpus as such, not as never closed', () => {
    for (const [text, found] of [
      ['works ("all") where year is 2020', '("all")'],
      ['works (title has (x)) where year is 2020', '(title has ( x ))'],
      ['works (all; ) where year is 2020', '(all ;)'],
    ] as const) {
      expect(all(text), text).toEqual([['OQL_BAD_CORPUS', 6]])
      expect(firstError(text)).toMatchObject(diagnosticOf('OQL_BAD_CORPUS', writeUnknownCorpusMessage(found)))
    }
    expect(firstError('works (all')).toMatchObject(
      diagnosticOf('OQL_BAD_CORPUS', writeUnclosedCorpusMessage()),
    )
  })
})

describe('validation of the parsed object', () => {
  it('reports invalid values at the value that caused them', () => {
    const result = parseOql('works where year >= 2020 and country is uk')
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.diagnostics).toHaveLength(1)
    expect(result.diagnostics[0]).toMatchObject({
      code: 'invalid_value',
      path: 'filter_rows[1].value',
      position: 40,
      span: { start: 40, end: 42 },
    })
    // The object still comes back, for reporting.
    expect(result.oqo?.filter_rows).toHaveLength(2)
  })

  it('reports an id of the wrong entity inside a value group', () => {
    const diagnostics = validateOql('works where institution is (I1 or W5)')
    expect(diagnostics.map(({ code, path, span }) => ({ code, path, span }))).toEqual([
      { code: 'invalid_value', path: 'filter_rows[0].filters[1].value', span: { start: 34, end: 36 } },
    ])
  })

  it('reports a column that cannot be grouped by at its name, as an invalid column (the reference code)', () => {
    expect(validateOql('works group by citation percentile by subfield')).toMatchObject([
      { code: 'invalid_column', span: { start: 15, end: 46 } },
    ])
  })

  it('reports a curated field the entity does not have as an invalid column', () => {
    expect(validateOql('works where last known institution is I1')).toMatchObject([
      { code: 'invalid_column', path: 'filter_rows[0].column_id', span: { start: 12, end: 34 } },
    ])
  })
})

describe('validateOql recovers and reports every broken clause', () => {
  const codes = (text: string): string[] => validateOql(text).map((diagnostic) => diagnostic.code)

  it('reports two unknown fields, in text order', () => {
    const diagnostics = validateOql('works where bogusfield is 1 and year is 2020 and otherbogus is 2')
    expect(diagnostics.map(({ code, position }) => [code, position])).toEqual([
      ['OQL_UNKNOWN_FIELD', 12],
      ['OQL_UNKNOWN_FIELD', 49],
    ])
  })

  it('reports two bad values', () => {
    expect(codes('works where year is abc or cited_by_count is xyz')).toEqual([
      'OQL_BAD_NUMBER',
      'OQL_BAD_NUMBER',
    ])
  })

  it('descends into groups', () => {
    expect(codes('works where year >= 2020 and (bad1 is 1 or bad2 is 2)')).toEqual([
      'OQL_UNKNOWN_FIELD',
      'OQL_UNKNOWN_FIELD',
    ])
  })

  it('recovers at each value of a group', () => {
    expect(codes('works where year is (2020 or abc or 2021 or xyz)')).toEqual([
      'OQL_BAD_NUMBER',
      'OQL_BAD_NUMBER',
    ])
  })

  it('records an adjacency and goes on with the next clause', () => {
    expect(codes('works where year is abc title has')).toEqual([
      'OQL_BAD_NUMBER',
      'OQL_IMPLICIT_ADJACENCY',
      'OQL_MISSING_VALUE',
    ])
  })

  it('reports an unclosed group with the errors inside it', () => {
    expect(codes('works where (year is abc and cited_by_count is def')).toEqual([
      'OQL_BAD_NUMBER',
      'OQL_BAD_NUMBER',
      'OQL_UNBALANCED_PARENS',
    ])
  })

  it('gives one diagnostic for an empty text and for a lexical error', () => {
    expect(codes('')).toEqual(['OQL_EMPTY'])
    expect(codes('works where title has "open and year is x')).toEqual(['OQL_UNTERMINATED_STRING'])
  })

  it('is empty for a valid query, and lists validation errors once the text parses', () => {
    expect(validateOql('works where year >= 2020 and type is article')).toEqual([])
    expect(codes('works where country is uk and institution is W5')).toEqual([
      'invalid_value',
      'invalid_value',
    ])
  })

  it('while parseOql stops at the first error', () => {
    const result = parseOql('works where bogus1 is 1 and bogus2 is 2')
    expect(result.ok ? [] : result.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      diagnosticOf('OQL_UNKNOWN_FIELD', writeUnknownFieldMessage('bogus1', 'works', [])).message,
    ])
  })
})
