import { type TranslationResult, translate } from '@oqlkit/oql'
import { type CliCommand, type CommandResult, json } from './cli-command.ts'
import { choiceOption, parseCommandLine, UsageProblem, withUsageProblems } from './command-line-parser.ts'
import { TRANSLATE_COMMAND_LINE, TRANSLATE_FORMATS, type TranslateFormat } from './translate-command-line.ts'

/** What the input flags read: each names the form of the query given. */
const INPUTS = { oql: 'oql', oqo: 'oqo', url: 'oxurl' } as const

/**
 * The form of a query given without --oql, --oqo or --url, by how it starts: a URL or its path, OQO's JSON
 * object, else OQL (whose queries start with an entity name, never with these).
 */
const formOf = (text: string): keyof typeof INPUTS => {
  const start = text.trimStart()
  if (/^(https?:\/\/|\/)/i.test(start)) return 'url'
  return start.startsWith('{') ? 'oqo' : 'oql'
}

/** The errors of a query that did not translate, one per line, each with where it is. */
const describeErrors = (result: TranslationResult): string =>
  result.validation.errors
    .map(
      (error) =>
        `${error.code}: ${error.message}${error.context === null ? '' : ` (at ${JSON.stringify(error.context)})`}${error.location === null ? '' : ` [${error.location}]`}\n`,
    )
    .join('')

/** One form of a translated query, or the reason it has none (exit 1). */
const printed = (result: TranslationResult, format: Exclude<TranslateFormat, 'json'>): CommandResult => {
  if (!result.validation.valid)
    return { exitCode: 1, stderr: `oqlkit translate: the query is not valid:\n${describeErrors(result)}` }
  if (format === 'oql') return { exitCode: 0, stdout: `${result.oql}\n` }
  if (format === 'oqo') return { exitCode: 0, stdout: json(result.oqo) }
  if (result.oxurl !== null) return { exitCode: 0, stdout: `${result.oxurl}\n` }
  const why = result.validation.warnings.find((warning) => warning.type === 'url_not_representable')
  return {
    exitCode: 1,
    stderr: `oqlkit translate: ${why?.message ?? 'No classic URL for this query.'}\n`,
  }
}

/**
 * `oqlkit translate`: a query in one form (OQL by default, or `--oqo`, `--url`) printed in another. The
 * default output stays `--format json`, the whole `/query` object (every form, the render tokens and the
 * validation), since scripts read it; `oql`, `url` and `oqo` print just that form, and a query without it
 * (invalid, or with no classic URL) exits 1 saying why on standard error.
 */
export const translateCommand: CliCommand = {
  name: 'translate',
  usage: `${TRANSLATE_COMMAND_LINE.synopsis}  (oqlkit translate --help describes every option)`,
  run(args, context) {
    return withUsageProblems(this, async () => {
      const { values, positionals } = parseCommandLine(args, TRANSLATE_COMMAND_LINE.options, {
        names: ['query'],
      })
      const given = (['oql', 'oqo', 'url'] as const).filter((name) => values[name] === true)
      if (given.length > 1)
        throw new UsageProblem(
          `give one of --oql, --oqo, --url, not ${given.map((name) => `--${name}`).join(' and ')}`,
        )
      const format = choiceOption('--format', values.format, TRANSLATE_FORMATS) ?? 'json'
      const text = positionals[0] === '-' ? await context.readStdin() : positionals[0]!
      const result = translate({ [INPUTS[given[0] ?? formOf(text)]]: text })
      if (format === 'json') return { exitCode: result.validation.valid ? 0 : 1, stdout: json(result) }
      return printed(result, format)
    })
  },
}
