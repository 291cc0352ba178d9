// Validates real requests and responses against spec/openapi.json: finds the operation a request path
// matches (concrete paths before templated ones, as OpenAPI says), takes the schema of the documented
// response for the status, and validates the body with ajv (draft 2020-12, the dialect of OpenAPI 3.1).
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'

export type OpenApiDocument = {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: Record<string, Record<string, Record<string, unknown>>>
} & Record<string, unknown>

export interface Operation {
  readonly operationId: string
  readonly responses: Record<string, Record<string, unknown>>
  readonly requestBody?: { content: Record<string, unknown> }
  readonly 'x-oqlkit-status'?: string
  readonly [key: string]: unknown
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

const DOCUMENT_ID = 'https://oqlkit.invalid/openapi.json'

// A JSON pointer segment inside a URI fragment: `~` and `/` escaped, then percent-encoded.
const pointerSegment = (segment: string): string =>
  encodeURIComponent(segment.replaceAll('~', '~0').replaceAll('/', '~1'))

const pointer = (...segments: string[]): string => `${DOCUMENT_ID}#/${segments.map(pointerSegment).join('/')}`

interface PathPattern {
  readonly path: string
  readonly pattern: RegExp
  readonly literalSegments: number
}

export interface Validation {
  readonly operation: string
  readonly status: string
  readonly valid: boolean
  readonly errors: readonly (ErrorObject | string)[]
}

export class OpenApiValidator {
  readonly document: OpenApiDocument
  readonly #ajv: Ajv2020
  readonly #compiled = new Map<string, ValidateFunction>()
  readonly #patterns: readonly PathPattern[]
  /** `GET /{entities} 200`, for every response validated. */
  readonly exercised = new Set<string>()

  constructor(document: OpenApiDocument) {
    this.document = document
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
    this.#ajv.addSchema({ ...document, $id: DOCUMENT_ID })
    // Concrete paths first, then those with more literal segments: `/properties/{entity}` before `/{entities}/{id}`.
    this.#patterns = Object.keys(document.paths)
      .map((path) => {
        const segments = path.split('/').slice(1)
        const pattern = segments
          .map((segment, index) =>
            /^\{.+\}$/.test(segment)
              ? // The last parameter of a longer path takes the rest (`/query/oql/{oql}`, a DOI as `{id}`).
                index === segments.length - 1 && index > 0
                ? '(.*)'
                : '([^/]+)'
              : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
          )
          .join('/')
        return {
          path,
          pattern: new RegExp(`^/${pattern}$`),
          literalSegments: segments.filter((segment) => !segment.startsWith('{')).length,
        }
      })
      .sort((a, b) => b.literalSegments - a.literalSegments)
  }

  /** The documented path a request path falls under, or undefined. */
  pathOf(requestPath: string): string | undefined {
    const path = requestPath.split('?')[0] ?? ''
    return this.#patterns.find((candidate) => candidate.pattern.test(path))?.path
  }

  operation(method: string, path: string): Operation | undefined {
    return this.document.paths[path]?.[method.toLowerCase()]
  }

  #validator(ref: string): ValidateFunction {
    let validate = this.#compiled.get(ref)
    if (validate === undefined) {
      validate = this.#ajv.compile({ $ref: ref })
      this.#compiled.set(ref, validate)
    }
    return validate
  }

  /** The operation of the document a request goes to (an error when there is none). */
  #operationOf(method: string, requestPath: string) {
    const path = this.pathOf(requestPath)
    const lower = method.toLowerCase()
    const operation = path === undefined ? undefined : this.operation(lower, path)
    if (path === undefined || operation === undefined)
      throw new Error(`${method} ${requestPath}: no operation of the document matches`)
    return { path, lower, operation, name: `${method.toUpperCase()} ${path}` }
  }

  /** Validates a response body against the schema the document gives for the operation and status. */
  validateResponse(method: string, requestPath: string, status: number, body: unknown): Validation {
    const { path, lower, operation, name } = this.#operationOf(method, requestPath)
    const key = String(status) in operation.responses ? String(status) : 'default'
    const response = operation.responses[key]
    if (response === undefined) throw new Error(`${name}: status ${status} is not documented`)
    let base = pointer('paths', path, lower, 'responses', key)
    let resolved = response
    if (typeof response.$ref === 'string') {
      const componentName = response.$ref.split('/').at(-1)!
      base = pointer('components', 'responses', componentName)
      resolved = this.document.components.responses?.[componentName] ?? {}
    }
    if ((resolved.content as Record<string, unknown> | undefined)?.['application/json'] === undefined)
      throw new Error(`${name} ${key}: no application/json schema`)
    const validate = this.#validator(`${base}/content/application~1json/schema`)
    const valid = validate(body) as boolean
    this.exercised.add(`${name} ${key}`)
    return { operation: name, status: key, valid, errors: validate.errors ?? [] }
  }

  /**
   * Checks a response that is not JSON (a page, a script, a 304) against the document: its status is
   * documented for the operation, with the response's media type among the documented ones, or with no
   * content documented when the response has no body.
   */
  validateMediaResponse(
    method: string,
    requestPath: string,
    status: number,
    contentType: string | null,
  ): Validation {
    const { operation, name } = this.#operationOf(method, requestPath)
    const response = operation.responses[String(status)]
    if (response === undefined) throw new Error(`${name}: status ${status} is not documented`)
    const documented = Object.keys((response.content as Record<string, unknown> | undefined) ?? {})
    const mediaType = contentType?.split(';')[0]?.trim() ?? null
    const valid = mediaType === null ? documented.length === 0 : documented.includes(mediaType)
    this.exercised.add(`${name} ${status}`)
    return {
      operation: name,
      status: String(status),
      valid,
      errors: valid
        ? []
        : [`${mediaType ?? 'no body'} is not among the documented ${documented.join(', ') || 'no content'}`],
    }
  }

  /** Validates a request body against the operation's `application/json` request schema. */
  validateRequestBody(method: string, requestPath: string, body: unknown): Validation {
    const path = this.pathOf(requestPath)
    const lower = method.toLowerCase()
    if (path === undefined || this.operation(lower, path)?.requestBody === undefined)
      throw new Error(`${method} ${requestPath}: no request body is documented`)
    const validate = this.#validator(
      `${pointer('paths', path, lower, 'requestBody', 'content', 'application/json', 'schema')}`,
    )
    const valid = validate(body) as boolean
    return {
      operation: `${method.toUpperCase()} ${path}`,
      status: 'request',
      valid,
      errors: validate.errors ?? [],
    }
  }

  /** Every documented `METHOD path status` of the operations this server serves (not `planned`). */
  documentedResponses(keep: (status: string) => boolean): string[] {
    const all: string[] = []
    for (const [path, item] of Object.entries(this.document.paths))
      for (const method of HTTP_METHODS) {
        const operation = item[method]
        if (operation === undefined || operation['x-oqlkit-status'] === 'planned') continue
        for (const status of Object.keys(operation.responses))
          if (keep(status)) all.push(`${method.toUpperCase()} ${path} ${status}`)
      }
    return all
  }
}
