// `oqlkit load`'s command line: what the parser reads and `--help` prints (command-line-parser.ts).
import type { CommandLine } from './command-line-parser.ts'
import { DEFAULT_CATALOG_DIR } from './ingest-command-line.ts'

export const LOAD_COMMAND_LINE = {
  synopsis: 'oqlkit load --into http://[user[:password]@]host:8123/<catalog> [options]',
  options: {
    into: {
      type: 'string',
      value: 'a ClickHouse URL',
      placeholder: 'URL',
      help: "The ClickHouse server and the catalog's name there (required; the name oqlkit when the URL names none), e.g. http://localhost:8123/oqlkit.",
    },
    catalog: {
      type: 'string',
      value: 'a catalog folder',
      placeholder: 'DIR',
      help: `The catalog folder to load (default ${DEFAULT_CATALOG_DIR}).`,
    },
    cluster: {
      type: 'string',
      value: 'a cluster name',
      placeholder: 'NAME',
      help: 'Load into this ClickHouse cluster: the tables replicated and sharded by work, so a work, its record and its links share a shard.',
    },
    'keep-versions': {
      type: 'string',
      value: 'a whole number, 1 or more',
      placeholder: 'N',
      help: 'Versions kept in ClickHouse (default 2: the new one and the one served before it); older ones are dropped.',
    },
  },
  notes: [
    'The new version is served once every table is loaded and counted. The tables of a catalog that keeps them in catalog.duckdb are first written as Parquet files into a temporary folder, removed afterwards.',
  ],
} as const satisfies CommandLine
