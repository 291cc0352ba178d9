import * as oqoSchema from '@oqlkit/oqo-schema'
import { expect, it } from 'vitest'

// The public surface is deliberate: adding or removing an export shows up here first.
it('exports exactly its public API', () => {
  expect(Object.keys(oqoSchema).sort()).toMatchInlineSnapshot(`
    [
      "COLLECTION_ENTITY_TYPES",
      "COLLECTION_ID",
      "CORPORA",
      "ENTITY_TYPES",
      "ENTITY_TYPE_ALIASES",
      "JOINS",
      "LEGACY_VIEW_KEYS",
      "MAX_FILTER_DEPTH",
      "MAX_JSON_DEPTH",
      "MAX_SAMPLE",
      "NATIVE_ID_PREFIXES",
      "OPERATORS",
      "OQO_SCHEMA_ID",
      "PropertiesRegistry",
      "SERVED_ENTITY_TYPES",
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
      "compareEntityIds",
      "compareLetterIds",
      "decodePercentEscapes",
      "entityPath",
      "findColumnsByWord",
      "findVocabularyEntry",
      "formatPath",
      "groupByValidator",
      "idPathSegment",
      "isBranch",
      "isEntityType",
      "isVocabularyEntityType",
      "leafFilterValidator",
      "oqoInputValidator",
      "oqoValidator",
      "parseBoundedJson",
      "parseNativeId",
      "propertiesRegistry",
      "readOqo",
      "resolveColumn",
      "resolveEntityType",
      "similarity",
      "sortCanonicalOqo",
      "suggestColumns",
      "suggestVocabularyCode",
      "validateOqo",
      "vocabularyOf",
    ]
  `)
})

// The registry entry is the main one without what validates (and so without arktype): everything it exports
// is the main entry's too, and the main entry adds only these.
it('exports from /registry all of the main entry but validation and JSON reading', async () => {
  const registry: Record<string, unknown> = { ...(await import('@oqlkit/oqo-schema/registry')) }
  const main: Record<string, unknown> = { ...oqoSchema }
  expect(Object.keys(registry).length).toBeGreaterThan(30)
  for (const [name, value] of Object.entries(registry)) expect(main[name], name).toBe(value)
  const mainOnly = Object.keys(main).filter((name) => !(name in registry))
  expect(mainOnly.sort()).toMatchInlineSnapshot(`
    [
      "CORPORA",
      "JOINS",
      "LEGACY_VIEW_KEYS",
      "MAX_FILTER_DEPTH",
      "MAX_JSON_DEPTH",
      "MAX_SAMPLE",
      "OQO_SCHEMA_ID",
      "VALIDATION_CODES",
      "branchFilterValidator",
      "buildDiagnosticsRegistry",
      "buildOqoJsonSchema",
      "canonicalizeOqo",
      "formatPath",
      "groupByValidator",
      "leafFilterValidator",
      "oqoInputValidator",
      "oqoValidator",
      "parseBoundedJson",
      "readOqo",
      "sortCanonicalOqo",
      "validateOqo",
    ]
  `)
})
