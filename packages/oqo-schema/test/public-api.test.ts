import * as oqoSchema from '@oqlkit/oqo-schema'
import { expect, it } from 'vitest'

// The public surface is deliberate: adding or removing an export shows up here first.
it('exports exactly its public API', () => {
  expect(Object.keys(oqoSchema).sort()).toMatchInlineSnapshot(`
    [
      "COLLECTION_ID",
      "CORPORA",
      "ENTITY_TYPES",
      "ENTITY_TYPE_ALIASES",
      "JOINS",
      "LEGACY_VIEW_KEYS",
      "MAX_SAMPLE",
      "NATIVE_ID_PREFIXES",
      "OPERATORS",
      "OQO_SCHEMA_ID",
      "PropertiesRegistry",
      "VALIDATION_CODES",
      "VALUE_KINDS",
      "VOCABULARY_ENTITY_TYPES",
      "bareVocabularyCode",
      "branchFilterValidator",
      "buildDiagnosticsRegistry",
      "buildOqoJsonSchema",
      "buildPropertiesPayload",
      "canonicalizeOqo",
      "closestMatches",
      "columnAllows",
      "columnCan",
      "columnsOf",
      "entityPath",
      "findColumnsByWord",
      "findVocabularyEntry",
      "formatPath",
      "groupByValidator",
      "isBranch",
      "isEntityType",
      "isVocabularyEntityType",
      "leafFilterValidator",
      "oqoInputValidator",
      "oqoValidator",
      "parseNativeId",
      "propertiesRegistry",
      "readOqo",
      "resolveColumn",
      "resolveEntityType",
      "similarity",
      "suggestColumns",
      "validateOqo",
      "vocabularyOf",
    ]
  `)
})
