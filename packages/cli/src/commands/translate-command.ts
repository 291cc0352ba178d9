import { translate } from '@oqlkit/oql'
import { type CliCommand, json, usageError } from './cli-command.ts'

const FORMS = { '--oql': 'oql', '--oqo': 'oqo', '--url': 'oxurl' } as const

export const translateCommand: CliCommand = {
  name: 'translate',
  usage:
    "oqlkit translate [--oql|--oqo|--url] <query | ->   (default --oql; '-' reads the query from standard input)",
  summary: 'Translate a query between OQL, OQO JSON and the classic URL; prints the /query result as JSON.',
  async run(args, context) {
    const flags = args.filter((arg) => arg in FORMS)
    const rest = args.filter((arg) => !(arg in FORMS))
    if (flags.length > 1)
      return usageError(this, `give one of ${Object.keys(FORMS).join(', ')}, not ${flags.join(' and ')}`)
    if (rest.length !== 1)
      return usageError(
        this,
        rest.length === 0 ? 'no query given' : 'give the query as one argument (quote it)',
      )
    const form = FORMS[(flags[0] ?? '--oql') as keyof typeof FORMS]
    const text = rest[0] === '-' ? await context.readStdin() : rest[0]!
    const result = translate({ [form]: text })
    return { exitCode: result.validation.valid ? 0 : 1, stdout: json(result) }
  },
}
