import { EXPORT_FORMATS } from '../export/export-format.ts'
import { EXPORT_BATCH_ROWS } from '../export/export-handler.ts'
import { type OpenApiObject, parameter, query, response } from './openapi-parts.ts'
import { ref } from './openapi-schemas.ts'

/** The media types of an export's body; the JSON one is an array of entities. */
const EXPORT_CONTENT = {
  'application/json': { schema: { type: 'array', items: ref('Entity') } },
  'application/jsonl': { schema: { type: 'string' } },
  'text/csv': { schema: { type: 'string' } },
  'application/vnd.apache.parquet': {
    schema: { type: 'string', contentMediaType: 'application/vnd.apache.parquet' },
  },
}

/** An export's answer: the file, and how many rows it holds. */
const EXPORTED_ROWS = {
  description: 'Every matching row, as a download (`Content-Disposition: attachment`).',
  headers: {
    'X-Export-Rows': {
      description: 'How many rows the body holds: a body that ends short of it broke off.',
      schema: { type: 'integer', minimum: 0 },
    },
  },
  content: EXPORT_CONTENT,
}

/** The export operations: `GET /{entities}/export` and `GET /export`, every row of a query as a file. */
export const exportPaths = (): Record<string, OpenApiObject> => ({
  '/{entities}/export': {
    get: {
      operationId: 'exportEntities',
      tags: ['Entities'],
      summary: 'Every row of a list query, streamed as CSV, JSON Lines, JSON or Parquet',
      description: `Takes the parameters of the list (\`filter\`, \`search\`, \`search.semantic\`, \`sort\`, \`select\`, \`sample\` with \`seed\`, \`corpus\`) and streams every matching row, past the 10,000 results paging reaches, in the list's order (read ${EXPORT_BATCH_ROWS.toLocaleString('en-US')} rows at a time by keyset, each batch only once the client has taken the last). \`page\`, \`per_page\`, \`cursor\` and \`group_by\` are refused (400 \`invalid_export\`). CSV has one column per selected field (without \`select\`, the top-level fields of the records), scalars as they are, nested objects and arrays as JSON text; JSON Lines one record a line; JSON one array; Parquet one typed column per top-level field (nested values as STRUCT, LIST or MAP), written whole before it is sent. Price: the list price of the query (list, search or semantic) for every 1,000 rows begun, charged once the count is known and before any row is sent: a budget that cannot pay it answers 429 and is charged nothing, as is a failed export (the count is in \`X-Export-Rows\`, the price in \`X-RateLimit-Credits-Used\`). A client that goes away stops the export (its running statement is interrupted); one that reads nothing for 60 s is given up on. An export holds a slot of the exports' own admission queue for its whole length, apart from the slots of searches, group-bys and samples, so exports never keep those waiting (lists and single entities never queue). Its first batch is read before it queues, as its list would be: a query the storage refuses (a search it cannot run) is a 400 at once. A full export queue answers 503 \`server_busy\` at once, and a wait for a slot ends after the time budget of one request (\`--query-timeout\`, 10 s) with 503 \`server_busy\` too, both with \`Retry-After\`. The rows are parsed and written a few ms of work at a time, so exports do not hold up other requests.`,
      parameters: [
        parameter('entities'),
        query('format', 'The file format.', { enum: [...EXPORT_FORMATS] }),
        parameter('filter'),
        parameter('search'),
        parameter('search.semantic'),
        parameter('sort'),
        parameter('sample'),
        parameter('seed'),
        parameter('select'),
        parameter('corpus'),
        parameter('include_xpac'),
        parameter('api_key'),
        parameter('mailto'),
      ],
      responses: {
        200: EXPORTED_ROWS,
        400: response('BadRequest'),
        404: response('NotFound'),
        414: response('RequestLineTooLong'),
        501: response('NotSupported'),
        default: response('ServerError'),
      },
    },
  },
  '/export': {
    get: {
      operationId: 'exportQuery',
      tags: ['Query language'],
      summary: 'Every row of an OQL or OQO query, streamed as CSV, JSON Lines, JSON or Parquet',
      description:
        'The export of `GET /{entities}/export` for a query given as OQL (`oql=`) or as an OQO in JSON (`oqo=`), with `sort` and `select` beside it; the entity is the query’s own. The same formats, price, admission and cancellation. Paging parameters are refused (400 `invalid_export`), as is a query that groups; a query that does not read is a 400 listing its diagnostics.',
      parameters: [
        query('oql', 'The query as OQL text (this or `oqo`).'),
        query('oqo', 'The query as an OQO, JSON text (this or `oql`).'),
        query('format', 'The file format.', { enum: [...EXPORT_FORMATS] }),
        parameter('sort'),
        parameter('select'),
        parameter('api_key'),
        parameter('mailto'),
      ],
      responses: {
        200: EXPORTED_ROWS,
        400: response('BadRequest'),
        default: response('ServerError'),
      },
    },
  },
})
