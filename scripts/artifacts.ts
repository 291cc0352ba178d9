import { buildOpenApiDocument } from '@oqlkit/http'
import { OQL_PARSE_DIAGNOSTIC_ENTRIES, URL_DIAGNOSTIC_CODES } from '@oqlkit/oql'
import { buildDiagnosticsRegistry, buildOqoJsonSchema, buildPropertiesPayload } from '@oqlkit/oqo-schema'
import { compile } from 'json-schema-to-typescript'

/** A generated file: its path from the repository root and its full text. */
export interface Artifact {
  readonly path: string
  readonly content: string
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`

const GENERATED_BANNER = `/* Generated from spec/oqo.schema.json by scripts/generate-artifacts.ts with json-schema-to-typescript.
 * Do not edit: run \`npm run generate\`. A test fails when this file drifts from the schema. */`

/**
 * Every committed artifact that is generated from code: the OQO JSON Schema (from the arktype
 * validators), the TypeScript types generated from that schema, the properties registry as
 * `/properties` serves it, the diagnostics code registry and the OpenAPI description of the server.
 */
export const buildArtifacts = async (): Promise<Artifact[]> => {
  const schema = buildOqoJsonSchema()
  const types = await compile(structuredClone(schema) as Parameters<typeof compile>[0], 'Oqo', {
    bannerComment: GENERATED_BANNER,
    additionalProperties: false,
    strictIndexSignatures: true,
    unreachableDefinitions: true,
    ignoreMinAndMaxItems: true,
    style: { semi: false, singleQuote: true, printWidth: 110 },
  })
  return [
    { path: 'spec/oqo.schema.json', content: json(schema) },
    { path: 'packages/oqo-schema/src/oqo.generated.ts', content: types },
    { path: 'spec/properties.json', content: json(buildPropertiesPayload()) },
    { path: 'spec/openapi.json', content: json(buildOpenApiDocument()) },
    {
      path: 'spec/diagnostics.json',
      content: json(
        buildDiagnosticsRegistry([
          ...OQL_PARSE_DIAGNOSTIC_ENTRIES,
          ...Object.entries(URL_DIAGNOSTIC_CODES).map(([code, summary]) => ({
            code,
            severity:
              code === 'url_not_representable' || code.startsWith('deprecated') || code.endsWith('_dropped')
                ? ('warning' as const)
                : ('error' as const),
            source: 'url' as const,
            summary,
          })),
        ]),
      ),
    },
  ]
}
