import { buildOqoJsonSchema } from '@oqlkit/oqo-schema'
import { buildOpenApiDocument } from '../openapi/openapi-document.ts'

/** One specification artifact the server serves. */
export interface SpecArtifact {
  readonly slug: string
  readonly filename: string
  readonly content_type: string
  readonly url: string
}

/** The artifacts of the contract this server serves (each is also committed in `spec/`). */
export const SPEC_ARTIFACTS: readonly SpecArtifact[] = Object.freeze([
  { slug: 'oqo', filename: 'oqo.schema.json', content_type: 'application/json', url: '/query/spec/oqo' },
  { slug: 'api', filename: 'openapi.json', content_type: 'application/json', url: '/openapi.json' },
  { slug: 'properties', filename: 'properties.json', content_type: 'application/json', url: '/properties' },
])

/** `GET /query/spec`: the index of the specification artifacts. */
export const querySpecIndexHandler = (): unknown => ({ artifacts: SPEC_ARTIFACTS })

let oqoSchema: Record<string, unknown> | undefined
let openApi: Record<string, unknown> | undefined

/** `GET /query/spec/oqo`: the OQO JSON Schema (draft 2020-12), as `spec/oqo.schema.json` holds it. */
export const oqoSchemaHandler = (): unknown => {
  oqoSchema ??= buildOqoJsonSchema() as Record<string, unknown>
  return oqoSchema
}

/** `GET /openapi.json`: the OpenAPI 3.1 description of this server, as `spec/openapi.json` holds it. */
export const openApiHandler = (): unknown => {
  openApi ??= buildOpenApiDocument()
  return openApi
}
