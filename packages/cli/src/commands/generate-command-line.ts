// `oqlkit generate`'s command line: what the parser reads and `--help` prints (command-line-parser.ts).
import type { CommandLine } from './command-line-parser.ts'

export const GENERATE_COMMAND_LINE = {
  synopsis: 'oqlkit generate --works N --out DIR [options]',
  options: {
    works: {
      type: 'string',
      value: 'a positive whole number of works',
      placeholder: 'N',
      help: 'How many works to write (required); the authors, sources, institutions and the rest follow from it.',
    },
    out: {
      type: 'string',
      value: 'a folder',
      placeholder: 'DIR',
      help: 'The folder the snapshot is written into (required), in the legacy layout `oqlkit ingest` reads.',
    },
    seed: {
      type: 'string',
      value: 'a whole number',
      placeholder: 'S',
      help: 'The seed (default 1): the same seed and number of works write the same files.',
    },
    workers: {
      type: 'string',
      value: 'a whole number of worker threads, 0 or more',
      placeholder: 'N',
      help: 'Worker threads (default one per core from 16,384 works, none below: fewer works are written on this thread faster than workers start; 0 writes on this thread).',
    },
    vocabulary: {
      type: 'string',
      value: 'whole or referenced',
      placeholder: 'whole|referenced',
      help: 'Write every record of the vocabularies (whole, the default) or only those the works name (referenced).',
    },
    overwrite: {
      type: 'boolean',
      help: 'Replace what the folder holds; without it a folder that is not empty is refused.',
    },
  },
} as const satisfies CommandLine
