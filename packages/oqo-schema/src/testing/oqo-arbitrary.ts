import fc from 'fast-check'
import { ENTITY_TYPES, type EntityType, NATIVE_ID_PREFIXES } from '../entity-types.ts'
import type { BranchFilter, Filter, LeafFilter, Oqo } from '../oqo.generated.ts'
import type { Column, Operator } from '../registry/column.ts'
import { type PropertiesRegistry, propertiesRegistry } from '../registry/properties-registry.ts'
import { vocabularyOf } from '../vocabularies/vocabulary.ts'

// fast-check arbitraries for valid OQOs over the whole registry: every entity type, every filterable
// column, every operator it takes and a value of its kind, in branches nested a few levels deep.
// Other packages reuse them for their round-trip properties (OQO → OQL → OQO, OQO → URL → OQO).

export interface OqoArbitraryOptions {
  readonly registry?: PropertiesRegistry
  readonly entities?: readonly EntityType[]
  /** How deep branches nest below the top level. */
  readonly maxDepth?: number
}

const WORDS = [
  'cancer',
  'climate',
  'neural',
  'network',
  'graph',
  'ocean',
  'protein',
  'policy',
  'soil',
  'quantum',
]

const searchTextArbitrary = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 })
  .map((words) => words.join(' '))

const dateArbitrary = fc
  .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10))

const collectionIdArbitrary = fc
  .string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 1, maxLength: 12 })
  .map((suffix) => `col_${suffix}`)

const literalArbitrary = fc.string({
  unit: fc.constantFrom(...'abcdefghij0123456789.-'),
  minLength: 1,
  maxLength: 10,
})

const applyCasing = (column: Column, code: string): string =>
  column.casing === 'upper' ? code.toUpperCase() : column.casing === 'lower' ? code.toLowerCase() : code

/** A value of the column's kind that validation accepts for `operator`. */
export const valueArbitrary = (column: Column, operator: Operator): fc.Arbitrary<LeafFilter['value']> => {
  if (operator === 'in collection') return collectionIdArbitrary
  switch (column.kind) {
    case 'number':
      return fc.integer({ min: 0, max: 5000 })
    case 'float':
      return fc.integer({ min: 0, max: 100_000 }).map((hundredths) => hundredths / 100)
    case 'boolean':
      return fc.boolean()
    case 'date':
      return dateArbitrary
    case 'datetime':
      return dateArbitrary.map((date) => `${date}T12:30:00`)
    case 'search':
      return searchTextArbitrary
    case 'collection':
      return collectionIdArbitrary
    case 'enum':
    case 'entity_id': {
      const entity = column.valueEntity
      const vocabulary = entity === null ? undefined : vocabularyOf(entity)
      if (vocabulary !== undefined)
        return fc.constantFrom(...vocabulary.map((entry) => applyCasing(column, entry.code)))
      const prefix = entity === null ? 'W' : NATIVE_ID_PREFIXES[entity as keyof typeof NATIVE_ID_PREFIXES]
      if (prefix === undefined) return literalArbitrary.map((slug) => `keywords/${slug}`)
      return fc.integer({ min: 1, max: 4_999_999_999 }).map((digits) => `${prefix}${digits}`)
    }
    default:
      return literalArbitrary
  }
}

const filterableColumns = (registry: PropertiesRegistry, entity: EntityType): Column[] =>
  registry
    .columnsOf(entity, { includeUnlisted: false })
    .filter(
      (column) =>
        column.kind !== null &&
        column.operators.length > 0 &&
        (column.actions.includes('filter') ||
          column.actions.includes('search') ||
          column.kind === 'collection'),
    )

const columnLeafArbitrary = (column: Column): fc.Arbitrary<LeafFilter> =>
  fc.oneof(
    ...column.operators.map((operator) => {
      const canBeNull = operator === 'is' && column.operatorBuckets.includes('null')
      const value = canBeNull
        ? fc.oneof(
            { weight: 9, arbitrary: valueArbitrary(column, operator) },
            { weight: 1, arbitrary: fc.constant(null) },
          )
        : valueArbitrary(column, operator)
      return fc.tuple(value, fc.boolean()).map(([leafValue, negated]) => {
        const leaf: LeafFilter = { column_id: column.id, value: leafValue }
        if (operator !== 'is') leaf.operator = operator
        if (negated) leaf.is_negated = true
        return leaf
      })
    }),
  )

// Arbitraries are built once per registry and entity: building them is the slow part, not drawing.
const leafCache = new WeakMap<PropertiesRegistry, Map<EntityType, fc.Arbitrary<LeafFilter>>>()

export const leafArbitrary = (
  entity: EntityType,
  registry: PropertiesRegistry = propertiesRegistry,
): fc.Arbitrary<LeafFilter> => {
  const byEntity = leafCache.get(registry) ?? new Map<EntityType, fc.Arbitrary<LeafFilter>>()
  leafCache.set(registry, byEntity)
  const cached = byEntity.get(entity)
  if (cached !== undefined) return cached
  const leaf = fc.oneof(...filterableColumns(registry, entity).map(columnLeafArbitrary))
  byEntity.set(entity, leaf)
  return leaf
}

export const filterArbitrary = (
  entity: EntityType,
  options: OqoArbitraryOptions = {},
): fc.Arbitrary<Filter> => {
  const registry = options.registry ?? propertiesRegistry
  const leaf = leafArbitrary(entity, registry)
  const { tree } = fc.letrec<{ tree: Filter; branch: BranchFilter }>((tie) => ({
    tree: fc.oneof(
      { depthSize: 'small', withCrossShrink: true, maxDepth: options.maxDepth ?? 3 },
      leaf,
      tie('branch'),
    ),
    branch: fc
      .record({
        join: fc.constantFrom('and' as const, 'or' as const),
        filters: fc.array(tie('tree'), { minLength: 1, maxLength: 3 }),
        negated: fc.boolean(),
      })
      .map(({ join, filters, negated }) =>
        negated ? { join, filters, is_negated: true } : { join, filters },
      ),
  }))
  return tree
}

/** A valid OQO (not necessarily canonical) of one of `entities` (all 24 by default). */
const entityOqoArbitrary = (entity: EntityType, options: OqoArbitraryOptions): fc.Arbitrary<Oqo> => {
  const registry = options.registry ?? propertiesRegistry
  const groupable = registry
    .columnsOf(entity, { includeUnlisted: false })
    .filter((column) => column.actions.includes('group_by'))
  return fc
    .record({
      filters: fc.array(filterArbitrary(entity, options), { maxLength: 4 }),
      groupBy:
        groupable.length === 0
          ? fc.constant<Column[]>([])
          : fc.array(fc.constantFrom(...groupable), { maxLength: 2 }),
      sample: fc.option(fc.integer({ min: 1, max: 10_000 }), { nil: undefined }),
      seed: fc.option(fc.stringMatching(/^[a-z0-9]{1,8}$/), { nil: undefined }),
      corpus: fc.constantFrom('core' as const, 'expansion' as const, 'all' as const),
    })
    .map(({ filters, groupBy, sample, seed, corpus }) => {
      const oqo: Oqo = { get_rows: entity }
      if (entity === 'works' && corpus !== 'core') oqo.corpus = corpus
      if (filters.length > 0) oqo.filter_rows = filters
      if (sample !== undefined) {
        oqo.sample = sample
        if (seed !== undefined) oqo.seed = seed
      }
      if (groupBy.length > 0) oqo.group_by = groupBy.map((column) => ({ column_id: column.id }))
      return oqo
    })
}

/** A valid OQO (not necessarily canonical) of one of `entities` (all 24 by default). */
export const oqoArbitrary = (options: OqoArbitraryOptions = {}): fc.Arbitrary<Oqo> =>
  fc.oneof(...(options.entities ?? ENTITY_TYPES).map((entity) => entityOqoArbitrary(entity, options)))
