import { canonicalizeOqo, type EntityType, type Oqo } from '@oqlkit/oqo-schema'
import { oqoArbitrary } from '@oqlkit/oqo-schema/testing'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  type OqlRenderLine,
  printOql,
  printOqlOneline,
  renderOqlTree,
  renderTreeText,
} from '../src/printer/index.ts'

// Properties over every entity and every filterable column: the printer always has an answer, the
// layout keeps to the width, and the three outputs (wrapped, one line, token tree) say the same thing.

const canonicalOqo = oqoArbitrary().chain((oqo) =>
  fc.boolean().map((sortOperands) => canonicalizeOqo(oqo, { sortOperands })),
)

// Names for every id: a fixed pseudo-name, long enough now and then to be truncated.
const names = (entity: EntityType, id: string): string | undefined =>
  id.endsWith('7') ? undefined : `${entity} ${id} ${id.length % 3 === 0 ? 'x'.repeat(60) : 'name'}`

const lineText = (line: OqlRenderLine): string =>
  ' '.repeat(line.indent) + line.tokens.map((token) => token.text).join('')

/** A line may run past the width only when what it holds cannot break: one value atom. */
const valueAtoms = (line: OqlRenderLine): number =>
  new Set(line.tokens.filter((token) => token.role === 'value').map((token) => token.addr)).size

const joinWrapped = (text: string): string =>
  text
    .split('\n')
    .map((line) => line.trimStart())
    .reduce((joined, line) =>
      joined.endsWith('(') || line.startsWith(')') ? joined + line : `${joined} ${line}`,
    )

const RUNS = { numRuns: 200 }

describe('printOql properties', () => {
  it('prints every valid canonical OQO of every entity without throwing', () => {
    fc.assert(
      fc.property(canonicalOqo, (oqo) => {
        const text = printOql(oqo, { names })
        expect(text.startsWith(oqo.get_rows)).toBe(true)
        expect(text.trim()).toBe(text)
      }),
      RUNS,
    )
  })

  it('keeps every line within 80 columns unless it holds a single unbreakable value', () => {
    fc.assert(
      fc.property(canonicalOqo, (oqo) => {
        for (const line of renderOqlTree(oqo, { names }).lines)
          if ([...lineText(line)].length > 80) expect(valueAtoms(line), lineText(line)).toBeLessThanOrEqual(1)
      }),
      RUNS,
    )
  })

  it('gives a token tree whose text is the printed OQL', () => {
    fc.assert(
      fc.property(canonicalOqo, fc.constantFrom(40, 80, 120), (oqo, width) => {
        expect(renderTreeText(renderOqlTree(oqo, { names, width }))).toBe(printOql(oqo, { names, width }))
      }),
      RUNS,
    )
  })

  it('prints the same text twice, and one line that is the wrapped text joined', () => {
    fc.assert(
      fc.property(canonicalOqo, (oqo) => {
        const wrapped = printOql(oqo, { names })
        expect(printOql(structuredClone(oqo), { names })).toBe(wrapped)
        const oneline = printOqlOneline(oqo, { names })
        expect(oneline).not.toContain('\n')
        expect(oneline).toBe(joinWrapped(wrapped))
      }),
      RUNS,
    )
  })

  it('annotates only when a lookup is given', () => {
    fc.assert(
      fc.property(canonicalOqo, (oqo: Oqo) => {
        const bare = renderOqlTree(oqo).lines.flatMap((line) => line.tokens)
        expect(bare.filter((token) => token.role === 'annotation')).toEqual([])
        const annotated = renderOqlTree(oqo, { names })
          .lines.flatMap((line) => line.tokens)
          .filter((token) => token.role === 'annotation')
        for (const token of annotated) expect([...token.text].length).toBeLessThanOrEqual(52)
      }),
      RUNS,
    )
  })
})
