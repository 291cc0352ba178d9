// `oqlkit <command> --help`: every option of every command described, from the same table the parser reads,
// and the defaults it states are the servers' own (command-table.test.ts checks that it loads no DuckDB).
import { DEFAULT_MAX_PER_PAGE, MAX_PAGE_DEPTH } from '@oqlkit/engine'
import { DEFAULT_HOST, DEFAULT_QUERY_TIMEOUT_MS } from '@oqlkit/http'
import { DEFAULT_INDEX_MEMORY_LIMIT } from '@oqlkit/ingest'
import { THREADED_WORKS } from '@oqlkit/snapshot'
import { describe, expect, it } from 'vitest'
import { COMMANDS, runCli } from '../src/cli-commands.ts'
import { GENERATE_COMMAND_LINE } from '../src/commands/generate-command-line.ts'
import { INDEX_COMMAND_LINE } from '../src/commands/index-command-line.ts'
import { MAX_PER_PAGE_LIMIT, SERVE_COMMAND_LINE } from '../src/commands/serve-command-line.ts'

describe('oqlkit <command> --help', () => {
  it.each(COMMANDS.map((command) => [command.name]))(
    '%s: its usage and every option with what it does',
    async (name) => {
      const help = await runCli([name, '--help'])
      expect(help.exitCode).toBe(0)
      const entry = COMMANDS.find((command) => command.name === name)!
      const line = await entry.line()
      const text = help.stdout ?? ''
      expect(text.startsWith(`${entry.summary}\n\nUsage: ${line.synopsis}`)).toBe(true)
      // What the help text says is run together to find each option's description however it was wrapped.
      const unwrapped = text.replace(/\n\s+/g, ' ')
      for (const [option, declared] of Object.entries(line.options)) {
        expect(text, option).toMatch(new RegExp(`^  --${option}\\b`, 'm'))
        expect(unwrapped, option).toContain(declared.help)
      }
      // The command's own usage (what a usage error prints) points at the help.
      expect((await entry.load()).usage).toContain(line.synopsis.split('\n')[0])
    },
  )

  it("states the commands' own defaults", () => {
    const help = Object.fromEntries(
      Object.entries(SERVE_COMMAND_LINE.options).map(([name, option]) => [name, option.help]),
    )
    expect(help.host).toContain(`default ${DEFAULT_HOST}`)
    expect(help['max-per-page']).toContain(`default ${DEFAULT_MAX_PER_PAGE}`)
    expect(help['query-timeout']).toContain(`default ${DEFAULT_QUERY_TIMEOUT_MS / 1000} s`)
    expect(MAX_PER_PAGE_LIMIT).toBe(MAX_PAGE_DEPTH)
    // And the other commands' defaults their help states.
    expect(GENERATE_COMMAND_LINE.options.workers.help).toContain(
      `from ${THREADED_WORKS.toLocaleString('en-US')} works`,
    )
    expect(INDEX_COMMAND_LINE.options['memory-limit'].help).toContain(`default ${DEFAULT_INDEX_MEMORY_LIMIT}`)
  })
})

describe('oqlkit translate without --oql, --oqo or --url', () => {
  it('reads a URL or its path as a URL, a JSON object as OQO, and anything else as OQL', async () => {
    const asOql = async (query: string) => (await runCli(['translate', query, '--format', 'oql'])).stdout
    expect(await asOql('https://api.openalex.org/works?filter=publication_year:2020')).toBe(
      'works where year is (2020)\n',
    )
    expect(await asOql('/works?filter=publication_year:2020')).toBe('works where year is (2020)\n')
    expect(await asOql('{"get_rows": "works"}')).toBe('works\n')
    expect((await runCli(['translate', 'works where year is 2020', '--format', 'url'])).stdout).toBe(
      'https://openalex.org/works?filter=publication_year:2020\n',
    )
  })
})
