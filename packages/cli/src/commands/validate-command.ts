import { validateOql } from '@oqlkit/oql'
import { type CliCommand, json } from './cli-command.ts'
import { parseCommandLine, withUsageProblems } from './command-line-parser.ts'
import { VALIDATE_COMMAND_LINE } from './validate-command-line.ts'

export const validateCommand: CliCommand = {
  name: 'validate',
  usage: `${VALIDATE_COMMAND_LINE.synopsis}   ('-' reads the query from standard input)`,
  run(args, context) {
    return withUsageProblems(this, async () => {
      const { positionals } = parseCommandLine(args, VALIDATE_COMMAND_LINE.options, { names: ['query'] })
      const text = positionals[0] === '-' ? await context.readStdin() : positionals[0]!
      const diagnostics = validateOql(text)
      return {
        exitCode: diagnostics.length === 0 ? 0 : 1,
        stdout: json({ valid: diagnostics.length === 0, diagnostics }),
      }
    })
  },
}
