// `oqlkit translate`'s command line: what the parser reads and `--help` prints (command-line-parser.ts).
import type { CommandLine } from './command-line-parser.ts'

export const TRANSLATE_FORMATS = ['json', 'oql', 'url', 'oqo'] as const
export type TranslateFormat = (typeof TRANSLATE_FORMATS)[number]

export const TRANSLATE_COMMAND_LINE = {
  synopsis: 'oqlkit translate [--oql | --oqo | --url] [--format json|oql|url|oqo] <query | ->',
  options: {
    oql: { type: 'boolean', help: 'The query is OQL text.' },
    oqo: { type: 'boolean', help: 'The query is OQO JSON.' },
    url: {
      type: 'boolean',
      help: 'The query is a classic URL (https://api.openalex.org/works?filter=…, or its path).',
    },
    format: {
      type: 'string',
      value: `one of ${TRANSLATE_FORMATS.join(', ')}`,
      placeholder: TRANSLATE_FORMATS.join('|'),
      help: 'What to print: the whole /query result (json, the default) or one form of the query.',
    },
  },
  notes: [
    "Without --oql, --oqo or --url, a query that starts with http://, https:// or / is read as a URL, one that starts with { as OQO, anything else as OQL. '-' reads the query from standard input.",
  ],
} as const satisfies CommandLine
