import { parseArgs } from 'node:util'
import { closestMatches } from '@oqlkit/oqo-schema/registry'
import { type CliCommand, type CommandResult, usageError } from './cli-command.ts'

/** One option of a command: a switch (`--admin`) or an option with a value (`--port 8080`, `--port=8080`). */
export interface OptionDeclaration {
  readonly type: 'string' | 'boolean'
  /** What the value is, for the message when it is missing: "a folder", "a port number". */
  readonly value?: string
  /** The value's name in the help (`--port N`): short, capitals or the choices. */
  readonly placeholder?: string
  /** The option may be given more than once (`--cors-origin A --cors-origin B`); its values come as a list. */
  readonly multiple?: boolean
  /** What the option does and its default, for `oqlkit <command> --help`. */
  readonly help: string
}

export type OptionTable = Readonly<Record<string, OptionDeclaration>>

/**
 * A command's command line, declared apart from the code that runs it so that `--help` reads it without loading
 * DuckDB, h3 or Redis: the synopsis, every option (parsed and described from the same table) and notes.
 */
export interface CommandLine<T extends OptionTable = OptionTable> {
  /** The usage line: `oqlkit ingest <snapshot-dir> [options]`. */
  readonly synopsis: string
  readonly options: T
  /** Paragraphs after the options: defaults and behaviour no single option owns. */
  readonly notes?: readonly string[]
}

export type OptionValues<T extends OptionTable> = {
  readonly [K in keyof T]?: T[K]['type'] extends 'boolean'
    ? boolean
    : T[K] extends { readonly multiple: true }
      ? readonly string[]
      : string
}

const typesOf = (options: OptionTable) =>
  Object.fromEntries(
    Object.entries(options).map(([name, { type, multiple }]) => [
      name,
      { type, multiple: multiple === true },
    ]),
  )

/** A command line that cannot run: the message names the flag and says what it needs; exit code 2. */
export class UsageProblem extends Error {}

/**
 * Parses a command line with `node:util` `parseArgs`, strictly: an unknown option, a missing value, a value
 * given to a switch, an option given twice or a wrong number of positionals is a UsageProblem whose
 * message names the flag as typed and says what it needs. `parseArgs` itself finds the problems; its own
 * messages (which name `--x <value>` and suggest `--` for positionals) are replaced by shorter ones.
 */
export const parseCommandLine = <T extends OptionTable>(
  args: readonly string[],
  options: T,
  positionals: { readonly names: readonly string[]; readonly optional?: number } = { names: [] },
): { readonly values: OptionValues<T>; readonly positionals: readonly string[] } => {
  let parsed: { values: Record<string, unknown>; positionals: string[] }
  try {
    parsed = parseArgs({
      args: [...args],
      options: typesOf(options),
      allowPositionals: positionals.names.length > 0,
      strict: true,
    })
  } catch (error) {
    throw new UsageProblem(diagnose(args, options, positionals.names.length > 0) ?? String(error))
  }
  const repeated = repeatedOption(args, options)
  if (repeated !== undefined) throw new UsageProblem(`${repeated} is given twice: give it once`)
  const required = positionals.names.length - (positionals.optional ?? 0)
  if (parsed.positionals.length < required)
    throw new UsageProblem(`no ${positionals.names[parsed.positionals.length]} given`)
  if (parsed.positionals.length > positionals.names.length)
    throw new UsageProblem(
      `unexpected argument${parsed.positionals.length - positionals.names.length > 1 ? 's' : ''} ${parsed.positionals
        .slice(positionals.names.length)
        .join(' ')}${positionals.names.length === 1 ? ' (quote a value that has spaces)' : ''}`,
    )
  return { values: parsed.values as OptionValues<T>, positionals: parsed.positionals }
}

/** The tokens of a command line read leniently: what the checks below look through. */
const lenientTokens = (args: readonly string[], options: OptionTable) =>
  parseArgs({
    args: [...args],
    options: typesOf(options),
    strict: false,
    allowPositionals: true,
    tokens: true,
  }).tokens

/** Which token strict parsing refused, and why. */
const diagnose = (
  args: readonly string[],
  options: OptionTable,
  allowPositionals: boolean,
): string | undefined => {
  const tokens = lenientTokens(args, options)
  const known = Object.keys(options).map((name) => `--${name}`)
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (!allowPositionals) return `unexpected argument ${token.value}`
      continue
    }
    if (token.kind !== 'option') continue
    const declared = Object.hasOwn(options, token.name) ? options[token.name] : undefined
    if (declared === undefined || !token.rawName.startsWith('--')) {
      if (known.length === 0) return `unknown option ${token.rawName} (this command takes none)`
      const meant = closestMatches(`--${token.name}`, known, 1, 0.7)[0]
      return `unknown option ${token.rawName}${meant === undefined ? '' : `: did you mean ${meant}?`} (options: ${known.join(', ')})`
    }
    if (declared.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value`
    if (declared.type === 'string') {
      const needs = `${token.rawName} needs ${declared.value ?? 'a value'}`
      if (token.value === undefined) return needs
      if (!token.inlineValue && token.value.startsWith('-'))
        return `${needs} (got ${token.value}; write ${token.rawName}=${token.value} if that is the value)`
    }
  }
  return undefined
}

const repeatedOption = (args: readonly string[], options: OptionTable): string | undefined => {
  const tokens = lenientTokens(args, options)
  const seen = new Set<string>()
  for (const token of tokens) {
    if (token.kind !== 'option' || options[token.name]?.multiple === true) continue
    if (seen.has(token.name)) return token.rawName
    seen.add(token.name)
  }
  return undefined
}

/**
 * A number option: undefined when absent; a UsageProblem saying `<flag> needs <expected> (was <text>)`
 * when the text is not a plain decimal number (no hex, exponent or blanks, which `Number` would take) or
 * fails `accepts`.
 */
export const numberOption = (
  flag: string,
  text: string | undefined,
  expected: string,
  accepts: (value: number) => boolean = () => true,
): number | undefined => {
  if (text === undefined) return undefined
  const value = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN
  if (!Number.isFinite(value) || !accepts(value))
    throw new UsageProblem(`${flag} needs ${expected} (was ${text})`)
  return value
}

/** A whole-number option from `min` to `max`. */
export const integerOption = (
  flag: string,
  text: string | undefined,
  expected: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined =>
  numberOption(flag, text, expected, (value) => Number.isInteger(value) && value >= min && value <= max)

/** A DuckDB memory limit such as 8GB or 512MiB. */
export const memoryLimitOption = (text: string | undefined, flag = '--memory-limit'): string | undefined => {
  if (text !== undefined && !/^\d+(\.\d+)?\s*[KMGT]i?B$/i.test(text))
    throw new UsageProblem(`${flag} needs a size such as 8GB (was ${text})`)
  return text
}

/** An enumerated option: one of `choices`, or a UsageProblem listing them. */
export const choiceOption = <C extends string>(
  flag: string,
  text: string | undefined,
  choices: readonly C[],
): C | undefined => {
  if (text === undefined) return undefined
  if (!(choices as readonly string[]).includes(text))
    throw new UsageProblem(`${flag} needs one of ${choices.join(', ')} (was ${text})`)
  return text as C
}

/** Runs a command's body, turning a UsageProblem into the usage error of the command (exit code 2). */
export const withUsageProblems = async (
  command: CliCommand,
  body: () => Promise<CommandResult>,
): Promise<CommandResult> => {
  try {
    return await body()
  } catch (error) {
    if (error instanceof UsageProblem) return usageError(command, error.message)
    throw error
  }
}
