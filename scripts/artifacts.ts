import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { buildOpenApiDocument } from '@oqlkit/http'
import { OQL_PARSE_DIAGNOSTIC_ENTRIES, URL_DIAGNOSTIC_CODES } from '@oqlkit/oql'
import { buildDiagnosticsRegistry, buildOqoJsonSchema, buildPropertiesPayload } from '@oqlkit/oqo-schema'
import { compile } from 'json-schema-to-typescript'
import wabt from 'wabt'

/** A generated file: its path from the repository root and its full text. */
export interface Artifact {
  readonly path: string
  readonly content: string
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`

const GENERATED_BANNER = `/* Generated from spec/oqo.schema.json by scripts/generate-artifacts.ts with json-schema-to-typescript.
 * Do not edit: run \`npm run generate\`. A test fails when this file drifts from the schema. */`

const KERNEL_SOURCE = 'packages/catalog/src/vectors/int8-dot-kernel.wat'

/**
 * The vector kernel's WebAssembly, compiled from its text with wabt and committed as base64, so that neither
 * an install nor a build needs a WebAssembly toolchain.
 */
const buildKernelModule = async (): Promise<string> => {
  const source = await readFile(resolve(import.meta.dirname, '..', KERNEL_SOURCE), 'utf8')
  const tools = await wabt()
  const module = tools.parseWat(KERNEL_SOURCE, source, { simd: true })
  try {
    module.validate()
    const { buffer } = module.toBinary({})
    const base64 = Buffer.from(buffer).toString('base64')
    return `// Generated from ${KERNEL_SOURCE.split('/').at(-1)} by scripts/generate-artifacts.ts with wabt. Do not edit: run
// \`npm run generate\`. A test fails when this file drifts from its source.
export const INT8_DOT_KERNEL_BASE64 =
  '${base64}'
`
  } finally {
    module.destroy()
  }
}

/**
 * Every committed artifact that is generated from code: the OQO JSON Schema (from the arktype
 * validators), the TypeScript types generated from that schema, the properties registry as
 * `/properties` serves it, the diagnostics code registry, the OpenAPI description of the server and the vector
 * kernel's WebAssembly.
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
    { path: 'packages/catalog/src/vectors/int8-dot-kernel.generated.ts', content: await buildKernelModule() },
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
