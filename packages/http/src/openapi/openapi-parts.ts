import { ref, type Schema } from './openapi-schemas.ts'

/** A piece of the OpenAPI document (an operation, a parameter, a response) as a plain object. */
export type OpenApiObject = Record<string, unknown>

/** A JSON response with a schema. */
export const json = (description: string, schema: Schema, headers?: OpenApiObject): OpenApiObject => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: { 'application/json': { schema } },
})

/** A JSON response whose schema is a component. */
export const jsonOf = (description: string, schemaName: string, headers?: OpenApiObject): OpenApiObject =>
  json(description, ref(schemaName), headers)

/** A reference to a shared response of the components. */
export const response = (name: string): OpenApiObject => ({ $ref: `#/components/responses/${name}` })

/** A reference to a shared parameter of the components. */
export const parameter = (name: string): OpenApiObject => ({ $ref: `#/components/parameters/${name}` })

/** A required JSON request body. */
export const jsonBody = (description: string, schemaName: string): OpenApiObject => ({
  required: true,
  description,
  content: { 'application/json': { schema: ref(schemaName) } },
})

/** A query parameter. */
export const query = (
  name: string,
  description: string,
  schema: Schema = { type: 'string' },
): OpenApiObject => ({
  name,
  in: 'query',
  description,
  schema,
})

/** A path parameter. */
export const pathParameter = (
  name: string,
  description: string,
  schema: Schema = { type: 'string' },
): OpenApiObject => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
})

/** The marker of an operation the API description names but this server does not serve yet. */
export const PLANNED = { 'x-oqlkit-status': 'planned' } as const
