import { MAX_SNOWBALL_NODES, MAX_SNOWBALL_SEEDS } from '@oqlkit/engine'
import { SNOWBALL_SEGMENT } from '../request/snowball-request-reader.ts'
import { type OpenApiObject, parameter, query, response } from './openapi-parts.ts'
import { ref } from './openapi-schemas.ts'

/** Citation snowballing: `GET /works/snowball`, the works around seed works and the citations between them. */
export const snowballPaths = (): Record<string, OpenApiObject> => ({
  [`/works/${SNOWBALL_SEGMENT}`]: {
    get: {
      operationId: 'snowballWorks',
      tags: ['Entities'],
      summary: 'The works seed works cite and the works citing them, with the citations between them',
      description: `From up to ${MAX_SNOWBALL_SEEDS} seed works (\`ids\`, separated by \`|\`: ids of any kind \`/works/{id}\` takes, merged ids followed), one or two steps along citations: \`direction=cited\` to the works each work cites (its \`referenced_works\`), \`citing\` to the works citing it, \`both\` (the default). The answer lists every work reached once, with the step it was first reached at (\`depth\`, 0 for a seed; seeds first, in the order given, then each step's works by id), and every citation between two of the works, whichever step found them. A cited work the catalog does not hold is left out (\`meta.cited_not_held\` counts them); seeds that find no work are listed in \`seeds_not_found\` with the reason, and never fail the others. \`format=jsonl\` (or \`Accept: application/x-ndjson\`) answers JSON Lines: \`{"type": "seed_not_found", …}\` lines, then \`{"type": "work", …}\`, then \`{"type": "citation", …}\`. Either format is sent as it is written, about 256 KB at a time as the client reads; a client that reads nothing for 60 s is given up on. A snowball reaching more than ${MAX_SNOWBALL_NODES.toLocaleString('en-US')} works is refused whole with 400 \`snowball_too_large\`, which names the step and how to narrow it. Price: a list call for every 1,000 works answered, begun, and at least one: that one is charged before the snowball runs (a budget that cannot pay it answers 429 at once), the rest once the snowball is known (a budget that cannot pay them answers 429 and is charged nothing, as is a snowball that fails). Runs under the request deadline; its statements wait for a slot as searches and group-bys do.`,
      parameters: [
        {
          ...query('ids', `Seed works, separated by \`|\` (at most ${MAX_SNOWBALL_SEEDS}).`),
          required: true,
        },
        query('direction', 'Which citations to follow: `cited`, `citing` or `both` (the default).', {
          enum: ['both', 'cited', 'citing'],
        }),
        query('depth', 'Steps out from the seeds: 1 (the default) or 2.', { type: 'integer', enum: [1, 2] }),
        parameter('select'),
        query('format', 'The answer’s form: `json` (the default) or `jsonl`, one work or citation a line.', {
          enum: ['json', 'jsonl'],
        }),
        parameter('api_key'),
        parameter('mailto'),
      ],
      responses: {
        200: {
          description: 'The works reached and the citations between them.',
          content: {
            'application/json': { schema: ref('SnowballPage') },
            'application/x-ndjson': {
              schema: {
                type: 'string',
                description:
                  'One object a line: `{"type": "seed_not_found", "input", "error", "message"}`, `{"type": "work", "id", "depth", "record"}` or `{"type": "citation", "citing", "cited"}`.',
              },
            },
          },
        },
        400: response('BadRequest'),
        default: response('ServerError'),
      },
    },
  },
})
