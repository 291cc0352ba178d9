// `oqlkit query`'s command line: what the parser reads and `--help` prints (command-line-parser.ts).
import type { CommandLine } from './command-line-parser.ts'
import { DEFAULT_CATALOG_DIR } from './ingest-command-line.ts'

export const QUERY_FORMATS = ['table', 'json', 'jsonl', 'csv', 'parquet'] as const

export const QUERY_COMMAND_LINE = {
  synopsis: 'oqlkit query "<OQL or classic URL>" [options]',
  options: {
    catalog: {
      type: 'string',
      value: 'a catalog folder',
      placeholder: 'DIR',
      help: `The catalog folder (default ${DEFAULT_CATALOG_DIR}).`,
    },
    format: {
      type: 'string',
      value: `one of ${QUERY_FORMATS.join(', ')}`,
      placeholder: QUERY_FORMATS.join('|'),
      help: 'How rows are written (default table on a terminal, jsonl otherwise); parquet needs --out.',
    },
    out: {
      type: 'string',
      value: 'a file to write',
      placeholder: 'FILE',
      help: 'Write the rows into this file instead of standard output (its folder must exist; a query that cannot run leaves the file as it was).',
    },
    sql: {
      type: 'boolean',
      help: 'Print the SQL the query runs as, instead of its rows (a search by meaning is run first: the works it finds are the parameters).',
    },
  },
  notes: ["Every matching row is written, not one page. '-' reads the query from standard input."],
} as const satisfies CommandLine
