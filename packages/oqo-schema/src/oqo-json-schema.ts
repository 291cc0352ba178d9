import type { JsonSchema } from 'arktype'
import {
  branchFilterValidator,
  entityTypeValidator,
  groupByValidator,
  leafFilterValidator,
  operatorValidator,
  oqoValidator,
} from './oqo-validators.ts'

export const OQO_SCHEMA_ID = 'urn:oqlkit:schema:oqo:1.4'

type JsonObject = { [key: string]: unknown }

const withoutDialect = (schema: JsonSchema): JsonObject => {
  const { $schema: _dialect, ...rest } = schema as JsonObject
  return rest
}

const describeProperties = (
  schema: JsonObject,
  descriptions: Readonly<Record<string, string>>,
): JsonObject => {
  const properties = schema.properties as Record<string, JsonObject>
  const described: Record<string, JsonObject> = {}
  // Keep the validator's property order stable but readable: required keys first, then the rest as declared.
  for (const key of Object.keys(descriptions)) {
    const property = properties[key]
    if (property === undefined) throw new Error(`No property '${key}' in the validator to describe`)
    described[key] = { ...property, description: descriptions[key] }
  }
  for (const key of Object.keys(properties)) {
    if (!(key in described)) throw new Error(`Property '${key}' of the validator has no description`)
  }
  return { ...schema, properties: described }
}

const ref = (name: string) => ({ $ref: `#/$defs/${name}` })

/**
 * Builds the canonical OQO JSON Schema from the arktype validators, adding the recursion (which the
 * validators leave to the tree walker) and the descriptions. `spec/oqo.schema.json` is this output;
 * a test fails when the two drift apart.
 */
export const buildOqoJsonSchema = (): JsonObject => {
  const top = describeProperties(withoutDialect(oqoValidator.toJsonSchema()), {
    get_rows: 'The entity type whose rows the query returns.',
    corpus:
      "Works only: which corpus seeds the result set. 'core' (the default, omitted in canonical form), 'expansion' (the expansion corpus alone) or 'all' (both).",
    filter_rows: 'Filters on the rows; top-level entries are implicitly AND-joined.',
    group_by: 'Group-by dimensions, in order.',
    sample: 'Return a random sample of this many matching rows instead of all of them.',
    seed: 'Makes a sample reproducible. Canonically a string; an integer is accepted and turned into its string.',
  })
  const topProperties = top.properties as Record<string, JsonObject>
  // A `$ref` stands alone: a sibling description would make json-schema-to-typescript emit a second type.
  topProperties.get_rows = ref('EntityTypeName')
  topProperties.filter_rows = { ...topProperties.filter_rows, items: ref('Filter') }
  topProperties.group_by = { ...topProperties.group_by, items: ref('GroupBy') }

  const branch = describeProperties(withoutDialect(branchFilterValidator.toJsonSchema()), {
    join: "'and' requires every child; 'or' requires at least one.",
    filters: 'The children: leaves or branches, nested to any depth.',
    is_negated: 'Negates the whole branch; canonicalisation pushes it to the leaves (De Morgan).',
  })
  const branchProperties = branch.properties as Record<string, JsonObject>
  branchProperties.filters = { ...branchProperties.filters, items: ref('Filter') }

  const leaf = describeProperties(withoutDialect(leafFilterValidator.toJsonSchema()), {
    column_id: 'A column id of the properties registry (dot notation), or one of its alternate keys.',
    value:
      'The bare value: an id without prefix (I136199984), a code (US, article, 3), a number, a boolean, search text, a collection id (col_…), or null for a missing value.',
    operator: "The comparison; 'is' when absent. Negation is is_negated, never an operator.",
    is_negated: 'True negates the leaf.',
  })
  const leafProperties = leaf.properties as Record<string, JsonObject>
  leafProperties.operator = ref('Operator')

  const groupBy = describeProperties(withoutDialect(groupByValidator.toJsonSchema()), {
    column_id: 'The column to group by.',
  })

  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: OQO_SCHEMA_ID,
    title: 'Oqo',
    description:
      'An OQO (OpenAlex Query Object) v1.4: which rows a query matches. Sorting, column selection and paging are sibling request parameters, not part of the object.',
    ...top,
    $defs: {
      EntityTypeName: {
        title: 'EntityTypeName',
        description: "The entity type whose rows the query returns; 'work-types' is another name of 'types'.",
        ...withoutDialect(entityTypeValidator.toJsonSchema()),
      },
      Operator: {
        title: 'Operator',
        description: "A leaf comparison, 'is' when absent. Strictly affirmative: negation is is_negated.",
        ...withoutDialect(operatorValidator.toJsonSchema()),
      },
      Filter: {
        title: 'Filter',
        description: 'A leaf (one condition) or a branch (a boolean combination).',
        oneOf: [ref('LeafFilter'), ref('BranchFilter')],
      },
      LeafFilter: { title: 'LeafFilter', description: 'One condition on one column.', ...leaf },
      BranchFilter: { title: 'BranchFilter', description: 'A boolean combination of filters.', ...branch },
      GroupBy: { title: 'GroupBy', description: 'One group-by dimension.', ...groupBy },
    },
  }
}
