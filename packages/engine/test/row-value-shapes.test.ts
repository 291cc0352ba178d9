import { MAP_KEYS_THRESHOLD, RowShapes, type ValueShape } from '@oqlkit/engine'
import { describe, expect, it } from 'vitest'

const struct = (fields: Record<string, ValueShape>): ValueShape => ({
  kind: 'struct',
  fields: new Map(Object.entries(fields)),
})
const of = (kind: ValueShape['kind']): ValueShape => ({ kind }) as ValueShape

/** The shapes of `batches` of rows, one `add` a batch, as a name → shape object. */
const shapesOf = (
  batches: readonly (readonly Record<string, unknown>[])[],
  named: readonly string[] = [],
  hints: Record<string, ValueShape> = {},
) => {
  const shapes = new RowShapes(named, new Map(Object.entries(hints)))
  for (const rows of batches) shapes.add(rows)
  return shapes.columns()
}

describe('RowShapes', () => {
  it('keeps a registry type where the first rows, or all of them, are null', () => {
    const columns = shapesOf(
      [
        [{ id: 'W1', publication_year: null, fwci: null }],
        [{ id: 'W2', publication_year: 2020, fwci: null }],
      ],
      [],
      { publication_year: of('integer'), fwci: of('float') },
    )
    expect(columns).toEqual([
      { name: 'id', shape: of('text') },
      { name: 'publication_year', shape: of('integer') },
      { name: 'fwci', shape: of('float') },
    ])
  })

  it('names the selected columns first, in their order, typed even when no row has them', () => {
    expect(
      shapesOf([], ['id', 'publication_year', 'open_access'], { publication_year: of('integer') }),
    ).toEqual([
      { name: 'id', shape: of('null') },
      { name: 'publication_year', shape: of('integer') },
      { name: 'open_access', shape: of('null') },
    ])
  })

  it('shapes nested objects and lists from every row, fields learnt late included', () => {
    const columns = shapesOf([
      [{ open_access: { is_oa: true }, authorships: [] }],
      [{ open_access: null, authorships: [{ author: { id: 'A1' }, countries: ['FR'] }] }],
      [{ open_access: { is_oa: false, oa_url: 'x' }, authorships: [{ author: { id: 'A2', orcid: null } }] }],
    ])
    expect(columns).toEqual([
      { name: 'open_access', shape: struct({ is_oa: of('boolean'), oa_url: of('text') }) },
      {
        name: 'authorships',
        shape: {
          kind: 'list',
          of: struct({
            author: struct({ id: of('text'), orcid: of('null') }),
            countries: { kind: 'list', of: of('text') },
          }),
        },
      },
    ])
  })

  it('widens a column to hold every value: integers to floats, dates to timestamps, mixed scalars to text', () => {
    const columns = shapesOf(
      [
        [{ n: 1, d: '2020-01-02', u: '2020-01-02', s: 1, mixed: 1 }],
        [{ n: 2.5, d: '2020-01-02', u: '2023-05-16T14:50:18.726146', s: 'one', mixed: { a: 1 } }],
      ],
      [],
      { d: of('date'), u: of('date') },
    )
    expect(Object.fromEntries(columns.map((column) => [column.name, column.shape.kind]))).toEqual({
      n: 'float',
      d: 'date',
      u: 'timestamp',
      s: 'text',
      mixed: 'json',
    })
  })

  it('types a date column as text when a value is no calendar day, and infers no date without a hint', () => {
    const columns = shapesOf([[{ d: '2023-02-30', e: '2020-01-02', t: '2020-01-02T10:00:00+02:00' }]], [], {
      d: of('date'),
      t: of('timestamp'),
    })
    expect(columns.map((column) => column.shape.kind)).toEqual(['text', 'text', 'text'])
  })

  it('makes a hinted scalar field that holds lists a list of the hinted type', () => {
    const columns = shapesOf([[{ ids: [] }], [{ ids: ['A1', 'A2'] }], [{ empty: [] }]], [], {
      ids: of('text'),
      empty: of('integer'),
    })
    expect(columns).toEqual([
      { name: 'ids', shape: { kind: 'list', of: of('text') } },
      { name: 'empty', shape: { kind: 'list', of: of('integer') } },
    ])
  })

  it('makes an object with more keys than a struct takes a map of its values', () => {
    const index = (words: number, offset: number) =>
      Object.fromEntries(Array.from({ length: words }, (_, i) => [`w${i + offset}`, [i]]))
    const columns = shapesOf([
      [{ abstract_inverted_index: index(MAP_KEYS_THRESHOLD - 10, 0) }],
      [{ abstract_inverted_index: index(20, MAP_KEYS_THRESHOLD) }],
      [{ abstract_inverted_index: { Word: [1], word: [2] } }],
    ])
    expect(columns).toEqual([
      { name: 'abstract_inverted_index', shape: { kind: 'map', of: { kind: 'list', of: of('integer') } } },
    ])
    // Keys that differ only by case cannot be fields of one struct either.
    expect(shapesOf([[{ o: { Word: 1 } }, { o: { word: 2 } }]])[0]!.shape).toEqual({
      kind: 'map',
      of: of('integer'),
    })
  })
})
