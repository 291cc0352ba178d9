import { canonicalizeOqo, type Oqo } from '@oqlkit/oqo-schema'
import { describe, expect, it } from 'vitest'
import { printOql, printOqlOneline, renderOqlTree, renderTreeText } from '../src/printer/index.ts'
import { corpusNameLookup, okRows } from './corpus-fixtures.ts'

// The corpus stores, for every ok row, the reference's rendering of the row's SORTED canonical OQO,
// annotated from the corpus's own name table (see corpusNameLookup).
const names = corpusNameLookup()
const rows = okRows()
const sortedCanonical = (oqo: Oqo): Oqo => canonicalizeOqo(oqo, { sortOperands: true })

// The one-line form is the wrapped form with each line break (and the indent after it) read as one
// space, except just inside a group's parentheses, where the break disappears.
const joinWrapped = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trimStart())
    .reduce((joined, line) =>
      joined.endsWith('(') || line.startsWith(')') ? joined + line : `${joined} ${line}`,
    )

describe('printOql over the OQL corpus', () => {
  it('covers every ok row of both corpus files (newer rows replacing baseline rows)', () => {
    expect(rows).toHaveLength(162)
  })

  it.each(rows.map((row) => [row.id, row] as const))('row %i prints byte for byte', (_id, row) => {
    expect(printOql(sortedCanonical(row.oqo), { names })).toBe(row.oql)
  })

  it.each(rows.map((row) => [row.id, row] as const))(
    'row %i: one line, token tree and a second print agree',
    (_id, row) => {
      const oqo = sortedCanonical(row.oqo)
      const printed = printOql(oqo, { names })
      expect(printOql(oqo, { names })).toBe(printed)
      expect(printOqlOneline(oqo, { names })).toBe(joinWrapped(printed))
      expect(renderTreeText(renderOqlTree(oqo, { names }))).toBe(printed)
    },
  )

  it('wraps exactly the rows wider than 80 columns, except a single clause that cannot break (row 30)', () => {
    const width = (row: (typeof rows)[number]) => printOqlOneline(sortedCanonical(row.oqo), { names }).length
    expect(rows.filter((row) => row.oql.includes('\n') && width(row) <= 80).map((row) => row.id)).toEqual([])
    expect(rows.filter((row) => !row.oql.includes('\n') && width(row) > 80).map((row) => row.id)).toEqual([
      30,
    ])
  })
})

describe('token addresses against the corpus addr listings', () => {
  // Each listing line is `<addr> <text>`: a condition (`1 institution is`), a field (`1.0 institution`),
  // a value (`1.1 not I33213144`), a nested group (`1.1 ( … )`) or a connective (`1.1.0 or`, `0 and`).
  const listed = rows.filter((row): row is typeof row & { addr: string } => {
    const addr = (row as { addr?: unknown }).addr
    return typeof addr === 'string' && addr !== ''
  })

  it('has listings to check', () => {
    expect(listed.map((row) => row.id)).toEqual([4, 40, 78, 157])
  })

  it.each(listed.map((row) => [row.id, row] as const))('row %i', (_id, row) => {
    const tokens = renderOqlTree(sortedCanonical(row.oqo), { names }).lines.flatMap((line) => line.tokens)
    const textAt = (addr: string, roles: readonly string[]) =>
      tokens
        .filter((token) => token.addr === addr && roles.includes(token.role))
        .map((token) => token.text)
        .join(' ')
    for (const entry of row.addr.split('\n')) {
      const space = entry.indexOf(' ')
      const addr = entry.slice(0, space)
      const text = entry.slice(space + 1)
      if (text === '( … )') {
        expect(textAt(addr, ['punctuation']), entry).toBe('( )')
      } else if (text === 'and' || text === 'or') {
        const joins = tokens.filter((token) => token.addr === addr && token.role === 'connective')
        expect(joins.length, entry).toBeGreaterThan(0)
        expect(new Set(joins.map((token) => token.text)), entry).toEqual(new Set([text]))
      } else if (addr.endsWith('.0')) {
        expect(textAt(addr, ['field', 'verb']), entry).toBe(text)
      } else if (!addr.includes('.')) {
        expect(`${textAt(`${addr}.0`, ['field', 'verb'])} ${textAt(addr, ['operator'])}`, entry).toBe(text)
      } else {
        expect(textAt(addr, ['keyword', 'value']), entry).toBe(text)
      }
    }
  })
})
