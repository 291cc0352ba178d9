import { closestMatches } from '@oqlkit/oqo-schema/registry'
import type { CliCommand, CommandContext, CommandResult } from './commands/cli-command.ts'
import { renderCommandHelp } from './commands/command-help.ts'
import type { CommandLine } from './commands/command-line-parser.ts'

/**
 * One command as the command line lists it: its name and summary, and how to load its command line and itself.
 * A command's module is imported only when that command runs: most of them load DuckDB, h3 or Redis, which
 * `oqlkit --help`, `oqlkit <command> --help` and `oqlkit translate` have no use for and would wait for.
 */
export interface CommandEntry {
  readonly name: string
  readonly summary: string
  /** Its command line alone (options and their help), without the modules the command runs on. */
  readonly line: () => Promise<CommandLine>
  readonly load: () => Promise<CliCommand>
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'serve',
    summary: 'Serve a catalog over HTTP; with no catalog yet, build one from the bundled sample first.',
    line: async () => (await import('./commands/serve-command-line.ts')).SERVE_COMMAND_LINE,
    load: async () => (await import('./commands/serve-command.ts')).serveCommand,
  },
  {
    name: 'ingest',
    summary: 'Build (or update) a catalog from an OpenAlex snapshot in either public layout, with progress.',
    line: async () => (await import('./commands/ingest-command-line.ts')).INGEST_COMMAND_LINE,
    load: async () => (await import('./commands/ingest-command.ts')).ingestCommand,
  },
  {
    name: 'index',
    summary: "Build (or rebuild) a catalog's full-text search index in place, with progress.",
    line: async () => (await import('./commands/index-command-line.ts')).INDEX_COMMAND_LINE,
    load: async () => (await import('./commands/index-command.ts')).indexCommand,
  },
  {
    name: 'load',
    summary:
      'Load a catalog into ClickHouse (one server or a cluster) as a new version, served once every table is counted.',
    line: async () => (await import('./commands/load-command-line.ts')).LOAD_COMMAND_LINE,
    load: async () => (await import('./commands/load-command.ts')).loadCommand,
  },
  {
    name: 'generate',
    summary:
      'Write a synthetic snapshot of N works (legacy layout, realistic skew) on every core, deterministic for a seed.',
    line: async () => (await import('./commands/generate-command-line.ts')).GENERATE_COMMAND_LINE,
    load: async () => (await import('./commands/generate-command.ts')).generateCommand,
  },
  {
    name: 'keys',
    summary: 'Issue (printed once, stored hashed), list, revoke and update API keys and their budgets.',
    line: async () => (await import('./commands/keys-command-line.ts')).KEYS_COMMAND_LINE,
    load: async () => (await import('./commands/keys-command.ts')).keysCommand,
  },
  {
    name: 'query',
    summary:
      'Run an OQL query or classic URL over a catalog and write every matching row (table, JSON, CSV, Parquet).',
    line: async () => (await import('./commands/query-command-line.ts')).QUERY_COMMAND_LINE,
    load: async () => (await import('./commands/query-command.ts')).queryCommand,
  },
  {
    name: 'translate',
    summary:
      'Translate a query between OQL, OQO JSON and the classic URL; prints one form or the /query result.',
    line: async () => (await import('./commands/translate-command-line.ts')).TRANSLATE_COMMAND_LINE,
    load: async () => (await import('./commands/translate-command.ts')).translateCommand,
  },
  {
    name: 'validate',
    summary:
      'Lint OQL: prints every diagnostic with its code, span and fix as JSON; exit 1 when there are errors.',
    line: async () => (await import('./commands/validate-command-line.ts')).VALIDATE_COMMAND_LINE,
    load: async () => (await import('./commands/validate-command.ts')).validateCommand,
  },
]

export const usage = (): string =>
  [
    'Usage: oqlkit <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(10)} ${command.summary}`),
    '  help       Show this help.',
    '',
  ].join('\n')

const SILENT: CommandContext = { readStdin: async () => '', writeProgress: () => {}, interactive: false }

/** Runs one command line (without the `node` and script arguments). */
export const runCli = async (
  argv: readonly string[],
  context: CommandContext = SILENT,
): Promise<CommandResult> => {
  const [name, ...args] = argv
  if (name === undefined || name === 'help' || name === '--help' || name === '-h')
    return { exitCode: 0, stdout: usage() }
  const entry = COMMANDS.find((candidate) => candidate.name === name)
  if (entry === undefined) {
    const names = COMMANDS.map((known) => known.name)
    const meant = closestMatches(name, names, 1, 0.6)[0]
    return {
      exitCode: 2,
      stderr: `oqlkit: unknown command '${name}'.${meant === undefined ? '' : ` Did you mean '${meant}'?`} Known commands: ${names.join(', ')}, help.\n`,
    }
  }
  // `oqlkit <command> --help` is a question, not a mistake: every option described, on stdout, exit 0, from the
  // command line alone (loading the command itself would load DuckDB first).
  if (args.includes('--help') || args.includes('-h'))
    return { exitCode: 0, stdout: renderCommandHelp(entry.summary, await entry.line()) }
  return (await entry.load()).run(args, context)
}
