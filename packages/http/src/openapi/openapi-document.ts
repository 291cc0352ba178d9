import { collectionPaths } from './openapi-collection-paths.ts'
import { exportPaths } from './openapi-export-paths.ts'
import { lookupPaths } from './openapi-lookup-paths.ts'
import { pagePaths } from './openapi-page-paths.ts'
import { builtPaths, componentParameters, componentResponses } from './openapi-paths.ts'
import { componentSchemas } from './openapi-schemas.ts'
import { withServerWideResponses } from './openapi-server-responses.ts'
import { snowballPaths } from './openapi-snowball-paths.ts'
import { textPaths } from './openapi-text-paths.ts'

/** The version of the API the document describes (the query language is alpha; see `info.description`). */
export const API_VERSION = '0.1.0'

const DESCRIPTION = `A catalog of scholarly works, authors, sources, institutions and the rest, answering the OpenAlex API: the same routes, filters and JSON, so OpenAlex clients (pyalex, openalexR, openalex-ts) work by changing only their base URL. Queries can also be written in OQL, a readable query language, which translates to and from the classic URL.

## First calls

Try each one below with **Try it out**, or in a terminal:

- \`GET /works?search=climate&per_page=5\`: five works that mention climate, most relevant first.
- \`GET /works?filter=publication_year:2020,is_oa:true&sort=cited_by_count:desc\`: open-access works of 2020, most cited first.
- \`GET /works?group_by=publication_year\`: how many works each year has.
- \`GET /?oql=works where year is 2020 and open access is true\`: the same kind of query in OQL (the [playground](playground) helps write it).
- \`GET /works/W2741809807\`: one work, by its OpenAlex id, DOI (\`/works/doi:10.…\`) or other id.

A list answers \`{meta, results}\`: \`meta.count\` says how many match, \`page\`/\`per_page\` or \`cursor\` page through them (\`per_page\` up to 200, unless the server's \`--max-per-page\` allows more).

## Which data

Every answer names the data it comes from: \`meta.data_version\` (\`{name, snapshot_date, fingerprint}\`) where an answer has \`meta\`, and the \`Data-Version\` header on every response. A server may hold several versions at once (\`oqlkit serve --catalog NAME=DIR …\`, or the versions a ClickHouse keeps, the newest loaded the default): \`data_version=NAME\` (or its fingerprint) on any route picks one, the first without it; \`GET /\` lists them, and a version the server does not hold is a 400 \`unknown_data_version\`.

## Errors

Errors are JSON: \`{error, code, message, parameter?, errors?}\`. \`error\` is the kind of failure in the public server's words, which its clients match on (\`Invalid query parameters error.\` for a 400 about the query, \`Invalid or missing API key\` for a 401); \`code\` is a stable code for programs, \`message\` what was wrong and how to fix it. The execute endpoint adds \`validation: {valid: false, errors, warnings}\` (with the \`oqo\` once the query was read), \`/query\` answers its translation object with the errors in \`validation\`, and a failing query is never a silent empty result. OQL, OQO and their endpoints are alpha: details may change.

## The query language

OQL, OQO (its JSON form) and the classic URL are three forms of one query. The execute endpoint at the root (\`GET /?oql=\`, \`POST /\`) runs any of them; \`/query/…\` translates between them, \`/validate\` lints OQL, \`/parse-context\` and \`/autocomplete\` help an editor complete it, and \`/properties/{entity}\` lists each entity's fields.

## Text tagging

Text tagging (\`/text\`, GET or POST) tags a title and abstract with keywords and concepts from a model the server trains from its own catalog at ingest.

## Metering and keys

Metering (\`oqlkit serve\` turns it on with \`--metering\`, \`--keys\` or \`--redis\`; a plain start serves its user unmetered): every call is priced and charged to the caller's daily budget, its key's or, without a key, its address's (\`GET /rate-limit\` reports it, and \`X-RateLimit-*\` headers come on every response, the collection port's included; a refused key's 401 or 400 reports its address's anonymous allowance, unspent). A key travels as \`api_key=\`, as \`Authorization: Bearer <key>\` or as an \`api_key\` header; several may carry the same key, two different keys are a 400. An empty, malformed or unknown key is a 401, never anonymous use; a call the budget cannot pay, or more than 100 calls in a second, is a 429 with \`Retry-After\`, and is not charged. The collection endpoints are served when the server has a collection store, beside this API (the paths do not collide) or on a port of their own.

## Serving

Serving (\`oqlkit serve\`): CORS for every origin unless \`--cors-origin\` lists some (a preflight \`OPTIONS\` answers 204 uncharged, an origin not listed 403 \`cors_origin_refused\`; scripts may read the \`X-RateLimit-*\` headers); answers of 1 KB and more compressed with brotli or gzip as \`Accept-Encoding\` asks.`

/**
 * The OpenAPI 3.1 description of the server (`spec/openapi.json`, served at `GET /openapi.json`): the
 * routes it serves, with their request and response schemas. Built from code, like the OQO schema it
 * embeds, and committed; a test checks that the server's responses match it.
 */
export const buildOpenApiDocument = (): Record<string, unknown> => ({
  openapi: '3.1.0',
  info: {
    title: 'oqlkit API',
    version: API_VERSION,
    summary: 'Scholarly catalog API with a query language (OQL/OQO) in three interchangeable forms.',
    description: DESCRIPTION,
    license: { name: 'MIT', identifier: 'MIT' },
  },
  servers: [{ url: '/', description: 'This server.' }],
  tags: [
    { name: 'Entities', description: 'The classic catalog API.' },
    { name: 'Query language', description: 'Execute, translate, validate and autocomplete OQL and OQO.' },
    { name: 'Registry', description: 'The queryable columns of each entity.' },
    { name: 'Specification', description: 'The contract’s artifacts.' },
    { name: 'Metering', description: 'Budgets, costs and request rates.' },
    { name: 'Text', description: 'Tagging free text with keywords and concepts.' },
    { name: 'Collections', description: 'Private collections of entity ids, usable in filters.' },
    { name: 'Collections admin', description: 'Collections of every user, for admins.' },
    { name: 'Pages', description: 'Pages for people: the playground and these docs.' },
  ],
  security: [{}, { api_key: [] }, { bearer: [] }, { api_key_header: [] }],
  paths: withServerWideResponses({
    ...builtPaths(),
    ...exportPaths(),
    ...lookupPaths(),
    ...snowballPaths(),
    ...textPaths(),
    ...collectionPaths(),
    ...pagePaths(),
  }),
  components: {
    schemas: componentSchemas(),
    parameters: componentParameters(),
    responses: componentResponses(),
    securitySchemes: {
      api_key: {
        type: 'apiKey',
        in: 'query',
        name: 'api_key',
        description: 'An API key in the query string.',
      },
      bearer: { type: 'http', scheme: 'bearer', description: 'An API key as `Authorization: Bearer <key>`.' },
      api_key_header: {
        type: 'apiKey',
        in: 'header',
        name: 'api_key',
        description: 'An API key in an `api_key` request header (as openalexR sends it).',
      },
    },
  },
})
