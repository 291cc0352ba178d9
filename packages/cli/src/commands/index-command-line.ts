// `oqlkit index`'s command line: what the parser reads and `--help` prints (command-line-parser.ts).
import type { CommandLine } from './command-line-parser.ts'

export const INDEX_COMMAND_LINE = {
  synopsis: 'oqlkit index <catalog-dir> [options]',
  options: {
    'memory-limit': {
      type: 'string',
      value: 'a size such as 2GB',
      placeholder: 'SIZE',
      help: "DuckDB's memory limit while it builds (default 2GB); past it DuckDB spills to disk.",
    },
    threads: {
      type: 'string',
      value: 'a positive whole number',
      placeholder: 'N',
      help: 'DuckDB threads (default one per core, at most one per 256 MiB of the memory limit; OQLKIT_DUCKDB_THREADS sets the default too).',
    },
    'segment-docs': {
      type: 'string',
      value: 'a positive whole number',
      placeholder: 'N',
      help: 'Documents tokenized at a time (default: as many as fit a share of the memory limit).',
    },
  },
  notes: [
    'Builds the search index of a catalog that has none (ingested with --no-search-index) or an outdated one, in place: a failure before the new index is swapped in leaves the catalog as it was.',
  ],
} as const satisfies CommandLine
