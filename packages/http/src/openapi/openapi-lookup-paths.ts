import { MAX_LOOKUP_IDS } from '@oqlkit/engine'
import { LOOKUP_SEGMENT } from '../request/lookup-request-reader.ts'
import { MAX_LOOKUP_ID_LENGTH } from '../routes/entity-id-lookup.ts'
import { jsonBody, jsonOf, type OpenApiObject, parameter, query, response } from './openapi-parts.ts'
import { ref } from './openapi-schemas.ts'

/** The bulk lookup: `POST /{entities}/lookup`, many entities by their ids at once. */
export const lookupPaths = (): Record<string, OpenApiObject> => ({
  [`/{entities}/${LOOKUP_SEGMENT}`]: {
    post: {
      operationId: 'lookupEntities',
      tags: ['Entities'],
      summary: `Up to ${MAX_LOOKUP_IDS.toLocaleString('en-US')} entities by their ids at once, one result per id in order`,
      description: `The body is \`{"ids": [...]}\`: up to ${MAX_LOOKUP_IDS.toLocaleString('en-US')} ids of any kind the path of a single entity takes, mixed freely. The answer has one result per id, in the order sent (duplicates included): the entity (its top-level \`select\`ed fields, from the query or the body), or \`null\` with \`error\` and \`message\` saying why (\`not_an_id\`, also for an id over ${MAX_LOOKUP_ID_LENGTH.toLocaleString('en-US')} characters or \`random\`; \`other_entity\`; \`not_found\`; \`deleted\`): one bad id never fails the others. A merged id is followed: its result is the entity it was merged into, with \`merged_into\` naming it. \`format=jsonl\` (or \`Accept: application/x-ndjson\`) answers JSON Lines, one result a line, without \`meta\`. Either format is sent as it is written, about 256 KB at a time as the client reads (the lookup is done first: a failure is an error status, never a cut answer); a client that reads nothing for 60 s is given up on. Price: a list call for every 1,000 ids begun, charged once the body is read and before the lookup runs (a budget that cannot pay it answers 429 and is charged nothing, as is a lookup that fails). A lookup of more than 200 ids waits for a slot as searches and group-bys do. A body that is not a JSON object with a list of strings, more than ${MAX_LOOKUP_IDS.toLocaleString('en-US')} ids, or a field that cannot be selected is a 400 saying what to send.`,
      parameters: [
        parameter('entities'),
        parameter('select'),
        query('format', 'The answer’s form: `json` (the default) or `jsonl`, one result a line.', {
          enum: ['json', 'jsonl'],
        }),
        parameter('api_key'),
        parameter('mailto'),
      ],
      requestBody: jsonBody('The ids, and optionally the fields to keep.', 'LookupRequest'),
      responses: {
        200: {
          description: 'One result per id, in the order sent.',
          content: {
            'application/json': { schema: ref('LookupPage') },
            'application/x-ndjson': {
              schema: {
                type: 'string',
                description: 'One `LookupResult` (`#/components/schemas/LookupResult`) a line.',
              },
            },
          },
        },
        400: response('BadRequest'),
        404: response('NotFound'),
        413: jsonOf('The body is larger than the server reads (4 MiB).', 'Error'),
        default: response('ServerError'),
      },
    },
  },
})
