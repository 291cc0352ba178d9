import { runCli } from './cli-commands.ts'

// The process edge: everything else returns results, only this file touches stdout and the exit code.
const result = await runCli(process.argv.slice(2))
if (result.stdout !== undefined) process.stdout.write(result.stdout)
if (result.stderr !== undefined) process.stderr.write(result.stderr)
process.exitCode = result.exitCode
