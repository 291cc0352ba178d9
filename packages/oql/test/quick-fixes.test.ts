import { describe, expect, it } from 'vitest'
import { applyOqlEdits, type OqlDiagnostic, parseOql, validateOql } from '../src/index.ts'

// Quick fixes are the fix text as edits, given only where the library is sure of them. Applying one
// must leave text that validates (or at least no longer has that problem), and the fix text must say
// what the edit does, so a reader of the message and a user of the editor's action see the same fix.

const onlyDiagnostic = (text: string): OqlDiagnostic => {
  const diagnostics = validateOql(text)
  expect(diagnostics).toHaveLength(1)
  return diagnostics[0]!
}

// [text, code, label of the first quick fix, text after it, words the fix text says]
const TABLE: readonly (readonly [string, string, string, string, string])[] = [
  ['works where yaer is 2020', 'OQL_UNKNOWN_FIELD', 'Change to year', 'works where year is 2020', '"year"'],
  ['works group by yaer', 'OQL_UNKNOWN_FIELD', 'Change to year', 'works group by year', '"year"'],
  ['wroks where year is 2020', 'OQL_UNKNOWN_ENTITY', 'Change to works', 'works where year is 2020', 'works?'],
  [
    'works where type is artcle',
    'invalid_value',
    'Change to article',
    'works where type is article',
    "'article'",
  ],
  [
    'works where type is (book or "artcle")',
    'invalid_value',
    'Change to article',
    'works where type is (book or article)',
    "'article'",
  ],
  [
    'works where title contains cancer',
    'OQL_CONTAINS_RENAMED',
    'Write has',
    'works where title has cancer',
    'has',
  ],
  [
    'works where title does not contain cancer',
    'OQL_CONTAINS_RENAMED',
    'Write does not have',
    'works where title does not have cancer',
    'does not have',
  ],
  [
    'works where year = 2020',
    'OQL_MISSING_OPERATOR',
    'Write is',
    'works where year is 2020',
    'Write is instead of =',
  ],
  [
    'works where (year is 2020 or type is article',
    'OQL_UNBALANCED_PARENS',
    'Add the missing )',
    'works where (year is 2020 or type is article)',
    'Add the missing )',
  ],
  [
    'works where year is 2020)',
    'OQL_UNBALANCED_PARENS',
    'Remove the )',
    'works where year is 2020',
    'Remove the )',
  ],
  ['works year is 2020', 'OQL_TRAILING_TOKENS', 'Add where', 'works where year is 2020', 'where'],
  ['works whre year is 2020', 'OQL_TRAILING_TOKENS', 'Change to where', 'works where year is 2020', 'where?'],
  [
    'works where title has canc*',
    'OQL_WILDCARD_NEEDS_EXACT',
    'Quote the term',
    'works where title has "canc*"',
    '"canc*"',
  ],
  [
    'works where title has stemmed "canc*"',
    'OQL_WILDCARD_NEEDS_EXACT',
    'Drop stemmed',
    'works where title has "canc*"',
    'Drop stemmed',
  ],
]

describe('quick fixes', () => {
  it.each(TABLE)('%s', (text, code, label, fixed, said) => {
    const diagnostic = onlyDiagnostic(text)
    expect(diagnostic.code).toBe(code)
    expect(diagnostic.fix).toContain(said)
    expect(diagnostic.message.endsWith(diagnostic.fix)).toBe(true)
    const quickFix = diagnostic.quickFixes?.[0]
    expect(quickFix?.label).toBe(label)
    const applied = applyOqlEdits(text, quickFix?.edits ?? [])
    expect(applied).toBe(fixed)
    expect(validateOql(applied)).toEqual([])
    expect(parseOql(applied).ok).toBe(true)
  })

  it('offers a fix for each field the message suggests that mends the query, best first', () => {
    const text = 'works where intitution is I136199984'
    const diagnostic = onlyDiagnostic(text)
    const suggested = [...diagnostic.message.matchAll(/"([^"]+)"(?= or|\?)/g)].map((match) => match[1])
    // institution, institution name and institution type; only the first takes an institution id.
    expect(suggested).toEqual(['institution', 'institution name', 'institution type'])
    expect(diagnostic.quickFixes?.map((fix) => fix.label)).toEqual(['Change to institution'])
    expect(validateOql(applyOqlEdits(text, diagnostic.quickFixes![0]!.edits))).toEqual([])
  })

  it('offers none that would leave the query no better', () => {
    // The closest names to the first word, put in its place, leave `year` with no operator.
    const diagnostic = onlyDiagnostic('works where publicaton year is 2020')
    expect(diagnostic.fix).toContain('Did you mean')
    expect(diagnostic.quickFixes).toBeUndefined()
  })

  it('checks fixes only within limits, offering none past them', () => {
    const long = `works where yaer is 2020${' and year is 2020'.repeat(300)}`
    expect(long.length).toBeGreaterThan(4_000)
    const diagnostic = validateOql(long)[0]
    expect(diagnostic?.code).toBe('OQL_UNKNOWN_FIELD')
    expect(diagnostic?.quickFixes).toBeUndefined()
  })

  it('are left out where the fix needs the user to choose', () => {
    for (const text of [
      'works where zzzzqq is 2020', // no field is close
      'works where type is (article book)', // or, or and?
      'works where is_oa is yes', // true was likely meant, but yes is no spelling of it
      'works where type is zzzzqq', // no code is close
      'foo where year is 2020', // no entity is close
      'works where year in 2020', // in is not one operator's spelling
    ]) {
      const diagnostics = validateOql(text)
      expect(diagnostics.length, text).toBeGreaterThan(0)
      for (const diagnostic of diagnostics) expect(diagnostic.quickFixes, text).toBeUndefined()
    }
  })

  it('parseOql, the path of every query a server runs, reports the problem without the fixes validateOql offers', () => {
    const parsed = parseOql('works where yaer is 2020')
    const [offered] = validateOql('works where yaer is 2020')
    expect(offered?.quickFixes?.length).toBeGreaterThan(0)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) {
      const { quickFixes: _offered, ...problem } = offered!
      expect(parsed.diagnostics).toEqual([problem])
    }
  })
})

describe('applyOqlEdits', () => {
  it('applies edits given in any order against the original offsets', () => {
    const text = 'works where yaer is 2020'
    expect(
      applyOqlEdits(text, [
        { start: 0, end: 5, text: 'authors' },
        { start: 24, end: 24, text: ' and type is article' },
        { start: 12, end: 16, text: 'year' },
      ]),
    ).toBe('authors where year is 2020 and type is article')
    expect(applyOqlEdits(text, [])).toBe(text)
  })
})
