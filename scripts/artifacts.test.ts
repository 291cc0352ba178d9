import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { EntityTypeName, Oqo } from '@oqlkit/oqo-schema'
import { oqoValidator, readOqo } from '@oqlkit/oqo-schema'
import { oqoArbitrary } from '@oqlkit/oqo-schema/testing'
import { Ajv2020 } from 'ajv/dist/2020.js'
import fc from 'fast-check'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { buildArtifacts } from './artifacts.ts'

const root = resolve(import.meta.dirname, '..')
const artifacts = await buildArtifacts()

const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(resolve(root, path), 'utf8'))

describe('generated artifacts', () => {
  it.each(artifacts.map((artifact) => [artifact.path, artifact] as const))(
    '%s is committed as generated (run `npm run generate` after changing its source)',
    (path, artifact) => {
      expect(readFileSync(resolve(root, path), 'utf8')).toBe(artifact.content)
    },
  )

  it('the TypeScript types generated from the schema are the validator’s own types', () => {
    type Validated = typeof oqoValidator.infer
    expectTypeOf<Validated['get_rows']>().toEqualTypeOf<EntityTypeName>()
    expectTypeOf<NonNullable<Validated['corpus']>>().toEqualTypeOf<NonNullable<Oqo['corpus']>>()
    expectTypeOf<NonNullable<Validated['sample']>>().toEqualTypeOf<NonNullable<Oqo['sample']>>()
    expectTypeOf<NonNullable<Validated['seed']>>().toEqualTypeOf<NonNullable<Oqo['seed']>>()
    expectTypeOf<NonNullable<Validated['group_by']>>().toEqualTypeOf<NonNullable<Oqo['group_by']>>()
  })
})

describe('spec/oqo.schema.json', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false })
  const ours = ajv.compile(readJson('spec/oqo.schema.json'))
  const publicSchema = ajv.compile(readJson('spec/conformance/public-oqo-schema-v1.4.json'))
  const corpus = [
    ...(readJson('spec/conformance/oql-corpus.json').rows as Array<{ oqo?: Oqo | null }>),
    ...(readJson('spec/conformance/oql-corpus-newer-rows.json').rows as Array<{ oqo?: Oqo | null }>),
  ].flatMap((row) => (row.oqo == null ? [] : [row.oqo]))

  it('accepts every corpus OQO, as the public v1.4 schema does', () => {
    for (const oqo of corpus) {
      expect(ours(oqo), JSON.stringify(ours.errors)).toBe(true)
      expect(publicSchema(oqo), JSON.stringify(publicSchema.errors)).toBe(true)
    }
  })

  it('agrees with the validators on generated OQOs and on their canonical forms', () => {
    fc.assert(
      fc.property(oqoArbitrary(), (oqo) => {
        expect(ours(oqo)).toBe(true)
        const read = readOqo(oqo)
        expect(read.ok && ours(read.oqo)).toBe(true)
      }),
      { numRuns: 200 },
    )
  })

  it('rejects what the validators reject', () => {
    const broken = [
      { get_rows: 'works', extra: 1 },
      { get_rows: 'works', filter_rows: [{ join: 'and', filters: [] }] },
      {
        get_rows: 'works',
        filter_rows: [{ join: 'xor', filters: [{ column_id: 'type', value: 'article' }] }],
      },
      { get_rows: 'works', filter_rows: [{ column_id: 'type', value: [] }] },
      { get_rows: 'works', filter_rows: [{ column_id: 'type', value: 'article', operator: 'not' }] },
      { get_rows: 'works', sample: 0 },
      { get_rows: 'nothing' },
    ]
    for (const oqo of broken) {
      expect(ours(oqo), JSON.stringify(oqo)).toBe(false)
      expect(oqoValidator(oqo) instanceof Object && readOqo(oqo).ok).toBe(false)
    }
  })

  it('differs from the public v1.4 schema only where we decided to', () => {
    const publicJson = readJson('spec/conformance/public-oqo-schema-v1.4.json')
    const ourJson = readJson('spec/oqo.schema.json')
    const enumOf = (schema: Record<string, unknown>, name: string) =>
      new Set(((schema.$defs as Record<string, { enum: string[] }>)[name]?.enum ?? []) as string[])
    const publicEntities = enumOf(publicJson, 'EntityType')
    const ourEntities = enumOf(ourJson, 'EntityTypeName')
    // `indexes` is a valid entity the public enum forgot; `work-types` is the HTTP path's name for `types`.
    expect([...ourEntities].filter((entity) => !publicEntities.has(entity)).sort()).toEqual([
      'indexes',
      'work-types',
    ])
    expect([...publicEntities].filter((entity) => !ourEntities.has(entity))).toEqual([])
    expect(enumOf(ourJson, 'Operator')).toEqual(enumOf(publicJson, 'Operator'))
    expect(Object.keys(ourJson.properties as object).sort()).toEqual(
      Object.keys(publicJson.properties as object).sort(),
    )
  })
})
