/** What a command prints and the exit code it ends with; commands never call `process.exit` themselves. */
export interface CommandResult {
  readonly exitCode: number
  readonly stdout?: string
  readonly stderr?: string
}

/** What a command may use besides its arguments: standard input, and a channel for progress. */
export interface CommandContext {
  readonly readStdin: () => Promise<string>
  /** Where progress goes (standard error), kept apart from the result on standard output. */
  readonly writeProgress: (text: string) => void
  /** True when progress can be redrawn in place (a terminal), false for logs and pipes. */
  readonly interactive: boolean
}

export interface CliCommand {
  readonly name: string
  readonly usage: string
  run(args: readonly string[], context: CommandContext): Promise<CommandResult>
}

export const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`

export const usageError = (command: CliCommand, problem: string): CommandResult => ({
  exitCode: 2,
  stderr: `oqlkit ${command.name}: ${problem}\nUsage: ${command.usage}\n`,
})
