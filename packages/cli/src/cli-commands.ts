/** What a command prints and the exit code it ends with; commands never call `process.exit` themselves. */
export interface CommandResult {
  readonly exitCode: number
  readonly stdout?: string
  readonly stderr?: string
}

export interface CliCommand {
  readonly name: string
  readonly summary: string
  run(args: readonly string[]): Promise<CommandResult>
}

const serve: CliCommand = {
  name: 'serve',
  summary: 'Serve the catalog over HTTP (arrives with the catalog storage and entity API issues).',
  async run() {
    return {
      exitCode: 0,
      stdout:
        'oqlkit: the HTTP server is not there yet. The foundation (query object schema, properties registry) is in place;\n' +
        'the bundled sample catalog and the API routes come with the catalog storage and entity API issues.\n',
    }
  },
}

export const COMMANDS: readonly CliCommand[] = [serve]

export const usage = (): string =>
  [
    'Usage: oqlkit <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(10)} ${command.summary}`),
    '  help       Show this help.',
    '',
  ].join('\n')

/** Runs one command line (without the `node` and script arguments). */
export const runCli = async (argv: readonly string[]): Promise<CommandResult> => {
  const [name, ...args] = argv
  if (name === undefined || name === 'help' || name === '--help' || name === '-h')
    return { exitCode: 0, stdout: usage() }
  const command = COMMANDS.find((candidate) => candidate.name === name)
  if (command === undefined)
    return {
      exitCode: 2,
      stderr: `oqlkit: unknown command '${name}'. Known commands: ${COMMANDS.map((known) => known.name).join(', ')}, help.\n`,
    }
  return command.run(args)
}
