import { runCli } from './cli-commands.ts'

const readStdin = async (): Promise<string> => {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

/** The frames of an error's stack, without the line that repeats its message. */
const framesOf = (error: unknown): string => {
  const stack = error instanceof Error ? (error.stack ?? '') : ''
  const frames = stack.split('\n').filter((line) => /^\s+at /.test(line))
  return frames.length === 0 ? '' : `${frames.join('\n')}\n`
}

// The process edge: everything else returns results, only this file touches stdio and the exit code.
const argv = process.argv.slice(2)

// A reader that leaves early (`oqlkit translate … | head -c 100`) closes the pipe: the rest of the output has
// nowhere to go, which is not the command's failure. Any other failure to write fails the run; while the command
// runs it says so itself (`query` streams its rows to standard output), once it has returned this file does.
let writingResult = false
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') return
  if (writingResult) process.stderr.write(`oqlkit: cannot write the output: ${error.message}\n`)
  process.exitCode = 1
})
process.stderr.on('error', () => {})
try {
  const result = await runCli(argv, {
    readStdin,
    writeProgress: (text) => process.stderr.write(text),
    interactive: process.stderr.isTTY === true,
  })
  writingResult = true
  if (result.stdout !== undefined) process.stdout.write(result.stdout)
  if (result.stderr !== undefined) process.stderr.write(result.stderr)
  process.exitCode = result.exitCode
} catch (error) {
  // A command returns the errors it expects; one it throws is not (a damaged catalog, a full disk, a fault of
  // oqlkit's): its message first, under the command's name, then where it was thrown, for a report.
  const message = error instanceof Error ? error.message : String(error)
  process.stderr.write(`oqlkit${argv[0] === undefined ? '' : ` ${argv[0]}`}: ${message}\n${framesOf(error)}`)
  process.exitCode = 1
}
