// `oqlkit ingest`'s command line: what the parser reads and `--help` prints (command-line-parser.ts).
import type { CommandLine } from './command-line-parser.ts'

/** The catalog folder every command uses when none is given. */
export const DEFAULT_CATALOG_DIR = '.catalog'

// The snapshot folder must exist (ingest says so, exit 1, before writing anything); --out is created.
export const INGEST_COMMAND_LINE = {
  synopsis: 'oqlkit ingest <snapshot-dir> [options]',
  options: {
    out: {
      type: 'string',
      value: 'a folder for the catalog',
      placeholder: 'DIR',
      help: `The catalog folder (default ${DEFAULT_CATALOG_DIR}): updated when it holds a catalog, built when it does not.`,
    },
    replace: {
      type: 'boolean',
      help: 'Build the catalog from the snapshot alone, dropping what the folder held (the new one is swapped in only when complete).',
    },
    'no-resume': {
      type: 'boolean',
      help: 'Start over, rather than resume from what a run that was killed or failed left parsed.',
    },
    'retrain-models': {
      type: 'boolean',
      help: 'Train the LSA and tag models again now; an update otherwise keeps them until a fifth of the works have changed since training.',
    },
    'no-search-index': {
      type: 'boolean',
      help: 'Leave out the full-text index: searches are then refused (`oqlkit index` builds it later).',
    },
    'no-text-tagger': { type: 'boolean', help: 'Leave out the tag model: /text is then refused.' },
    'no-vectors': { type: 'boolean', help: "Leave out the works' vectors: semantic search is then refused." },
    embedder: {
      type: 'string',
      value: 'lsa, use-lite or url',
      placeholder: 'NAME',
      help: "What embeds the works for semantic search: lsa (the default: a model trained on the catalog's works, fast), use-lite (the built-in sentence encoder, Universal Sentence Encoder lite: general English, about 80 ms a work on one core, 300 times LSA) or url (the server of --embeddings-url).",
    },
    'embeddings-url': {
      type: 'string',
      value: 'the URL of an OpenAI-compatible embeddings server',
      placeholder: 'URL',
      help: 'Embed works with this OpenAI-compatible embeddings server instead of the built-in LSA model (needs --embeddings-model; implies --embedder url).',
    },
    'embeddings-model': {
      type: 'string',
      value: 'the name of the server’s model',
      placeholder: 'M',
      help: 'The model the embeddings server runs.',
    },
    'memory-limit': {
      type: 'string',
      value: 'a size such as 8GB',
      placeholder: 'SIZE',
      help: "DuckDB's memory limit (default 30% of memory, at most 2 GiB); past it DuckDB spills to disk.",
    },
    'table-files': {
      type: 'string',
      value: 'a new folder for the tables as Parquet files',
      placeholder: 'DIR',
      help: 'Also write the tables as Parquet files into this folder, which must not exist yet (the catalog keeps them in catalog.duckdb).',
    },
  },
  notes: [
    'A run that was killed or failed for want of memory or disk leaves what it parsed beside the catalog; the same command resumes from it. Records are compressed with zstd (its WebAssembly build where the native one is not installed, which the run says).',
  ],
} as const satisfies CommandLine
