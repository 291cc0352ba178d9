// The public API of @oqlkit/cli: the command runner, for embedding and for tests.
export { type CliCommand, COMMANDS, type CommandResult, runCli, usage } from './cli-commands.ts'
