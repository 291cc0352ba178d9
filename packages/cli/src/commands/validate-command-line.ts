// `oqlkit validate`'s command line: what the parser reads and `--help` prints (command-line-parser.ts).
import type { CommandLine } from './command-line-parser.ts'

export const VALIDATE_COMMAND_LINE = {
  synopsis: 'oqlkit validate <oql | ->',
  options: {},
  notes: [
    "Prints every diagnostic as JSON (code, message, span, fix) and exits 1 when there are errors. '-' reads the query from standard input.",
  ],
} as const satisfies CommandLine
