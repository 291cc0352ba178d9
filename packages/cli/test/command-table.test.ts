import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { COMMANDS, runCli } from '@oqlkit/cli'
import { describe, expect, it } from 'vitest'

const CLI_COMMANDS = resolve(import.meta.dirname, '../src/cli-commands.ts')

// Run in a child process so that nothing this test file or vitest loaded counts: which shared libraries the
// process has mapped once the given command lines have run, and whether DuckDB's native library is among them.
const PROBE = `
import { readFileSync } from 'node:fs'
const [modulePath, ...lines] = process.argv.slice(1)
const { COMMANDS, runCli } = await import(modulePath)
const duckdbMapped = () => readFileSync('/proc/self/maps', 'utf8').includes('duckdb')
const seen = {}
for (const line of lines) {
  if (line.startsWith('load:')) await COMMANDS.find((entry) => entry.name === line.slice(5)).load()
  else await runCli(JSON.parse(line))
  seen[line] = duckdbMapped()
}
process.stdout.write(JSON.stringify(seen))
`

const duckdbAfter = (lines: readonly string[]): Record<string, boolean> => {
  const result = spawnSync(
    process.execPath,
    [
      '--conditions=@oqlkit/source',
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      PROBE,
      CLI_COMMANDS,
      ...lines,
    ],
    { encoding: 'utf8' },
  )
  expect(result.status, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as Record<string, boolean>
}

describe('the command table', () => {
  it('lists each command under the name its module declares, with the summary its --help prints', async () => {
    for (const entry of COMMANDS) {
      const command = await entry.load()
      expect(command.name).toBe(entry.name)
      const help = await runCli([entry.name, '--help'])
      expect(help.exitCode).toBe(0)
      expect(help.stdout?.split('\n')[0]).toBe(entry.summary)
    }
  })

  it.runIf(process.platform === 'linux')(
    "loads DuckDB only for a command that uses it, not for a help (any command's) or translate",
    () => {
      const seen = duckdbAfter([
        JSON.stringify(['--help']),
        JSON.stringify(['translate', '--help']),
        JSON.stringify(['serve', '--help']),
        JSON.stringify(['ingest', '--help']),
        JSON.stringify(['query', '--help']),
        JSON.stringify(['translate', 'works where year is 2020']),
        'load:serve',
      ])
      expect(seen).toEqual({
        '["--help"]': false,
        '["translate","--help"]': false,
        '["serve","--help"]': false,
        '["ingest","--help"]': false,
        '["query","--help"]': false,
        '["translate","works where year is 2020"]': false,
        'load:serve': true,
      })
    },
  )
})
