// The public API of @oqlkit/cli: the command runner, for embedding and for tests.
export { COMMANDS, type CommandEntry, runCli, usage } from './cli-commands.ts'
export type { CliCommand, CommandContext, CommandResult } from './commands/cli-command.ts'
