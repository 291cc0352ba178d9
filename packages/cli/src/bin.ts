import { runCli } from './cli-commands.ts'

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

// The process edge: everything else returns results, only this file touches stdio and the exit code.
const result = await runCli(process.argv.slice(2), {
  readStdin,
  writeProgress: (text) => process.stderr.write(text),
  interactive: process.stderr.isTTY === true,
})
if (result.stdout !== undefined) process.stdout.write(result.stdout)
if (result.stderr !== undefined) process.stderr.write(result.stderr)
process.exitCode = result.exitCode
