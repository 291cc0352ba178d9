import { DEFAULT_GROUPS_PER_PAGE, DEFAULT_MAX_PER_PAGE, DEFAULT_PER_PAGE } from '@oqlkit/engine'
import { entityPath } from '@oqlkit/oqo-schema'
import { API_ENTITIES } from '../request/entity-paths.ts'
import { MAX_REQUEST_LINE_BYTES } from '../request/request-line-limit.ts'
import {
  json,
  jsonBody,
  jsonOf,
  type OpenApiObject,
  parameter,
  pathParameter,
  query,
  response,
} from './openapi-parts.ts'
import { ref } from './openapi-schemas.ts'

const ENTITY_PATHS = API_ENTITIES.map(entityPath)

// What both type-ahead operations share.
const HIDE_ZERO = query('hide_zero', 'Leave out entities without works.', { type: 'boolean' })
const AUTOCOMPLETE_RESPONSES = {
  200: jsonOf('Suggestions, best first.', 'AutocompleteResponse'),
  400: response('BadRequest'),
  default: response('ServerError'),
}

/** The parameters the components hold, shared by several operations. */
export const componentParameters = (): Record<string, OpenApiObject> => ({
  entities: pathParameter('entities', 'The entity type, by its path name.', { enum: ENTITY_PATHS }),
  filter: query(
    'filter',
    '`field:value` pairs separated by commas (AND); `|` separates OR values (at most 100); a leading `!` negates a value; `>`/`<` prefixes compare numbers. `collection:col_…` filters on a private collection.',
  ),
  search: query('search', 'Full-text search over the entity’s default text (title and abstract for works).'),
  'search.semantic': query(
    'search.semantic',
    'Works only: the works nearest in meaning to this passage (1 to 2,000 characters), by cosine similarity of embeddings of their title and abstract. At most 50 works match (the nearest among those the filters keep); `meta.count` is how many, `relevance_score` the cosine, pages and groups are taken from them. Not combinable with `search`; costs $0.01.',
  ),
  sort: query(
    'sort',
    '`column:direction`, comma-separated (`cited_by_count:desc`); `relevance_score:desc` with a search. Ties are broken by the id: letter ids (`W123`) by their number (`W99854102` before `W4390000001`), other ids by their text.',
  ),
  per_page: query(
    'per_page',
    `Results per page: 1 to ${DEFAULT_MAX_PER_PAGE}, as the public server takes (default ${DEFAULT_PER_PAGE}; a group_by answers up to ${DEFAULT_GROUPS_PER_PAGE} buckets when per_page is not given). A server's operator may set another limit (\`oqlkit serve --max-per-page N\`); the API description's strict limit is 100. \`per-page\` is the same.`,
    { type: 'integer', minimum: 1, maximum: DEFAULT_MAX_PER_PAGE },
  ),
  page: query('page', 'The page number (basic paging reaches 10,000 results; go further with a cursor).', {
    type: 'integer',
    minimum: 1,
  }),
  cursor: query('cursor', 'Cursor paging: `*` for the first page, then `meta.next_cursor`.'),
  sample: query('sample', 'A random sample of this many matching rows (at most 10,000).', {
    type: 'integer',
    minimum: 1,
    maximum: 10000,
  }),
  seed: query('seed', 'Makes a sample reproducible (and its pages consistent).'),
  select: query('select', 'Top-level fields to return, comma-separated.'),
  group_by: query(
    'group_by',
    'Group by up to 3 columns, comma-separated; `:include_unknown` adds a bucket for rows without a value.',
  ),
  group_q: query('q', 'Keep only the group_by buckets whose display name contains this text.'),
  apc_sum: query(
    'apc_sum',
    'Works only: `true` adds `meta.apc_list_sum_usd` and `meta.apc_paid_sum_usd`, the APC prices of every matching work (not just this page) summed.',
    { type: 'boolean' },
  ),
  cited_by_count_sum: query(
    'cited_by_count_sum',
    '`true` adds `meta.cited_by_count_sum`, the citations of every matching row (not just this page) summed.',
    { type: 'boolean' },
  ),
  corpus: query(
    'corpus',
    'Works only: `core` (default: works outside the expansion set), `expansion` or `all`.',
    {
      enum: ['core', 'expansion', 'all'],
    },
  ),
  include_xpac: query('include_xpac', 'Works only: `true` is `corpus=all` (the older name).', {
    type: 'boolean',
  }),
  api_key: query(
    'api_key',
    'The caller’s API key (also accepted as `Authorization: Bearer <key>` or as an `api_key` header). Empty is a 401.',
  ),
  mailto: query('mailto', 'A contact address (accepted, not used).'),
})

/** The responses the components hold. */
export const componentResponses = (): Record<string, OpenApiObject> => ({
  BadRequest: jsonOf(
    'The request is invalid: the body names the parameter at fault and what is valid.',
    'Error',
  ),
  NotFound: jsonOf('No such route, entity type or entity.', 'Error'),
  RequestLineTooLong: jsonOf(
    `The GET request line is over ${MAX_REQUEST_LINE_BYTES.toLocaleString('en')} bytes: POST the query to / (or /query) instead.`,
    'Error',
  ),
  NotSupported: jsonOf('The catalog cannot answer this query (semantic search without vectors, …).', 'Error'),
  Unavailable: jsonOf(
    'The server cannot answer now; `Retry-After` says when to try again. `code` says why: `query_timeout` (the query ran past the time budget of one request, 10 s unless the server sets another, and was stopped: narrow it), `server_busy` (as many searches, group-bys and samples, or exports, run and wait as the server takes, or none came free before the time budget of the request ran out), `shutting_down`, or `embeddings_unavailable` (semantic search could not embed the query: the embeddings server is down, too slow or answered badly).',
    'Error',
    { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } } },
  ),
  ServerError: jsonOf('A fault of the server; the body says nothing of its cause.', 'Error'),
  Unauthorized: jsonOf(
    'The API key is empty, unknown or malformed (it is never repeated back), or the endpoint needs a key and none came.',
    'Error',
  ),
  RateLimited: jsonOf(
    'Refused and not charged: more than the allowed requests per second, or the budget cannot pay for the call.',
    'RateLimited',
    { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } } },
  ),
  QueryRefused: jsonOf(
    'The query is invalid: `validation.errors` lists every problem with its code, message and fix (and its position in OQL text); `oqo` is the query as read when it parsed.',
    'QueryError',
  ),
  TranslationRefused: jsonOf(
    'The query could not be translated: the translation object with null forms and the errors.',
    'TranslationFailure',
  ),
})

const VIEW_PARAMETERS = ['sort', 'select', 'per_page', 'page', 'cursor', 'api_key', 'mailto'].map(parameter)

const OQL_PARAMETER = query('oql', 'The query as OQL text (URL-encoded).', { type: 'string' })
const OQO_PARAMETER = query('oqo', 'The query as URL-encoded OQO JSON.', { type: 'string' })
const PER_PAGE_DASH = query('per-page', 'Same as `per_page`.', {
  type: 'integer',
  minimum: 1,
  maximum: DEFAULT_MAX_PER_PAGE,
})

const translatePath = (
  form: 'oql' | 'oqo' | 'oxurl',
  name: string,
  description: string,
  example: string,
): OpenApiObject => ({
  get: {
    operationId: `translate${form === 'oql' ? 'Oql' : form === 'oqo' ? 'Oqo' : 'Oxurl'}`,
    tags: ['Query language'],
    summary: `Translate a query given as ${form === 'oxurl' ? 'a classic URL' : form.toUpperCase()} into all three forms`,
    description: `${description} Nothing is executed and nothing is charged. The rest of the path is the query, URL-encoded or plain (it may hold \`/\`). Ids are annotated with their names from the catalog.`,
    parameters: [{ ...pathParameter(name, description), examples: { example: { value: example } } }],
    responses: {
      200: jsonOf('The query in its three forms.', 'Translation'),
      400: response('TranslationRefused'),
      414: response('RequestLineTooLong'),
      default: response('ServerError'),
    },
  },
})

/** The paths this server serves. */
export const builtPaths = (): Record<string, OpenApiObject> => ({
  '/': {
    get: {
      operationId: 'getRoot',
      tags: ['Query language'],
      summary: 'Health check, or execute a query given as OQL or OQO',
      description:
        'Without `oql` or `oqo`: the server and catalog summary (a health check). With exactly one of them: runs the query and answers the standard list envelope, with the same entity objects (or `group_by` buckets when the query groups) and the same cost as the classic equivalent. View parameters given here win over values embedded in an OQO. Request lines over 8,190 bytes are refused: POST the query instead.',
      parameters: [OQL_PARAMETER, OQO_PARAMETER, PER_PAGE_DASH, ...VIEW_PARAMETERS],
      responses: {
        200: json('The health document, or a page of the query’s results.', {
          oneOf: [ref('Health'), ref('ListEnvelope')],
        }),
        400: response('QueryRefused'),
        414: response('RequestLineTooLong'),
        501: response('NotSupported'),
        default: response('ServerError'),
      },
    },
    post: {
      operationId: 'executeQuery',
      tags: ['Query language'],
      summary: 'Execute a query sent as OQL or OQO in a JSON body',
      description:
        'The body holds exactly one of `oql` (string) or `oqo` (object) and optional siblings. `Content-Type: application/json` is required. There is no length limit beyond a size cap (413). Precedence of view parameters: body siblings, then query-string parameters, then values embedded in the OQO.',
      parameters: VIEW_PARAMETERS,
      requestBody: jsonBody('The query and its view.', 'ExecuteRequest'),
      responses: {
        200: jsonOf('A page of the query’s results (or group buckets).', 'ListEnvelope'),
        400: response('QueryRefused'),
        413: jsonOf('The body is larger than the server reads.', 'QueryError'),
        501: response('NotSupported'),
        default: response('ServerError'),
      },
    },
  },
  '/{entities}': {
    get: {
      operationId: 'listEntities',
      tags: ['Entities'],
      summary: 'List, filter, search, sort, sample, page or group entities',
      description:
        '`oql` and `oqo` are not parameters here (a 400): OQL runs at the root. `meta.x_query` gives the query in its three forms (`url` null when no classic URL exists).',
      parameters: [
        parameter('entities'),
        parameter('filter'),
        parameter('search'),
        parameter('search.semantic'),
        parameter('sort'),
        parameter('per_page'),
        parameter('page'),
        parameter('cursor'),
        parameter('sample'),
        parameter('seed'),
        parameter('select'),
        parameter('group_by'),
        parameter('group_q'),
        parameter('apc_sum'),
        parameter('cited_by_count_sum'),
        parameter('corpus'),
        parameter('include_xpac'),
        parameter('api_key'),
        parameter('mailto'),
      ],
      responses: {
        200: jsonOf('A page of entities, or of group buckets.', 'ListEnvelope'),
        400: response('BadRequest'),
        404: response('NotFound'),
        414: response('RequestLineTooLong'),
        501: response('NotSupported'),
        default: response('ServerError'),
      },
    },
  },
  '/{entities}/{id}': {
    get: {
      operationId: 'getEntity',
      tags: ['Entities'],
      summary: 'One entity by its id or an external id',
      description:
        'The id is a short id (W2741809807), a full id URL, an external id as a URL (DOI, ORCID, ROR, …) or in prefix form (`doi:`, `pmid:`, `issn:`, …), or `random`. The parameters of lists (`filter`, `per_page`, `page`, `cursor`, `sort`, `sample`, `group_by`, `search`, …), which clients add to every call, are ignored here, as the public server ignores them; any other unknown parameter is a 400. Free.',
      parameters: [
        parameter('entities'),
        pathParameter('id', 'The id (it may contain `/`, as a DOI URL does).'),
        parameter('select'),
        parameter('api_key'),
        parameter('mailto'),
      ],
      responses: {
        200: jsonOf('The entity.', 'Entity'),
        301: jsonOf('The id was merged into another entity.', 'Merged', {
          Location: { description: 'The surviving entity.', schema: { type: 'string' } },
        }),
        400: response('BadRequest'),
        404: response('NotFound'),
        default: response('ServerError'),
      },
    },
  },
  '/autocomplete': {
    get: {
      operationId: 'autocompleteAll',
      tags: ['Entities'],
      summary: 'Type-ahead over several entity types',
      parameters: [
        query('q', 'The text typed so far (a pasted id is looked up).'),
        query('entity_type', 'Limit to one entity type (`author`, `institutions`, …).'),
        query('hide_works', 'Leave works out.', { type: 'boolean' }),
        HIDE_ZERO,
        parameter('api_key'),
        parameter('mailto'),
      ],
      responses: AUTOCOMPLETE_RESPONSES,
    },
  },
  '/autocomplete/{entity}': {
    get: {
      operationId: 'autocompleteEntity',
      tags: ['Entities'],
      summary: 'Type-ahead in one entity type',
      parameters: [
        pathParameter('entity', 'The entity type, by its path name.', { enum: ENTITY_PATHS }),
        query('q', 'The text typed so far.'),
        parameter('filter'),
        HIDE_ZERO,
        parameter('api_key'),
        parameter('mailto'),
      ],
      // An unknown entity type is a 404.
      responses: { ...AUTOCOMPLETE_RESPONSES, 404: response('NotFound') },
    },
  },
  '/query': {
    get: {
      operationId: 'describeQueryEndpoints',
      tags: ['Query language'],
      summary: 'What the translate endpoints are',
      responses: {
        200: jsonOf('A short descriptor.', 'QueryDescriptor'),
        default: response('ServerError'),
      },
    },
    post: {
      operationId: 'translateQuery',
      tags: ['Query language'],
      summary: 'Translate a query sent in a JSON body into all three forms',
      description:
        'Exactly one of `oql`, `oqo` or `oxurl`. No length limit beyond a size cap (413). Nothing is executed and nothing is charged.',
      requestBody: jsonBody('The query in one of its forms.', 'TranslateRequest'),
      responses: {
        200: jsonOf('The query in its three forms.', 'Translation'),
        400: response('TranslationRefused'),
        413: jsonOf('The body is larger than the server reads.', 'TranslationFailure'),
        default: response('ServerError'),
      },
    },
  },
  '/query/oql/{oql}': translatePath(
    'oql',
    'oql',
    'OQL text.',
    'works where year >= 2020 and type is article',
  ),
  '/query/oqo/{oqo}': translatePath('oqo', 'oqo', 'OQO JSON.', '{"get_rows":"works"}'),
  '/query/oxurl/{url}': translatePath(
    'oxurl',
    'url',
    'A classic URL: raw (`works?filter=…`, with its real query string) or URL-encoded.',
    'works?filter=publication_year:2020',
  ),
  '/validate': {
    get: {
      operationId: 'validateOql',
      tags: ['Query language'],
      summary: 'Lint OQL text',
      description:
        'Always 200 for any text: every finding with a stable code, its span and a fix (the parser recovers after an error and goes on); the other forms when the text is valid.',
      parameters: [query('q', 'OQL text.'), parameter('api_key'), parameter('mailto')],
      responses: {
        200: jsonOf('The findings.', 'ValidateResult'),
        400: response('BadRequest'),
        default: response('ServerError'),
      },
    },
  },
  '/parse-context': {
    get: {
      operationId: 'parseContext',
      tags: ['Query language'],
      summary: 'What the grammar expects at a position (autocomplete)',
      description:
        'The category at the cursor, the prefix being typed and the range a suggestion replaces, the field and its value kind, and suggestions: fields, operators, keywords, vocabulary codes, and catalog records for id fields.',
      parameters: [
        query('q', 'OQL text.'),
        query('pos', 'The cursor: a character offset in q (default: its end).', {
          type: 'integer',
          minimum: 0,
        }),
        parameter('api_key'),
        parameter('mailto'),
      ],
      responses: {
        200: jsonOf('The context.', 'ParseContext'),
        400: response('BadRequest'),
        default: response('ServerError'),
      },
    },
  },
  '/properties': {
    get: {
      operationId: 'listProperties',
      tags: ['Registry'],
      summary: 'The properties registry: every queryable column of every entity',
      parameters: [query('entity', 'One entity type only.'), parameter('api_key'), parameter('mailto')],
      responses: {
        200: jsonOf('The registry (`spec/properties.json`).', 'Properties'),
        400: response('BadRequest'),
        404: jsonOf('`invalid_entity`: no such entity type.', 'Error'),
        default: response('ServerError'),
      },
    },
  },
  '/properties/{entity}': {
    get: {
      operationId: 'getEntityProperties',
      tags: ['Registry'],
      summary: 'The columns of one entity: operators, value kinds, OQL names and aliases, actions',
      parameters: [pathParameter('entity', 'The entity type.'), parameter('api_key'), parameter('mailto')],
      responses: {
        200: jsonOf('The registry of one entity.', 'Properties'),
        400: response('BadRequest'),
        404: jsonOf('`invalid_entity`: no such entity type.', 'Error'),
        default: response('ServerError'),
      },
    },
  },
  '/query/spec': {
    get: {
      operationId: 'listSpecArtifacts',
      tags: ['Specification'],
      summary: 'The index of the specification artifacts',
      responses: {
        200: jsonOf('The artifacts and where each is served.', 'SpecIndex'),
        default: response('ServerError'),
      },
    },
  },
  '/query/spec/oqo': {
    get: {
      operationId: 'getOqoSchema',
      tags: ['Specification'],
      summary: 'The OQO JSON Schema (draft 2020-12)',
      responses: {
        200: jsonOf('`spec/oqo.schema.json`.', 'JsonDocument'),
        default: response('ServerError'),
      },
    },
  },
  '/rate-limit': {
    get: {
      operationId: 'getRateLimit',
      tags: ['Metering'],
      summary: 'The caller’s daily budget, what is used and what each operation costs',
      description:
        'Free. For a caller without a key, the budget of its address (`api_key` null). A server that does not meter answers 404 `metering_off`.',
      parameters: [parameter('api_key')],
      responses: {
        200: jsonOf('The rate-limit report.', 'RateLimitReport'),
        404: response('NotFound'),
        default: response('ServerError'),
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'getOpenApi',
      tags: ['Specification'],
      summary: 'This document',
      responses: {
        200: jsonOf('The OpenAPI 3.1 description of the server (`spec/openapi.json`).', 'JsonDocument'),
        default: response('ServerError'),
      },
    },
  },
})
