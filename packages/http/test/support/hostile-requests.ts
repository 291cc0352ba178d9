// Hostile requests for the fuzz test of the HTTP surface (http-surface-fuzz.test.ts) and `npm run fuzz`
// (scripts/fuzz-http.ts): fast-check arbitraries built from the route table and the API's parameter
// names, with values chosen to break readers (garbage, huge and negative numbers, lone surrogates, RTL,
// emoji, NUL, bad percent-encoding, 100-300 word searches, deep parentheses, huge OQO bodies), plus the
// raw-bytes requests only a socket can send. And the one judge of an answer both of them use.
import { API_ENTITIES } from '@oqlkit/http'
import { entityPath, propertiesRegistry } from '@oqlkit/oqo-schema'
import fc from 'fast-check'
// The list endpoint's own table of parameters, so most list requests get past its check to the planner.
import { LIST_PARAMETERS } from '../../src/request/list-request-reader.ts'

/** Who sends a request: nobody in particular (an address), or the fuzz key in a header or a parameter. */
export type Caller = 'anonymous' | 'key-header' | 'key-param'

/** One request as the fuzzer builds it; `target` is the request target on the wire (path and query). */
export interface HostileRequest {
  readonly method: string
  readonly target: string
  /** Header pairs in order; a name may repeat. */
  readonly headers: readonly (readonly [string, string])[]
  readonly body?: string | Uint8Array
  readonly caller: Caller
  /** The X-Forwarded-For address of an anonymous caller (the fuzz app trusts the proxy header). */
  readonly address: string
  /** A short name of what was built (route family), for the tallies. */
  readonly kind: string
}

/** What the fuzzer knows of the catalog and the collections before it starts: ids to aim at. */
export interface FuzzTargets {
  /** Real ids per entity path (`works` → [`W123`, …]). */
  readonly ids: Readonly<Record<string, readonly string[]>>
  /** Ids of collections the fuzz key owns. */
  readonly collectionIds: readonly string[]
}

/** The 503s the API documents; any other 5xx answer is a failure. */
export const DOCUMENTED_503_CODES: ReadonlySet<string> = new Set([
  'query_timeout',
  'server_busy',
  'shutting_down',
  'embeddings_unavailable',
])

// --- Wire encoding -------------------------------------------------------------------------------------

const hex = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`

/**
 * Percent-encodes a JavaScript string as a query component byte by byte, like `encodeURIComponent`, except
 * that a lone surrogate is written in its 3-byte (WTF-8) form (`%ED%A0%80`) instead of throwing: exactly
 * the bytes a broken client sends, and what a strict UTF-8 decoder must refuse without failing.
 */
export const wireEncode = (text: string): string => {
  let out = ''
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (/[A-Za-z0-9\-_.~]/.test(text[i]!)) {
      out += text[i]
      continue
    }
    let code = unit
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00)
        i++
      }
    }
    if (code < 0x80) out += hex(code)
    else if (code < 0x800) out += hex(0xc0 | (code >> 6)) + hex(0x80 | (code & 0x3f))
    else if (code < 0x10000)
      out += hex(0xe0 | (code >> 12)) + hex(0x80 | ((code >> 6) & 0x3f)) + hex(0x80 | (code & 0x3f))
    else
      out +=
        hex(0xf0 | (code >> 18)) +
        hex(0x80 | ((code >> 12) & 0x3f)) +
        hex(0x80 | ((code >> 6) & 0x3f)) +
        hex(0x80 | (code & 0x3f))
  }
  return out
}

// --- Values ----------------------------------------------------------------------------------------------

const WORDS = [
  'climate',
  'cell',
  'learning',
  'network',
  'the',
  'of',
  'cancer',
  'model',
  'quantum',
  'water',
  'clim*',
  'mod*',
  'AND',
  'OR',
  'NOT',
  '"deep learning"',
  '(',
  ')',
  '-',
  '*',
  '"',
  'é',
  'ﬁ',
  'مرحبا',
  '日本',
  '🧬',
]

const HUGE_NUMBERS = [
  '99999999999999999999999999999',
  '9007199254740993',
  '1e308',
  '1e309',
  '-1',
  '-0',
  '0',
  '-99999999999',
  '2147483648',
  '4294967296',
  'NaN',
  'Infinity',
  '-Infinity',
  '0x10',
  '1.5',
  '1_000',
  ' 5',
  '+5',
  '00001',
  '1e-400',
]

/** Already on the wire: what no encoder would produce. */
const BAD_ENCODINGS = [
  '%',
  '%zz',
  '%E0%A4',
  '%ED%A0%80',
  '%ED%BF%BF',
  '%C0%AF',
  '%C0%80',
  '%FF%FE',
  '%F4%90%80%80',
  '%%',
  '%2',
  '%u0041',
  '%00',
  'a%00b',
  '%0D%0Aset-cookie:%20x',
  '%E2%80%AE',
  '%EF%BB%BF',
  '%F0%9F',
]

const UNICODE = [
  '\u202Eevil\u202C',
  'مرحبا بالعالم',
  'שלום',
  '🧬🔬📚',
  '👩‍👩‍👧‍👦',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF',
  'x\uD83D',
  '\uFEFF',
  '\u200B',
  'e\u0301\u0301\u0301',
  'Ｗ１２３',
  'İı',
  '\u2028\u2029',
  '\t\n\r',
]

const rawOf = (values: readonly string[]) => fc.constantFrom(...values)
const encodedOf = (values: readonly string[]) => fc.constantFrom(...values.map(wireEncode))

/** Lone surrogates and other unpaired UTF-16, as a string. */
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit))

/** A hostile value, already wire-encoded for a query component or a path segment. */
export const hostileValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }).map(wireEncode) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(wireEncode) },
  { weight: 1, arbitrary: fc.string({ unit: loneSurrogate, minLength: 1, maxLength: 3 }).map(wireEncode) },
  { weight: 3, arbitrary: rawOf(HUGE_NUMBERS).map(wireEncode) },
  { weight: 2, arbitrary: fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map((n) => String(n)) },
  { weight: 2, arbitrary: fc.double().map((n) => wireEncode(String(n))) },
  { weight: 3, arbitrary: rawOf(BAD_ENCODINGS) },
  { weight: 3, arbitrary: encodedOf(UNICODE) },
  { weight: 1, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 30 }) },
  // Bad and good encodings glued together.
  {
    weight: 2,
    arbitrary: fc
      .array(fc.oneof(rawOf(BAD_ENCODINGS), encodedOf(UNICODE), fc.constantFrom('a', '1', ':', ',', '|')), {
        minLength: 2,
        maxLength: 6,
      })
      .map((parts) => parts.join('')),
  },
)

/** Words for a search: real ones, wildcards, boolean words, quotes and parentheses. */
const searchText = (minWords: number, maxWords: number) =>
  fc
    .array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...WORDS) }, fc.string({ maxLength: 12 })), {
      minLength: minWords,
      maxLength: maxWords,
    })
    .map((words) => words.join(' '))

/** A long search: the 100-word limit and past it. */
export const longSearch = searchText(100, 300).map(wireEncode)

/** OQL texts: plausible ones, deep parentheses (balanced or not), garbage. */
const oqlText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'works',
    'works where year is 2020',
    'works where title has "climate"',
    'authors where works count > 10',
    'works where year is 2020; sort by cited by count desc',
    'works where (year is 2020 or year is 2021) and type is article',
    'works where cited by count > -1',
    'works where author is in collection (zz)',
    'works; return id, title',
    'works where',
    'where works',
    'works where year is',
    'works where year is 99999999999999999999999',
  ),
  fc
    .tuple(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: -2, max: 2 }))
    .map(
      ([depth, skew]) =>
        `works where ${'('.repeat(depth)}year is 2020${')'.repeat(Math.max(0, depth + skew))}`,
    ),
  fc
    .integer({ min: 2, max: 400 })
    .map(
      (n) => `works where ${Array.from({ length: n }, (_, i) => `year is ${1900 + (i % 200)}`).join(' or ')}`,
    ),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  searchText(1, 30).map((text) => `works where title has "${text}"`),
)

/** A filter leaf of OQO: column ids from the registry or made up, operators real or not, hostile values. */
const oqoLeaf = (columns: readonly string[]) =>
  fc.record({
    column_id: fc.oneof(fc.constantFrom(...columns), fc.string({ maxLength: 12 })),
    value: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }),
      fc.constant({}),
    ),
    operator: fc.oneof(
      fc.constantFrom('is', 'has', '>', '<', '>=', '<=', 'in collection', 'contains', 'is not'),
      fc.string({ maxLength: 6 }),
    ),
    is_negated: fc.option(fc.boolean(), { nil: undefined }),
  })

const WORK_COLUMNS = propertiesRegistry.columnsOf('works', { includeUnlisted: true }).map((c) => c.id)

/** OQO texts (JSON): plausible, wrong-typed, deeply nested, huge. Deep ones are built as text. */
const oqoJson: fc.Arbitrary<string> = fc.oneof(
  fc
    .record({
      get_rows: fc.oneof(fc.constantFrom(...API_ENTITIES), fc.string({ maxLength: 10 }), fc.integer()),
      filter_rows: fc.option(fc.array(oqoLeaf(WORK_COLUMNS), { maxLength: 5 }), { nil: undefined }),
      sort_by_column: fc.option(fc.oneof(fc.constantFrom(...WORK_COLUMNS), fc.string({ maxLength: 8 })), {
        nil: undefined,
      }),
      sample: fc.option(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { nil: undefined }),
      group_by: fc.option(fc.oneof(fc.array(fc.integer(), { maxLength: 2 }), fc.string({ maxLength: 8 })), {
        nil: undefined,
      }),
    })
    .map((oqo) => JSON.stringify(oqo)),
  // Deep branches: { join, filters: [ { join, filters: [ … ] } ] }.
  fc
    .integer({ min: 10, max: 3000 })
    .map(
      (depth) =>
        `{"get_rows":"works","filter_rows":[${'{"join":"and","filters":['.repeat(depth)}{"column_id":"publication_year","value":2020,"operator":"is"}${']}'.repeat(depth)}]}`,
    ),
  // Huge: thousands of leaves.
  fc.integer({ min: 500, max: 20_000 }).map((n) =>
    JSON.stringify({
      get_rows: 'works',
      filter_rows: [
        {
          join: 'or',
          filters: Array.from({ length: n }, (_, i) => ({
            column_id: 'cited_by_count',
            value: i,
            operator: 'is',
          })),
        },
      ],
    }),
  ),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
)

// --- Parameters ------------------------------------------------------------------------------------------

/** The API's parameter names, and some it does not have. */
export const PARAMETER_NAMES = [
  'filter',
  'search',
  'search.title',
  'search.abstract',
  'search.exact',
  'search.semantic',
  'search.no_stem',
  'search.',
  'sort',
  'per_page',
  'per-page',
  'page',
  'cursor',
  'sample',
  'seed',
  'select',
  'group_by',
  'group-by',
  'q',
  'api_key',
  'mailto',
  'oql',
  'oqo',
  'apc_sum',
  'cited_by_count_sum',
  'pos',
  'title',
  'abstract',
  'format',
  'FILTER',
  '',
  'filter[]',
]

/** Plausible values of a parameter, so a good share of requests reach the planner and storage. */
const plausibleValue = (name: string, columns: readonly string[]): fc.Arbitrary<string> => {
  switch (name) {
    case 'per_page':
    case 'per-page':
      return fc.constantFrom('1', '25', '200', '201', '0', '10000')
    case 'page':
      return fc.constantFrom('1', '2', '40', '10001', '0')
    case 'cursor':
      return fc.constantFrom('*', 'IlsxLCJ4Il0i', '*%2A', 'W10=')
    case 'sample':
    case 'seed':
      return fc.constantFrom('1', '10', '100000', '0')
    case 'sort':
      return fc
        .constantFrom(...columns, 'relevance_score', 'cited_by_count', 'publication_date')
        .chain((column) => fc.constantFrom(column, `${column}:desc`, `${column}:asc`, `-${column}`))
    case 'select':
      return fc
        .array(fc.constantFrom(...columns, 'id', 'display_name'), { minLength: 1, maxLength: 4 })
        .map((c) => c.join(','))
    case 'group_by':
    case 'group-by':
      return fc.constantFrom(...columns, 'type', 'publication_year', 'authorships.author.id')
    case 'filter':
      return filterValue(columns)
    case 'oql':
      return oqlText.map(wireEncode)
    case 'oqo':
      return oqoJson.map(wireEncode)
    case 'search':
    case 'q':
    case 'title':
    case 'abstract':
      return fc.oneof(searchText(1, 6).map(wireEncode), longSearch)
    default:
      return searchText(1, 3).map(wireEncode)
  }
}

/** A `filter=` value: `column:value` pairs joined by commas, with the classic operators and hostile values. */
const filterValue = (columns: readonly string[]): fc.Arbitrary<string> =>
  fc
    .array(
      fc
        .tuple(
          fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...columns) }, hostileValue),
          fc.constantFrom('', '!', '>', '<', '!>', '>=', '+'),
          fc.oneof(
            fc.constantFrom('2020', 'true', 'false', 'null', 'W2741809807', 'article', '10'),
            hostileValue,
            fc
              .array(fc.oneof(hostileValue, fc.constantFrom('2020', '1')), { minLength: 2, maxLength: 5 })
              .map((v) => v.join('|')),
            fc
              .array(fc.constantFrom('2020', 'a', '1'), { minLength: 2, maxLength: 4 })
              .map((v) => v.join('+')),
          ),
          fc.constantFrom(':', ':', ':', '', '::', '%3A'),
        )
        .map(([column, operator, value, colon]) => `${column}${colon}${operator}${value}`),
      { minLength: 1, maxLength: 6 },
    )
    .map((pairs) => pairs.join(','))

/** A query string: several parameters, plausible or hostile, names repeated at times. */
const queryString = (columns: readonly string[]): fc.Arbitrary<string> =>
  fc
    .array(
      fc
        .oneof(
          { weight: 1, arbitrary: fc.constantFrom(...PARAMETER_NAMES) },
          { weight: 2, arbitrary: fc.constantFrom(...LIST_PARAMETERS) },
        )
        .chain((name) =>
          fc
            .oneof(
              { weight: 3, arbitrary: plausibleValue(name, columns) },
              { weight: 2, arbitrary: hostileValue },
              { weight: 1, arbitrary: fc.constant('') },
            )
            .map((value) => (name === '' ? value : `${name}=${value}`)),
        ),
      { maxLength: 5 },
    )
    .chain((pairs) =>
      fc.constantFrom('&', '&', '&', '&&', ';', '&amp;').map((separator) => pairs.join(separator)),
    )

// --- Routes ----------------------------------------------------------------------------------------------

const ENTITY_PATHS = API_ENTITIES.map((entity) => entityPath(entity))
const COLUMNS_BY_PATH = new Map(
  API_ENTITIES.map((entity) => [
    entityPath(entity),
    propertiesRegistry.columnsOf(entity, { includeUnlisted: true }).map((column) => column.id),
  ]),
)
const columnsOfPath = (path: string) => COLUMNS_BY_PATH.get(path) ?? WORK_COLUMNS

const withQuery = (path: string, query: string) => (query === '' ? path : `${path}?${query}`)

interface Route {
  readonly kind: string
  readonly method: fc.Arbitrary<string>
  readonly target: fc.Arbitrary<string>
  readonly body?: fc.Arbitrary<string | Uint8Array | undefined>
}

/** The common methods and the odd ones, mostly the route's own. */
const methods = (...own: string[]) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'DELETE', 'PUT', 'PATCH', 'POST') },
  )

/** Request bodies: good JSON, bad JSON, deep JSON, huge OQO, invalid UTF-8, nothing. */
export const hostileBody: fc.Arbitrary<string | Uint8Array | undefined> = fc.oneof(
  { weight: 3, arbitrary: oqlText.map((oql) => JSON.stringify({ oql })) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(oqoJson, fc.option(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { nil: undefined }))
      .map(
        ([oqo, perPage]) =>
          `{"oqo":${oqo}${perPage === undefined ? '' : `,"per_page":${JSON.stringify(perPage)}`}}`,
      ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      '{',
      '}',
      '[]',
      'null',
      '"oql"',
      '{"oql": }',
      '{"oql": "works",}',
      '{"oql": "works", "oql": "authors"}',
      '{"oql": 5}',
      '{"oqo": "works"}',
      '{"__proto__": {"oql": "works"}}',
      '{"constructor": {"prototype": {"x": 1}}}',
      '\uFEFF{"oql": "works"}',
      'oql=works',
      '{"oql": "works\\ud800"}',
      '{"text": "climate change and the ocean"}',
      '{"title": 5}',
    ),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 100, max: 20_000 })
      .map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 100, max: 20_000 })
      .map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.constant(
      new Uint8Array([0x7b, 0x22, 0x6f, 0x71, 0x6c, 0x22, 0x3a, 0x22, 0xff, 0xc0, 0x22, 0x7d]),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 3 }).map((mb) => JSON.stringify({ oql: 'x'.repeat(mb * 700_000) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('title', 'text', 'abstract'), searchText(1, 300))
      .map(([field, text]) => JSON.stringify({ [field]: text })),
  },
  { weight: 1, arbitrary: fc.constant(undefined) },
)

/** A collection body: names and ids, plausible and not. */
const collectionBody: fc.Arbitrary<string | Uint8Array | undefined> = fc.oneof(
  fc
    .record({
      display_name: fc.oneof(
        fc.string({ maxLength: 30 }),
        fc.constantFrom('fuzz', '', ' ', 'x'.repeat(300)),
        fc.integer(),
      ),
      description: fc.option(fc.oneof(fc.string({ maxLength: 40 }), fc.constant('https://evil.example/')), {
        nil: undefined,
      }),
      entity_type: fc.option(fc.oneof(fc.constantFrom(...API_ENTITIES), fc.string({ maxLength: 8 })), {
        nil: undefined,
      }),
      entity_ids: fc.option(
        fc.array(fc.oneof(fc.constantFrom('W1', 'A5023888391', 'W2741809807'), fc.string()), {
          maxLength: 6,
        }),
        {
          nil: undefined,
        },
      ),
    })
    .map((body) => JSON.stringify(body)),
  hostileBody,
)

const pathSegment = fc.oneof(
  { weight: 3, arbitrary: hostileValue },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'random',
      'W1',
      'https:%2F%2Fopenalex.org%2FW1',
      'doi:10.1%2Fx',
      '..',
      '.',
      '%2E%2E',
      '%2F',
    ),
  },
)

/** The routes of `createApp`, each with its methods, targets and bodies. */
const routes = (targets: FuzzTargets): Route[] => {
  const id = (path: string) => {
    const known = targets.ids[path] ?? []
    return known.length === 0 ? pathSegment : fc.oneof(fc.constantFrom(...known), pathSegment)
  }
  const collectionId =
    targets.collectionIds.length === 0
      ? pathSegment
      : fc.oneof(fc.constantFrom(...targets.collectionIds), pathSegment)
  const entityPathArb = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ENTITY_PATHS) },
    { weight: 1, arbitrary: hostileValue },
  )
  return [
    {
      kind: 'GET /',
      method: methods('GET', 'HEAD'),
      target: queryString(WORK_COLUMNS).map((q) => withQuery('/', q)),
    },
    {
      kind: 'GET /?oql',
      method: methods('GET'),
      target: fc
        .tuple(oqlText, queryString(WORK_COLUMNS))
        .map(([oql, q]) => withQuery('/', `oql=${wireEncode(oql)}${q === '' ? '' : `&${q}`}`)),
    },
    {
      kind: 'GET /?oqo',
      method: methods('GET'),
      target: oqoJson.map((oqo) => `/?oqo=${wireEncode(oqo)}`),
    },
    {
      kind: 'POST /',
      method: methods('POST'),
      target: queryString(WORK_COLUMNS).map((q) => withQuery('/', q)),
      body: hostileBody,
    },
    {
      kind: 'GET /query',
      method: methods('GET'),
      target: queryString(WORK_COLUMNS).map((q) => withQuery('/query', q)),
    },
    { kind: 'POST /query', method: methods('POST'), target: fc.constant('/query'), body: hostileBody },
    {
      kind: 'GET /query/{form}/…',
      method: methods('GET'),
      target: fc
        .tuple(
          fc.constantFrom('oql', 'oqo', 'oxurl'),
          fc.oneof(
            oqlText.map(wireEncode),
            oqoJson.map(wireEncode),
            hostileValue,
            queryString(WORK_COLUMNS).map((q) => `works?${q}`),
          ),
        )
        .map(([form, rest]) => `/query/${form}/${rest}`),
    },
    {
      kind: 'GET /query/spec',
      method: methods('GET'),
      target: fc.constantFrom(
        '/query/spec',
        '/query/spec/oqo',
        '/openapi.json',
        '/query/spec/',
        '/query/spec/x',
      ),
    },
    {
      kind: 'GET /validate',
      method: methods('GET'),
      target: queryString(WORK_COLUMNS).map((q) => withQuery('/validate', q)),
    },
    {
      kind: 'GET /parse-context',
      method: methods('GET'),
      target: queryString(WORK_COLUMNS).map((q) => withQuery('/parse-context', q)),
    },
    {
      kind: 'GET /properties',
      method: methods('GET'),
      target: fc
        .oneof(
          fc.constant('/properties'),
          entityPathArb.map((path) => `/properties/${path}`),
        )
        .chain((path) => queryString(WORK_COLUMNS).map((q) => withQuery(path, q))),
    },
    {
      kind: 'GET|POST /text',
      method: methods('GET', 'POST'),
      target: fc
        .tuple(
          fc.constantFrom('/text', '/text/keywords', '/text/concepts', '/text/topics', '/text/x'),
          queryString(WORK_COLUMNS),
        )
        .map(([path, q]) => withQuery(path, q)),
      body: hostileBody,
    },
    {
      kind: 'GET /autocomplete',
      method: methods('GET'),
      target: fc
        .tuple(
          fc.oneof(
            fc.constant('/autocomplete'),
            entityPathArb.map((path) => `/autocomplete/${path}`),
          ),
          queryString(WORK_COLUMNS),
        )
        .map(([path, q]) => withQuery(path, q)),
    },
    {
      kind: 'GET /{entities}',
      method: methods('GET', 'HEAD'),
      target: fc
        .constantFrom(...ENTITY_PATHS)
        .chain((path) => queryString(columnsOfPath(path)).map((q) => withQuery(`/${path}`, q))),
    },
    {
      kind: 'GET /{entities}?filter',
      method: methods('GET'),
      target: fc
        .constantFrom(...ENTITY_PATHS)
        .chain((path) =>
          fc
            .tuple(filterValue(columnsOfPath(path)), queryString(columnsOfPath(path)))
            .map(([filter, q]) => withQuery(`/${path}`, `filter=${filter}${q === '' ? '' : `&${q}`}`)),
        ),
    },
    {
      kind: 'GET /{entities}?search',
      method: methods('GET'),
      target: fc
        .tuple(
          fc.constantFrom('works', 'authors', 'sources', 'institutions', 'topics'),
          longSearch,
          fc.constantFrom(
            'search',
            'search.title',
            'search.abstract',
            'filter=title.search:',
            'filter=default.search:',
          ),
        )
        .map(([path, words, parameter]) =>
          parameter.startsWith('filter=')
            ? `/${path}?${parameter}${words}`
            : `/${path}?${parameter}=${words}`,
        ),
    },
    {
      kind: 'GET /{entities}/{id}',
      method: methods('GET', 'HEAD'),
      target: fc
        .constantFrom(...ENTITY_PATHS)
        .chain((path) =>
          fc
            .tuple(id(path), queryString(columnsOfPath(path)))
            .map(([segment, q]) => withQuery(`/${path}/${segment}`, q)),
        ),
    },
    {
      kind: 'GET /{unknown}',
      method: methods('GET'),
      target: fc.tuple(hostileValue, hostileValue).map(([a, b]) => `/${a}/${b}`),
    },
    {
      // Exports in JSON (what the judge can read) or with a hostile format, over any list parameters.
      kind: 'GET /{entities}/export',
      method: methods('GET', 'HEAD'),
      target: fc
        .tuple(
          fc.constantFrom(...ENTITY_PATHS),
          fc.oneof(
            { weight: 3, arbitrary: fc.constant('json') },
            fc.constantFrom('', 'xml', 'JSON'),
            hostileValue,
          ),
        )
        .chain(([path, format]) =>
          queryString(columnsOfPath(path)).map((q) =>
            withQuery(`/${path}/export`, `format=${format}${q === '' ? '' : `&${q}`}`),
          ),
        ),
    },
    {
      // Bulk lookups: known ids, hostile strings, values of other types, lists past the limit, and any body.
      kind: 'POST /{entities}/lookup',
      method: methods('POST'),
      target: fc
        .tuple(
          entityPathArb,
          fc.oneof(
            fc.constant(''),
            fc.constantFrom(
              'select=id,display_name',
              'select=colour',
              'format=jsonl',
              'format=xml',
              'per_page=2',
            ),
            hostileValue.map((value) => `select=${value}`),
          ),
        )
        .map(([path, q]) => withQuery(`/${path}/lookup`, q)),
      body: fc.oneof(
        {
          weight: 4,
          arbitrary: fc
            .constantFrom(...ENTITY_PATHS)
            .chain((path) =>
              fc.array(fc.oneof(id(path), hostileValue, fc.constantFrom('random', 'doi:', 'W0', '')), {
                maxLength: 40,
              }),
            )
            .map((ids) => JSON.stringify({ ids })),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '{"ids": null}',
            '{"ids": [1, null, {}, []]}',
            '{"ids": ["W1"], "select": 5}',
            '{"ids": ["W1"], "filter": "x"}',
            `{"ids": [${Array.from({ length: 10_001 }, () => '"W1"').join(',')}]}`,
            `{"ids": ["${'W1'.repeat(3000)}"]}`,
          ),
        },
        { weight: 2, arbitrary: hostileBody },
      ),
    },
    {
      // Citation snowballs: known and hostile seeds, every direction and depth and hostile ones, any select.
      kind: 'GET /works/snowball',
      method: methods('GET', 'HEAD'),
      target: fc
        .tuple(
          fc.oneof({ weight: 3, arbitrary: fc.constant('works') }, entityPathArb),
          fc.array(fc.oneof(id('works'), hostileValue, fc.constantFrom('random', 'doi:', 'W0', '')), {
            maxLength: 12,
          }),
          fc.constantFrom('', 'direction=both', 'direction=cited', 'direction=citing', 'direction=up'),
          fc.oneof(
            fc.constantFrom('', 'depth=1', 'depth=2', 'depth=3', 'depth=-1'),
            hostileValue.map((v) => `depth=${v}`),
          ),
          fc.oneof(
            fc.constantFrom(
              '',
              'select=id,display_name',
              'select=colour',
              'format=jsonl',
              'format=xml',
              'per_page=2',
            ),
            hostileValue.map((value) => `select=${value}`),
          ),
        )
        .map(([path, ids, ...rest]) =>
          withQuery(
            `/${path}/snowball`,
            [`ids=${ids.map(wireEncode).join('|')}`, ...rest.filter((part) => part !== '')].join('&'),
          ),
        ),
    },
    {
      kind: 'GET /export?oql',
      method: methods('GET'),
      target: fc
        .tuple(oqlText, fc.constantFrom('json', '', 'yaml'))
        .map(([oql, format]) => `/export?oql=${wireEncode(oql)}&format=${format}`),
    },
    {
      // The pages and their assets: known names, hostile names (traversal, encoded slashes) and any query.
      kind: 'GET /playground, /docs',
      method: methods('GET', 'HEAD'),
      target: fc
        .oneof(
          fc.constantFrom('/playground', '/docs'),
          fc
            .tuple(
              fc.constantFrom('playground', 'docs'),
              fc.oneof(
                fc.constantFrom('playground.js', 'swagger-ui.css', 'docs-init.js', 'playground.html'),
                fc.constantFrom('..%2Fpackage.json', '%2e%2e%2f%2e%2e%2fpackage.json', '.', '%00'),
                hostileValue,
              ),
            )
            .map(([page, file]) => `/${page}/assets/${file}`),
        )
        .chain((path) => queryString(WORK_COLUMNS).map((q) => withQuery(path, q))),
    },
    {
      kind: 'GET /rate-limit',
      method: methods('GET'),
      target: queryString(WORK_COLUMNS).map((q) => withQuery('/rate-limit', q)),
    },
    {
      kind: 'collections',
      method: methods('GET', 'POST', 'PATCH', 'DELETE'),
      target: fc
        .oneof(
          fc.constant('/me/collections'),
          collectionId.map((c) => `/me/collections/${c}`),
          collectionId.map((c) => `/me/collections/${c}/entities`),
          fc.tuple(collectionId, pathSegment).map(([c, e]) => `/me/collections/${c}/entities/${e}`),
          collectionId.map((c) => `/collections/${c}`),
          collectionId.map((c) => `/collections/${c}/entities`),
          fc.constant('/admin/collections'),
          collectionId.map((c) => `/admin/collections/${c}`),
          fc.constant('/me'),
        )
        .chain((path) => queryString(WORK_COLUMNS).map((q) => withQuery(path, q))),
      body: collectionBody,
    },
  ]
}

// --- Headers and callers ---------------------------------------------------------------------------------

/** Latin-1 text without controls: what a `Headers` value can hold. */
const headerText = fc.string({
  unit: fc
    .integer({ min: 0x20, max: 0xff })
    .filter((c) => c !== 0x7f)
    .map((c) => String.fromCharCode(c)),
  maxLength: 60,
})

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '*/*',
  'json',
  '',
]

const garbageHeaderList: fc.Arbitrary<[string, string][]> = fc.array(
  fc.oneof(
    {
      weight: 3,
      arbitrary: fc.tuple(
        fc.constant('content-type'),
        fc.oneof(fc.constantFrom(...CONTENT_TYPES), headerText),
      ),
    },
    fc.tuple(
      fc.constant('authorization'),
      fc.oneof(
        fc.constantFrom(
          '',
          'Bearer',
          'Bearer ',
          'Basic Zm9vOmJhcg==',
          'bearer oqk_x',
          'Token abc',
          'Bearer a b c',
        ),
        headerText.map((text) => `Bearer ${text}`),
        headerText,
        fc.integer({ min: 1000, max: 20_000 }).map((n) => `Bearer ${'k'.repeat(n)}`),
      ),
    ),
    fc.tuple(
      fc.constantFrom(
        'accept',
        'accept-encoding',
        'x-forwarded-for',
        'x-api-key',
        'origin',
        'cookie',
        'range',
      ),
      headerText,
    ),
    fc.tuple(
      fc.constant('x-forwarded-for'),
      fc.constantFrom('', 'unknown', '::1', '999.1.1.1', '1.1.1.1, 2.2.2.2', 'a'.repeat(300)),
    ),
  ),
  { minLength: 1, maxLength: 3 },
)

/** Half the requests carry no odd header, so that the garbage ones do not hide the rest of the request. */
const garbageHeaders = fc.oneof(fc.constant<[string, string][]>([]), garbageHeaderList)

/** An api_key parameter the fuzz key does not stand behind: empty, garbage, repeated. */
const garbageKeyParameter = fc.oneof(
  fc.constant('api_key='),
  fc.constant('api_key'),
  hostileValue.map((value) => `api_key=${value}`),
  fc.constant('api_key=oqk_0000000000000000000000000000&api_key='),
)

/** The arbitrary of one hostile request against the routes of the app. */
export const hostileRequest = (targets: FuzzTargets): fc.Arbitrary<HostileRequest> =>
  fc
    .tuple(
      fc.oneof(
        ...routes(targets).map((route) =>
          route.method.chain((method) =>
            fc.tuple(
              fc.constant(route),
              fc.constant(method),
              route.target,
              route.body ?? fc.constant(undefined),
            ),
          ),
        ),
      ),
      garbageHeaders,
      fc.constantFrom<Caller>('anonymous', 'key-header', 'key-header', 'key-param'),
      fc.oneof(
        { weight: 14, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: garbageKeyParameter },
      ),
      fc.integer({ min: 1, max: 254 }),
    )
    .map(([[route, method, target, body], headers, caller, badKey, host]) => ({
      kind: route.kind,
      method,
      target: badKey === undefined ? target : `${target}${target.includes('?') ? '&' : '?'}${badKey}`,
      headers,
      ...(body === undefined || method === 'GET' || method === 'HEAD' ? {} : { body }),
      caller,
      address: `198.51.100.${host}`,
    }))

/** The request `app.fetch` takes for a hostile request, the fuzz key in it as its caller says. */
export const toFetchRequest = (
  request: HostileRequest,
  key: string,
  origin = 'http://localhost',
): Request => {
  const headers = new Headers()
  for (const [name, value] of request.headers) headers.append(name, value)
  if (request.caller === 'key-header') headers.set('authorization', `Bearer ${key}`)
  else if (request.caller === 'anonymous') headers.set('x-forwarded-for', request.address)
  const target =
    request.caller === 'key-param'
      ? `${request.target}${request.target.includes('?') ? '&' : '?'}api_key=${key}`
      : request.target
  return new Request(`${origin}${target}`, {
    method: request.method,
    headers,
    redirect: 'manual',
    ...(request.body === undefined ? {} : { body: request.body as string | Uint8Array<ArrayBuffer> }),
  })
}

// --- Raw requests ----------------------------------------------------------------------------------------

/** A request only a socket can send: bytes of the request line and headers as given. */
export interface RawRequest {
  readonly kind: string
  readonly bytes: Uint8Array
}

const ascii = (text: string) => new TextEncoder().encode(text)
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

/** A request target whose request line (`GET <target> HTTP/1.1`) is `lineBytes` long. */
export const targetOfLineLength = (prefix: string, lineBytes: number): string => {
  const fixed = 'GET  HTTP/1.1'.length
  return `${prefix}${'a'.repeat(Math.max(0, lineBytes - fixed - prefix.length))}`
}

const rawHead = (method: string, target: Uint8Array, headers: Uint8Array[], key: string | undefined) =>
  concat(
    ascii(`${method} `),
    target,
    ascii(' HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n'),
    ...(key === undefined ? [] : [ascii(`authorization: Bearer ${key}\r\n`)]),
    ...headers.map((header) => concat(header, ascii('\r\n'))),
    ascii('\r\n'),
  )

/** Raw-bytes requests: bad percent-encoding and invalid UTF-8 in the line, lines near 8,190 bytes, bad headers. */
export const rawRequest = (key: string): fc.Arbitrary<RawRequest> => {
  const path = fc.constantFrom(
    '/works',
    '/works/random',
    '/',
    '/authors',
    '/query',
    '/validate',
    '/autocomplete',
  )
  const parameter = fc.constantFrom('filter=', 'search=', 'oql=', 'q=', 'per_page=', 'sort=', 'api_key=', '')
  const badBytes = fc.oneof(
    fc
      .uint8Array({ minLength: 1, maxLength: 12 })
      .map((bytes) => bytes.map((b) => (b <= 0x20 || b === 0x7f ? 0x80 | b : b))),
    fc.constantFrom(
      new Uint8Array([0xff, 0xfe]),
      new Uint8Array([0xc0, 0xaf]),
      new Uint8Array([0xed, 0xa0, 0x80]),
      new Uint8Array([0xe0, 0xa4]),
      ascii('%'),
      ascii('%zz'),
      ascii('%E0%A4'),
      ascii('%ED%A0%80'),
      ascii('%00'),
      ascii('\u00e9'),
    ),
  )
  const withKey = fc.boolean()
  const badLine = fc
    .tuple(
      path,
      parameter,
      fc.array(fc.oneof(badBytes, hostileValue.map(ascii)), { minLength: 1, maxLength: 4 }),
      withKey,
    )
    .map(([p, name, values, keyed]) => ({
      kind: 'raw: bad bytes in the line',
      bytes: rawHead('GET', concat(ascii(`${p}?${name}`), ...values), [], keyed ? key : undefined),
    }))
  const nearLimit = fc
    .tuple(
      fc.integer({ min: 8_170, max: 8_210 }),
      fc.constantFrom('/works?filter=title.search:', '/works?search=', '/?oql=', '/authors?q='),
      fc.constantFrom('GET', 'HEAD'),
      withKey,
    )
    .map(([lineBytes, prefix, method, keyed]) => ({
      kind: 'raw: a line near 8,190 bytes',
      bytes: rawHead(
        method,
        ascii(targetOfLineLength(prefix, lineBytes - (method.length - 3))),
        [],
        keyed ? key : undefined,
      ),
    }))
  const badHeader = fc
    .tuple(
      path,
      fc.oneof(
        fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) =>
          concat(
            ascii('x-garbage: '),
            bytes.map((b) => (b === 0x0a || b === 0x0d ? 0x21 : b)),
          ),
        ),
        fc.constantFrom(
          ascii('authorization: Bearer \u00ff\u00fe'),
          concat(ascii('authorization: Bearer '), new Uint8Array([0xff, 0xc0, 0x80])),
          ascii('authorization:'),
          ascii('content-length: -1'),
          ascii('content-length: abc'),
          ascii('content-length: 99999999999999999999'),
          ascii('transfer-encoding: chunked, identity'),
          ascii('x-forwarded-for: \u0000'),
          ascii(' folded: value'),
          ascii('no colon here'),
          ascii(': empty name'),
          ascii('bad name: v'),
          ascii(`x-long: ${'v'.repeat(70_000)}`),
          ascii('host: evil.example'),
        ),
      ),
      withKey,
    )
    .map(([p, header, keyed]) => ({
      kind: 'raw: a garbage header',
      bytes: rawHead('GET', ascii(p), [header], keyed ? key : undefined),
    }))
  const oddLine = fc
    .constantFrom(
      'GET /works?per_page=1 HTTP/1.0\r\n\r\n',
      'GET /works?per_page=1 HTTP/9.9\r\nhost: x\r\n\r\n',
      'GET http://127.0.0.1/works?per_page=1 HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
      'OPTIONS * HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
      'BREW /works HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
      'GET works HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
      'GET /works\r\n\r\n',
      'GET  /works HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n',
      'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 5\r\nconnection: close\r\n\r\n{"oql',
      'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\nzz\r\n',
      'POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 12\r\nconnection: close\r\n\r\n{"oql":"\u00ff"}',
    )
    .map((text) => ({ kind: 'raw: an odd request line', bytes: new TextEncoder().encode(text) }))
  return fc.oneof(badLine, nearLimit, badHeader, oddLine)
}

// --- The judge -------------------------------------------------------------------------------------------

/** What one answer was: its status, its error code when it has one, and what is wrong with it. */
export interface Judgement {
  readonly status: number
  readonly error?: string
  readonly problem?: string
}

// The pages for people (`/playground`, `/docs` and their assets) answer a page, script or style, not JSON.
const PAGE_PATH = /^\/(?:playground|docs)(?:\/assets\/[^/?]*)?(?:\?|$)/
const PAGE_MEDIA_TYPE = /^(?:text\/(?:html|javascript|css|plain)|application\/json)\b/i

/**
 * Judges an answer: no 500, no 5xx but the documented 503s (and 501 `not_supported`, which the OpenAPI
 * document lists for plans a catalog cannot answer), every body JSON (HEAD and 204 have none) but a page's
 * 200 at a page path (`target`, when the caller knows it).
 */
export const judgeAnswer = (
  method: string,
  status: number,
  contentType: string | null,
  body: string,
  target?: string,
): Judgement => {
  let parsed: unknown
  if (status === 200 && target !== undefined && PAGE_PATH.test(target)) {
    if (!PAGE_MEDIA_TYPE.test(contentType ?? '')) return { status, problem: `a page answered ${contentType}` }
    if (method !== 'HEAD' && body === '') return { status, problem: 'a page answered an empty body' }
    return { status }
  }
  if (method === 'HEAD' || status === 204 || status === 304) {
    if (body !== '') return { status, problem: `a ${method} answered ${status} with a body` }
  } else {
    // JSON Lines (a bulk lookup's `format=jsonl`): every line JSON.
    const lines =
      status === 200 && /x-ndjson/i.test(contentType ?? '') ? body.split('\n').filter(Boolean) : [body]
    try {
      for (const line of lines) parsed = JSON.parse(line)
    } catch {
      return { status, problem: `the body is not JSON: ${JSON.stringify(body.slice(0, 120))}` }
    }
    if (!/json/i.test(contentType ?? '')) return { status, problem: `the content type is ${contentType}` }
  }
  // The stable code of an error body (its `error` is the public server's words for the kind of failure).
  const error =
    typeof parsed === 'object' && parsed !== null && typeof (parsed as { code?: unknown }).code === 'string'
      ? (parsed as { code: string }).code
      : undefined
  const judged = error === undefined ? { status } : { status, error }
  if (status === 503 && (error === undefined || !DOCUMENTED_503_CODES.has(error)) && method !== 'HEAD')
    return { ...judged, problem: `503 ${error ?? '(no code)'} is not a documented 503` }
  if (status === 501 && method !== 'HEAD' && error !== 'not_supported')
    return { ...judged, problem: `501 ${error ?? '(no code)'}` }
  if (status >= 500 && status !== 503 && status !== 501) return { ...judged, problem: `answered ${status}` }
  if (status < 100 || status > 599) return { ...judged, problem: `answered status ${status}` }
  return judged
}

/** A request target for messages, cut to a readable length. */
export const describeRequest = (method: string, target: string): string =>
  `${method} ${target.length > 300 ? `${target.slice(0, 300)}… (${target.length} chars)` : target}`
