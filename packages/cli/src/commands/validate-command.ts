import { validateOql } from '@oqlkit/oql'
import { type CliCommand, json, usageError } from './cli-command.ts'

export const validateCommand: CliCommand = {
  name: 'validate',
  usage: "oqlkit validate <oql | ->   ('-' reads the query from standard input)",
  summary:
    'Lint OQL: prints every diagnostic with its code, span and fix as JSON; exit 1 when there are errors.',
  async run(args, context) {
    if (args.length !== 1)
      return usageError(
        this,
        args.length === 0 ? 'no query given' : 'give the query as one argument (quote it)',
      )
    const text = args[0] === '-' ? await context.readStdin() : args[0]!
    const diagnostics = validateOql(text)
    return {
      exitCode: diagnostics.length === 0 ? 0 : 1,
      stdout: json({ valid: diagnostics.length === 0, diagnostics }),
    }
  },
}
