import { DEFAULT_MAX_PER_PAGE, MAX_LOOKUP_IDS } from '@oqlkit/engine'
import { CONTEXT_CATEGORIES, CONTEXT_STATES } from '@oqlkit/oql'
import { buildOqoJsonSchema, COLLECTION_ENTITY_TYPES, ENTITY_TYPES, entityPath } from '@oqlkit/oqo-schema'
import {
  API_KEY_ERROR,
  ERROR_TITLES,
  PAGINATION_ERROR,
  QUERY_PARAMETERS_ERROR,
  RATE_LIMIT_ERROR,
} from '../errors/error-title.ts'

/** A JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) as a plain object. */
export type Schema = Record<string, unknown>

/** A reference to a schema of the document's components. */
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` })

const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] })

const object = (
  properties: Record<string, Schema>,
  required: readonly string[] = Object.keys(properties),
  description?: string,
): Schema => ({
  type: 'object',
  ...(description === undefined ? {} : { description }),
  properties,
  required: [...required],
  additionalProperties: false,
})

const STRING: Schema = { type: 'string' }
const INTEGER: Schema = { type: 'integer' }
const NUMBER: Schema = { type: 'number' }
const BOOLEAN: Schema = { type: 'boolean' }
const STRINGS: Schema = { type: 'array', items: STRING }
const TIMESTAMP: Schema = {
  type: 'string',
  description: 'ISO 8601, without time zone (YYYY-MM-DDTHH:MM:SS).',
}

// The OQO schema's definitions move into the components under an `Oqo` prefix, so the document is
// one resource with plain `#/components/schemas/…` references that every OpenAPI tool resolves.
const OQO_DEFINITION_PREFIX = 'Oqo'

const rewriteReferences = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(rewriteReferences)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) =>
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
        ? [key, `#/components/schemas/${OQO_DEFINITION_PREFIX}${inner.slice('#/$defs/'.length)}`]
        : [key, rewriteReferences(inner)],
    ),
  )
}

/** The OQO JSON Schema of `spec/oqo.schema.json`, as component schemas (`Oqo`, `OqoFilter`, …). */
export const oqoComponentSchemas = (): Record<string, Schema> => {
  const {
    $schema: _dialect,
    $id: _id,
    $defs,
    ...top
  } = buildOqoJsonSchema() as Schema & {
    $defs?: Record<string, Schema>
  }
  return {
    Oqo: rewriteReferences(top) as Schema,
    ...Object.fromEntries(
      Object.entries($defs ?? {}).map(([name, schema]) => [
        `${OQO_DEFINITION_PREFIX}${name}`,
        rewriteReferences(schema) as Schema,
      ]),
    ),
  }
}

const VALIDATION_ERROR_TYPES = ['parse_error', 'bad_request', 'invalid_entity', 'invalid_body']

const SUGGESTION_KINDS = [
  'entity',
  'keyword',
  'corpus',
  'field',
  'operator',
  'value',
  'connective',
  'directive',
]

const OQL_TOKEN_ROLES = [
  'entity',
  'corpus',
  'keyword',
  'field',
  'verb',
  'operator',
  'value',
  'annotation',
  'connective',
  'punctuation',
  'space',
]

const range: Schema = object({ start: INTEGER, end: INTEGER })

const fieldContext = {
  field: { type: 'string', description: 'The canonical OQL word of the field.' },
  column: { type: 'string', description: 'Its column id in the properties registry.' },
  value_kind: {
    type: 'string',
    description: 'search, num, date, bool, id, enum, string or collection.',
  },
  value_entity: { type: 'string', description: 'The entity its values are ids or codes of.' },
}

/** The component schemas of the built endpoints and of the planned ones. */
export const componentSchemas = (): Record<string, Schema> => ({
  ...oqoComponentSchemas(),
  OqoInput: {
    type: 'object',
    description:
      'An OQO as a client sends it: the canonical OQO (`Oqo`), and transitionally the view keys older clients embedded in it (`sort_by`, `sort_by_column`, `sort_by_order`, `select`, `per_page`, `page`, `cursor`). Embedded view keys have the lowest precedence: a sibling in the body or the query string wins.',
    properties: {
      get_rows: ref('OqoEntityTypeName'),
      corpus: { enum: ['core', 'expansion', 'all'] },
      filter_rows: { type: 'array', items: ref('OqoFilter') },
      group_by: { type: 'array', items: ref('OqoGroupBy') },
      sample: nullable({ type: 'integer', minimum: 1, maximum: 10000 }),
      seed: { anyOf: [STRING, INTEGER, { type: 'null' }] },
      sort_by: {
        type: 'array',
        deprecated: true,
        items: object({ column_id: STRING, direction: { enum: ['asc', 'desc'] } }, ['column_id']),
      },
      sort_by_column: { type: 'string', deprecated: true },
      sort_by_order: { enum: ['asc', 'desc'], deprecated: true },
      select: { anyOf: [STRING, STRINGS], deprecated: true },
      per_page: { type: 'integer', deprecated: true },
      page: { type: 'integer', deprecated: true },
      cursor: { type: 'string', deprecated: true },
    },
    required: ['get_rows'],
  },

  Error: object(
    {
      error: {
        enum: ERROR_TITLES,
        description: `The kind of failure, in the public server's words, which its clients match on: "${QUERY_PARAMETERS_ERROR}" for a 400 about the query (pyalex raises its QueryError with the message), "${PAGINATION_ERROR}" when every problem is a bad page or per_page, "${API_KEY_ERROR}" for a 401, "${RATE_LIMIT_ERROR}" for a 429, and the status's reason phrase otherwise (a 400 about the bytes of the request or its body is "Bad Request").`,
      },
      code: { type: 'string', description: 'A stable code (`invalid_sort`, `not_found`, …).' },
      message: { type: 'string', description: 'What was wrong and what is valid.' },
      parameter: { type: 'string', description: 'The request parameter at fault.' },
      errors: {
        type: 'array',
        description: 'Every problem, when there are several (the first is also at the top).',
        items: ref('ErrorProblem'),
      },
    },
    ['error', 'code', 'message'],
    'The body of every error of the API; the query endpoints add `validation`.',
  ),
  ErrorProblem: object(
    {
      code: { type: 'string', description: 'Its stable code.' },
      message: STRING,
      parameter: { type: 'string', description: 'The request parameter at fault.' },
    },
    ['code', 'message'],
    'One problem of a request that has several.',
  ),

  ValidationError: object(
    {
      type: { enum: VALIDATION_ERROR_TYPES },
      code: {
        type: 'string',
        description: 'The stable diagnostic code (`OQL_UNKNOWN_FIELD`, `invalid_column`, …).',
      },
      message: { type: 'string', description: 'The problem, usually followed by how to fix it.' },
      position: { type: 'integer', description: 'Character offset in the OQL text (parse errors).' },
      context: nullable({ type: 'string', description: 'The OQL text around the position.' }),
      location: nullable({
        type: 'string',
        description: 'The JSON path in the OQO, or the request parameter or body key at fault.',
      }),
    },
    ['type', 'code', 'message', 'context', 'location'],
  ),
  ValidationWarning: object({ type: STRING, message: STRING, location: nullable(STRING) }),
  Validation: object({
    valid: BOOLEAN,
    errors: { type: 'array', items: ref('ValidationError') },
    warnings: { type: 'array', items: ref('ValidationWarning') },
  }),
  QueryError: object(
    {
      error: {
        enum: ERROR_TITLES,
        description: `The kind of failure, in the public server's words, as in every error ("${QUERY_PARAMETERS_ERROR}" for a query it cannot run).`,
      },
      code: { type: 'string', description: 'The code of the first error.' },
      message: { type: 'string', description: 'The message of the first error.' },
      validation: ref('Validation'),
      oqo: {
        type: 'object',
        description: 'The query as read, when it was read but failed validation or planning.',
      },
    },
    ['error', 'code', 'message', 'validation'],
    'A refusal of the execute endpoint: never a silent empty result.',
  ),

  Entity: {
    type: 'object',
    description:
      'An entity object, as the classic API returns it (all its fields, or those `select` keeps). Fields beyond `id` and `display_name` depend on the entity type.',
    properties: { id: STRING, display_name: nullable(STRING), relevance_score: NUMBER },
  },
  GroupBucket: object(
    {
      key: { type: 'string', description: 'An id URL, a code URL, a raw value (2020, true) or `unknown`.' },
      key_display_name: STRING,
      count: INTEGER,
      groups: { type: 'array', items: ref('GroupBucket'), description: 'The buckets of the next dimension.' },
    },
    ['key', 'key_display_name', 'count'],
  ),
  XQuery: object(
    {
      oql: nullable(STRING),
      oqo: ref('Oqo'),
      url: nullable({ type: 'string', description: 'The classic URL, or null when the query has none.' }),
    },
    ['oql', 'oqo', 'url'],
    'The query in its three forms; field-level details may change (the `x_` prefix).',
  ),
  DataVersion: object(
    {
      name: {
        ...STRING,
        description: 'The name the server gives the catalog (`default` when it serves one).',
      },
      snapshot_date: nullable({
        ...STRING,
        description: 'The newest `updated_date` of the snapshots the catalog was built from.',
      }),
      fingerprint: {
        ...STRING,
        description: 'A fingerprint of those snapshots’ manifests: the same data, the same fingerprint.',
      },
    },
    ['name', 'snapshot_date', 'fingerprint'],
    'The data an answer comes from, to cite it and to ask again of the same data (also the `Data-Version` header).',
  ),
  ListMeta: object(
    {
      count: { type: 'integer', description: 'Total matches (for a group_by with q: buckets kept).' },
      db_response_time_ms: INTEGER,
      page: {
        type: 'integer',
        minimum: 1,
        description: 'The page number; 1 under cursor paging, where the cursor says where a page starts.',
      },
      per_page: INTEGER,
      groups_count: nullable(INTEGER),
      next_cursor: nullable({
        type: 'string',
        description: 'Under cursor paging; null after the last page.',
      }),
      q: { type: 'string', description: 'The group_by bucket filter, echoed.' },
      apc_list_sum_usd: {
        type: 'number',
        description:
          'With `apc_sum=true`: the APC list prices (`apc_list.value_usd`) of every matching work, summed.',
      },
      apc_paid_sum_usd: {
        type: 'number',
        description:
          'With `apc_sum=true`: the APCs paid (`apc_paid.value_usd`) of every matching work, summed.',
      },
      cited_by_count_sum: {
        type: 'number',
        description: 'With `cited_by_count_sum=true`: the citations of every matching row, summed.',
      },
      cost_usd: { type: 'number', description: 'What this call costs, in US dollars.' },
      data_version: ref('DataVersion'),
      x_query: ref('XQuery'),
    },
    ['count', 'db_response_time_ms', 'page', 'per_page', 'groups_count', 'cost_usd', 'x_query'],
  ),
  ListEnvelope: object(
    {
      meta: ref('ListMeta'),
      results: { type: 'array', items: ref('Entity') },
      group_by: {
        type: 'array',
        items: ref('GroupBucket'),
        description: 'The buckets when the query groups (empty otherwise, with `results`).',
      },
    },
    ['meta', 'group_by'],
    'A page of entities (`results`) or of group buckets (`group_by`).',
  ),
  Merged: object({ id: STRING, message: STRING }, ['id', 'message']),
  LookupRequest: object(
    {
      ids: {
        ...STRINGS,
        maxItems: MAX_LOOKUP_IDS,
        description:
          'The ids, in any form a single entity’s path takes (short or URL OpenAlex ids, DOIs, ORCIDs, RORs, ISSNs, PMIDs, PMCIDs, MAG and Wikidata ids, as URLs, with a prefix such as `doi:`, or bare DOIs); duplicates each get a result.',
      },
      select: {
        anyOf: [STRING, STRINGS],
        description:
          'The top-level fields to keep: a comma-separated list or a list of names (or `select=` in the query).',
      },
    },
    ['ids'],
  ),
  LookupResult: object(
    {
      input: { ...STRING, description: 'The id as it was sent.' },
      record: {
        anyOf: [ref('Entity'), { type: 'null' }],
        description: 'The entity, or null when the id found none.',
      },
      merged_into: {
        ...STRING,
        description:
          'The entity the id was merged into, whose record `record` is (the id itself names no record now).',
      },
      error: {
        enum: ['not_an_id', 'other_entity', 'not_found', 'deleted'],
        description:
          'Why `record` is null: not an id of this entity type, the id of another type, no such record (or a merged id whose survivor the catalog lacks), deleted.',
      },
      message: { ...STRING, description: 'What `error` means for this id, in words.' },
    },
    ['input', 'record'],
  ),
  LookupPage: object(
    {
      meta: object(
        {
          count: { ...INTEGER, description: 'Ids sent, and results.' },
          found: INTEGER,
          missing: INTEGER,
          cost_usd: { ...NUMBER, description: 'A list call’s price per 1,000 ids, begun.' },
          data_version: ref('DataVersion'),
        },
        ['count', 'found', 'missing', 'cost_usd'],
      ),
      results: { type: 'array', items: ref('LookupResult') },
    },
    ['meta', 'results'],
    'One result per id, in the order sent.',
  ),
  SnowballWork: object(
    {
      id: { ...STRING, description: 'The work’s OpenAlex id.' },
      depth: { ...INTEGER, description: 'The step it was first reached at: 0 for a seed, then 1 or 2.' },
      record: ref('Entity'),
    },
    ['id', 'depth', 'record'],
  ),
  SnowballCitation: object(
    {
      citing: { ...STRING, description: 'The work that cites (lists `cited` in its `referenced_works`).' },
      cited: STRING,
    },
    ['citing', 'cited'],
  ),
  SnowballPage: object(
    {
      meta: object(
        {
          count: { ...INTEGER, description: 'Works reached, seeds included.' },
          citations_count: INTEGER,
          seeds_found: INTEGER,
          direction: { enum: ['both', 'cited', 'citing'] },
          depth: INTEGER,
          cited_not_held: {
            ...INTEGER,
            description: 'Works cited along the way that the catalog does not hold (left out).',
          },
          cost_usd: { ...NUMBER, description: 'A list call’s price per 1,000 works answered, begun.' },
          data_version: ref('DataVersion'),
        },
        ['count', 'citations_count', 'seeds_found', 'direction', 'depth', 'cited_not_held', 'cost_usd'],
      ),
      seeds_not_found: {
        type: 'array',
        items: object(
          {
            input: STRING,
            error: { enum: ['not_an_id', 'other_entity', 'not_found', 'deleted'] },
            message: STRING,
          },
          ['input', 'error', 'message'],
        ),
      },
      works: { type: 'array', items: ref('SnowballWork') },
      citations: { type: 'array', items: ref('SnowballCitation') },
    },
    ['meta', 'seeds_not_found', 'works', 'citations'],
    'The works a snowball reached and every citation between them.',
  ),
  Health: object(
    {
      name: { const: 'oqlkit' },
      version: STRING,
      status: { const: 'ok' },
      catalog: object(
        {
          created_at: STRING,
          entities: { type: 'object', additionalProperties: INTEGER },
          total: INTEGER,
          data_version: ref('DataVersion'),
        },
        ['created_at', 'entities', 'total'],
      ),
      data_versions: {
        type: 'array',
        description:
          'The versions of the data the server answers from; `default: true` marks the one answered unless asked.',
        items: { type: 'object', properties: { default: BOOLEAN }, additionalProperties: true },
      },
      capabilities: { type: 'object', additionalProperties: BOOLEAN },
    },
    undefined,
    'The server and its catalog (a health check).',
  ),
  AutocompleteResult: object({
    id: STRING,
    short_id: STRING,
    display_name: STRING,
    hint: nullable(STRING),
    cited_by_count: nullable(INTEGER),
    works_count: nullable(INTEGER),
    entity_type: STRING,
    external_id: nullable(STRING),
    filter_key: nullable(STRING),
  }),
  AutocompleteResponse: object({
    meta: object(
      {
        count: INTEGER,
        db_response_time_ms: INTEGER,
        page: INTEGER,
        per_page: INTEGER,
        cost_usd: NUMBER,
        data_version: ref('DataVersion'),
      },
      ['count', 'db_response_time_ms', 'page', 'per_page', 'cost_usd'],
    ),
    results: { type: 'array', items: ref('AutocompleteResult') },
  }),

  ExecuteRequest: {
    type: 'object',
    description:
      'Exactly one of `oql` or `oqo`, and optional view siblings. Any other key (a top-level `sample` or `seed` included: they belong inside the OQO) is a 400 `invalid_body`.',
    properties: {
      oql: { type: 'string', description: 'OQL text.' },
      oqo: ref('OqoInput'),
      sort: {
        type: 'string',
        description: '`column:direction`, comma-separated.',
        examples: ['cited_by_count:desc'],
      },
      select: {
        anyOf: [STRING, STRINGS],
        description: 'Top-level fields to return: a comma-separated string or an array.',
      },
      page: { type: 'integer', minimum: 1 },
      per_page: { type: 'integer', minimum: 1, maximum: DEFAULT_MAX_PER_PAGE },
      cursor: { type: 'string', description: '`*` for the first page, then `meta.next_cursor`.' },
    },
    oneOf: [{ required: ['oql'] }, { required: ['oqo'] }],
    additionalProperties: false,
  },
  TranslateRequest: {
    type: 'object',
    description: 'Exactly one of `oql`, `oqo` or `oxurl`.',
    properties: {
      oql: { type: 'string', description: 'OQL text.' },
      oqo: { anyOf: [ref('OqoInput'), { type: 'string', description: 'The OQO as JSON text.' }] },
      oxurl: {
        type: 'string',
        description: 'A classic URL, absolute or from the entity path (`/works?filter=…`).',
      },
    },
    oneOf: [{ required: ['oql'] }, { required: ['oqo'] }, { required: ['oxurl'] }],
    additionalProperties: false,
  },
  OqlToken: {
    type: 'object',
    properties: {
      text: STRING,
      role: { enum: OQL_TOKEN_ROLES },
      path: { type: 'string', description: 'JSON pointer of the OQO part the token writes.' },
      paths: STRINGS,
      columnId: STRING,
      value: { type: ['string', 'number', 'boolean', 'null'] },
      addr: { type: 'string', description: 'The decimal address of the clause or value node.' },
    },
    required: ['text', 'role'],
    additionalProperties: false,
  },
  OqlRenderTree: object(
    {
      lines: {
        type: 'array',
        items: object({ indent: INTEGER, tokens: { type: 'array', items: ref('OqlToken') } }),
      },
    },
    undefined,
    'The canonical OQL as lines of typed tokens, for editors (most clients can ignore it).',
  ),
  Translation: object(
    {
      oxurl: nullable({
        type: 'string',
        description: 'The classic URL; null when the query has none (nested booleans, proximity, …).',
      }),
      oql: { type: 'string', description: 'Canonical OQL, line-wrapped when long.' },
      oql_oneline: STRING,
      oql_render_v2: ref('OqlRenderTree'),
      oqo: ref('Oqo'),
      validation: ref('Validation'),
    },
    undefined,
    'The query in its three forms; nothing is executed. Ids carry `[names]` from the catalog.',
  ),
  TranslationFailure: object(
    {
      oxurl: { type: 'null' },
      oql: { type: 'null' },
      oql_oneline: { type: 'null' },
      oql_render_v2: { type: 'null' },
      oqo: nullable({ type: 'object', description: 'The OQO as read, when it was read but is not valid.' }),
      validation: ref('Validation'),
    },
    undefined,
    'A query that could not be translated: the same object with the forms null.',
  ),
  QueryDescriptor: object({ msg: STRING, documentation_url: STRING }),

  Diagnostic: object({
    code: { type: 'string', description: 'A stable code of `spec/diagnostics.json`.' },
    severity: { enum: ['error', 'warning'] },
    message: { type: 'string', description: 'The problem, then its fix.' },
    fixit: { type: 'string', description: 'The fix alone.' },
    start: { type: 'integer', description: 'Start of the span (UTF-16 offset).' },
    end: { type: 'integer', description: 'End of the span, exclusive.' },
    line: INTEGER,
    column: INTEGER,
    location: nullable({ type: 'string', description: 'The JSON path in the OQO of a validation finding.' }),
    path: nullable({
      type: 'array',
      items: { type: 'integer', minimum: 0 },
      description:
        'The outline address of the clause or value a validation finding is about, as numbers: `[3, 1, 2]` is `3.1.2` (the third top-level condition, its first clause, that clause’s second value; `.0` is a field or connective). Null for parse findings and findings outside the filters.',
    }),
    quick_fixes: {
      type: 'array',
      description:
        'Fixes an editor can apply, where the fix is certain (the closest field or code, `has` for `contains`, a missing `)`): a label for a menu and edits of the text (UTF-16 offsets, end exclusive, never overlapping). Empty when the fix needs a choice only the writer can make.',
      items: object({
        label: STRING,
        edits: {
          type: 'array',
          items: object({ start: INTEGER, end: INTEGER, text: STRING }),
        },
      }),
    },
  }),
  ValidateResult: object(
    {
      valid: BOOLEAN,
      oql: nullable(STRING),
      oql_oneline: nullable(STRING),
      oqo: nullable(ref('Oqo')),
      oxurl: nullable(STRING),
      diagnostics: { type: 'array', items: ref('Diagnostic') },
    },
    undefined,
    'Every finding of the text; its other forms when it is valid (null otherwise).',
  ),
  Suggestion: object(
    {
      value: { type: 'string', description: 'The text to insert in place of `replace_range`.' },
      kind: { enum: SUGGESTION_KINDS },
      detail: STRING,
    },
    ['value', 'kind'],
  ),
  Range: range,
  ParseContext: object(
    {
      entity: nullable(STRING),
      context: object(
        {
          category: {
            enum: [...CONTEXT_CATEGORIES],
            description: 'What the grammar expects, in the editor protocol’s categories.',
          },
          state: {
            enum: [...CONTEXT_STATES],
            description:
              'The same, finer: `after-entity` and `directive` are `directive-keyword`; `corpus`, `search-term`, `sample-size` and `seed` are `value`; `group-by-field` is `field`.',
          },
          prefix: { type: 'string', description: 'The text being typed at the cursor.' },
          replace_range: ref('Range'),
          ...fieldContext,
          operator: STRING,
          in_list: BOOLEAN,
          open_groups: INTEGER,
          after_connective: { enum: ['and', 'or'] },
          sibling: object(
            { ...fieldContext, clause_range: ref('Range'), value_range: ref('Range') },
            ['field', 'column', 'value_kind', 'clause_range', 'value_range'],
            'After `value or ▮`: the clause another value could join.',
          ),
          autocomplete_entity: { type: 'string', description: 'The open id space values are looked up in.' },
          suggestions: { type: 'array', items: ref('Suggestion') },
        },
        ['category', 'state', 'prefix', 'replace_range', 'suggestions'],
      ),
      diagnostic: nullable(ref('Diagnostic')),
    },
    undefined,
    'What the grammar expects at a position of the text.',
  ),

  Property: object({
    name: { type: 'string', description: 'The column id.' },
    display_name: { type: 'string', description: 'The OQL word of the column.' },
    type: nullable(STRING),
    operators: {
      ...STRINGS,
      description: 'Operator buckets: eq, not, null, or, range, date_range, search, collection.',
    },
    actions: { ...STRINGS, description: 'filter, search, sort, group_by, column.' },
    entity_type: nullable(STRING),
    aliases: STRINGS,
    alternate_keys: STRINGS,
    category: nullable(STRING),
    supported_by: STRINGS,
    bool_true: { type: 'null' },
    bool_false: { type: 'null' },
    value_kind: nullable(STRING),
    value_entity: nullable(STRING),
    oqo_operators: STRINGS,
  }),
  Properties: object({
    meta: object(
      {
        version: STRING,
        entity_count: INTEGER,
        property_count: INTEGER,
        fingerprint: STRING,
        entity: { type: 'string', description: 'The entity asked for.' },
      },
      ['version', 'entity_count', 'property_count', 'fingerprint'],
    ),
    properties: {
      type: 'object',
      propertyNames: { enum: ENTITY_TYPES.map(entityPath) },
      additionalProperties: { type: 'object', additionalProperties: ref('Property') },
    },
  }),
  SpecIndex: object({
    artifacts: {
      type: 'array',
      items: object({ slug: STRING, filename: STRING, content_type: STRING, url: STRING }),
    },
  }),
  JsonDocument: { type: 'object', description: 'A JSON document (a JSON Schema, an OpenAPI description).' },

  RateLimited: object(
    {
      error: { const: RATE_LIMIT_ERROR, description: "The public server's words for a 429." },
      code: { enum: ['rate_limited', 'budget_exhausted'] },
      message: { type: 'string', description: 'Why, and when to retry.' },
      errors: { type: 'array', items: ref('ErrorProblem') },
      retry_after_seconds: { type: 'integer', minimum: 1, description: 'Also the `Retry-After` header.' },
      retry_at: { type: 'string', description: 'When to retry (ISO 8601, UTC).' },
    },
    ['error', 'code', 'message', 'retry_after_seconds', 'retry_at'],
    'A call refused, and not charged, because the caller sent too many requests or its budget cannot pay.',
  ),
  RateLimitReport: object({
    api_key: nullable({
      type: 'string',
      description: 'The key, masked; null for a caller without a key (whose budget is its address’s).',
    }),
    rate_limit: object({
      daily_budget_usd: NUMBER,
      daily_used_usd: NUMBER,
      daily_remaining_usd: NUMBER,
      prepaid_balance_usd: NUMBER,
      prepaid_remaining_usd: NUMBER,
      prepaid_expires_at: nullable(STRING),
      resets_at: { type: 'string', description: 'ISO 8601, UTC, midnight.' },
      resets_in_seconds: INTEGER,
      endpoint_costs_usd: object({
        singleton: NUMBER,
        list: NUMBER,
        search: NUMBER,
        semantic: NUMBER,
        content: NUMBER,
        text: NUMBER,
      }),
    }),
  }),
  TextTag: object({
    id: STRING,
    display_name: STRING,
    score: { type: 'number', minimum: 0, maximum: 1 },
  }),
  TextTagging: object({
    meta: object({ keywords_count: INTEGER, concepts_count: INTEGER, cost_usd: NUMBER }),
    keywords: { type: 'array', items: ref('TextTag') },
    concepts: { type: 'array', items: ref('TextTag') },
  }),
  TextKeywords: object({
    meta: object({ count: INTEGER, cost_usd: NUMBER }),
    keywords: { type: 'array', items: ref('TextTag') },
  }),
  TextConcepts: object({
    meta: object({ count: INTEGER, cost_usd: NUMBER }),
    concepts: { type: 'array', items: ref('TextTag') },
  }),
  TextTopics: object({
    meta: object({ count: INTEGER, cost_usd: NUMBER }),
    topics: { type: 'array', items: ref('TextTag') },
    warning: { type: 'string', description: 'The route is deprecated; use /text/keywords.' },
  }),
  TextRequest: object(
    {
      title: { type: 'string', description: '20-2000 characters with the abstract.' },
      abstract: STRING,
    },
    ['title'],
  ),
  Collection: object({
    id: { type: 'string', pattern: '^col_[A-Za-z0-9]{10}$' },
    user_id: STRING,
    entity_type: ref('CollectionEntityType'),
    display_name: { type: 'string', minLength: 1, maxLength: 30 },
    description: { type: 'string', maxLength: 500 },
    entity_count: INTEGER,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
  }),
  CollectionEntityType: {
    enum: [...COLLECTION_ENTITY_TYPES],
  },
  CollectionPage: object({
    meta: object({ page: INTEGER, per_page: INTEGER, total_count: INTEGER, total_pages: INTEGER }),
    results: { type: 'array', items: ref('Collection') },
  }),
  CollectionEntitiesPage: object(
    {
      id: STRING,
      user_id: STRING,
      entity_type: ref('CollectionEntityType'),
      display_name: STRING,
      description: STRING,
      entity_count: INTEGER,
      created_at: TIMESTAMP,
      updated_at: TIMESTAMP,
      meta: object({ page: INTEGER, per_page: INTEGER, total_count: INTEGER, total_pages: INTEGER }, []),
      entity_ids: STRINGS,
    },
    ['id', 'entity_type', 'entity_ids'],
    'The collection and one page of its entity ids (the exact paging keys are not specified yet).',
  ),
  CollectionCreate: object(
    {
      display_name: STRING,
      entity_type: ref('CollectionEntityType'),
      description: STRING,
      entity_ids: { ...STRINGS, maxItems: 1000 },
    },
    ['display_name', 'entity_type'],
  ),
  CollectionPatch: object(
    { display_name: STRING, description: STRING, entity_type: ref('CollectionEntityType') },
    [],
  ),
  EntityIds: object({ entity_ids: { ...STRINGS, description: 'Full id URLs or short ids (W123).' } }),
  BulkAddResult: object({ added: INTEGER, already_present: INTEGER, rejected_wrong_type: { const: 0 } }),
  DeleteResult: object({ deleted_collection_id: STRING }),
  RemoveResult: object({
    removed: INTEGER,
    not_present: { type: 'integer', description: 'Ids that were not in the collection.' },
    entity_count: { type: 'integer', description: 'How many entities the collection holds now.' },
  }),
})
