import type { CliCommand, CommandContext, CommandResult } from './commands/cli-command.ts'
import { generateCommand } from './commands/generate-command.ts'
import { indexCommand } from './commands/index-command.ts'
import { ingestCommand } from './commands/ingest-command.ts'
import { keysCommand } from './commands/keys-command.ts'
import { serveCommand } from './commands/serve-command.ts'
import { translateCommand } from './commands/translate-command.ts'
import { validateCommand } from './commands/validate-command.ts'

export const COMMANDS: readonly CliCommand[] = [
  serveCommand,
  ingestCommand,
  indexCommand,
  generateCommand,
  keysCommand,
  translateCommand,
  validateCommand,
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
  const command = COMMANDS.find((candidate) => candidate.name === name)
  if (command === undefined)
    return {
      exitCode: 2,
      stderr: `oqlkit: unknown command '${name}'. Known commands: ${COMMANDS.map((known) => known.name).join(', ')}, help.\n`,
    }
  // `oqlkit <command> --help` is a question, not a mistake: the command's usage, on stdout, exit 0.
  if (args.includes('--help') || args.includes('-h'))
    return { exitCode: 0, stdout: `${command.summary}\nUsage: ${command.usage}\n` }
  return command.run(args, context)
}
