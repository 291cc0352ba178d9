// Every command's command-line errors, as `oqlkit` prints them: an unknown flag, a bad value, a missing value,
// a missing positional, each exit 2 with a message naming the flag and the command's usage; and `--x=v`
// read like `--x v` (shown by a run that gets past parsing and fails, or succeeds, on what the value says).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runCli } from '@oqlkit/cli'
import { afterAll, describe, expect, it } from 'vitest'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-command-errors-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const missing = join(scratch, 'no-such-folder')
const notACatalog = join(scratch, 'not-a-catalog')
mkdirSync(notACatalog)
writeFileSync(join(notACatalog, 'notes.txt'), 'not a catalog')

const USAGE_ERRORS: Record<string, readonly (readonly [readonly string[], string | RegExp])[]> = {
  serve: [
    [['--bogus-flag'], /unknown option --bogus-flag \(options: --catalog, --clickhouse, --host, --port, /],
    [['--prot', '8080'], 'unknown option --prot: did you mean --port? (options: --catalog, '],
    [['--clickhouse', 'ftp://h/x'], '--clickhouse: ftp: is not a ClickHouse URL scheme'],
    [[`--catalog=${missing}`, '--bogus-flag'], 'unknown option --bogus-flag'],
    [['--catalog', missing], `--catalog ${missing}: no such folder`],
    [[`--catalog=${missing}`], `--catalog ${missing}: no such folder`],
    [['--catalog', join(notACatalog, 'notes.txt')], 'is not a folder'],
    [['--catalog'], '--catalog needs a catalog folder'],
    [['--port', 'eighty'], '--port needs a port number from 0 to 65535 (was eighty)'],
    [['--port=70000'], '--port needs a port number from 0 to 65535 (was 70000)'],
    [['--port'], '--port needs a port number'],
    [['--no-metering=yes'], '--no-metering takes no value'],
    [['--keys', join(scratch, 'keys.json')], `--keys ${join(scratch, 'keys.json')}: no such file`],
    [['--max-per-page', '0'], '--max-per-page needs a whole number from 1 to 10000 (was 0)'],
    [['--query-timeout=soon'], '--query-timeout needs a number of seconds above 0, at most 3600 (was soon)'],
    [
      ['--collections-port', '9000', '--no-collections'],
      '--collections-port serves the collections: drop --no-collections',
    ],
    [['--cors-origin', 'a', '--cors-origin'], '--cors-origin needs an origin'],
    [['--embeddings-model', 'm'], '--embeddings-model goes with --embeddings-url'],
    [
      ['--state', 's', '--redis', 'redis://127.0.0.1'],
      '--state and --redis are two places for the same state',
    ],
    [['--redis=http://x'], '--redis needs a redis:// or rediss:// URL (was http://x)'],
    [['--port', '1', '--port', '2'], '--port is given twice: give it once'],
    [['stray'], 'unexpected argument stray'],
  ],
  ingest: [
    [['a', '--colour'], 'unknown option --colour (options: --out, '],
    [[], 'no snapshot folder given'],
    [['a', 'b'], 'unexpected argument b'],
    [['a', '--out'], '--out needs a folder for the catalog'],
    [['a', '--memory-limit=lots'], '--memory-limit needs a size such as 8GB (was lots)'],
    [['a', '--no-vectors=false'], '--no-vectors takes no value'],
    [['a', '--embeddings-url=http://127.0.0.1:9'], '--embeddings-url needs --embeddings-model too'],
  ],
  index: [
    [
      ['a', '--colour', 'red'],
      'unknown option --colour (options: --memory-limit, --threads, --segment-docs)',
    ],
    [[], 'no catalog folder given'],
    [['a', '--threads'], '--threads needs a positive whole number'],
    [['a', '--threads=0'], '--threads needs a positive whole number (was 0)'],
    [['a', '--segment-docs', 'many'], '--segment-docs needs a positive whole number (was many)'],
    [['a', '--memory-limit', '2 gigs'], '--memory-limit needs a size such as 8GB (was 2 gigs)'],
  ],
  generate: [
    [['--works', '5', '--out', 'x', '--colour'], 'unknown option --colour'],
    [[], '--works is required'],
    [['--works=5'], '--out is required'],
    [['--works', '0', '--out', 'x'], '--works needs a whole number from 1 to 2147483648 (was 0)'],
    [['--works', 'many', '--out', 'x'], '--works needs a whole number from 1 to'],
    [['--works', '5', '--out'], '--out needs a folder'],
    [['--works', '5', '--out', 'x', '--seed=1.5'], '--seed needs a whole number (was 1.5)'],
    [['--works', '5', '--out', 'x', '--workers', '-1'], '--workers needs a whole number of worker threads'],
    [['--works', '5', '--out', 'x', '--overwrite=yes'], '--overwrite takes no value'],
    [['--works', '5', '--out', 'x', 'extra'], 'unexpected argument extra'],
  ],
  load: [
    [['--into', 'http://h/x', '--colour'], 'unknown option --colour'],
    [[], '--into is required'],
    [['--into'], '--into needs a ClickHouse URL'],
    [['--into', 'ftp://h/x'], '--into: ftp: is not a ClickHouse URL scheme'],
    [
      ['--into', 'http://h/x', '--keep-versions', '0'],
      '--keep-versions needs a whole number, 1 or more (was 0)',
    ],
    [['--into', 'http://h/x', '--cluster', 'a-b'], '--cluster needs a cluster name'],
    [['--into', 'http://h/x', 'extra'], 'unexpected argument extra'],
  ],
  keys: [
    [[], 'no action given: one of create, list, revoke, update'],
    [['rotate'], "unknown action 'rotate'"],
    [['create', '--colour', 'red'], 'unknown option --colour'],
    [['create'], '--user is required'],
    [['create', '--user'], '--user needs a user id'],
    [['create', '--user=u', '--daily-budget-usd=lots'], '--daily-budget-usd needs an amount of US dollars'],
    [['list', '--format', 'yaml'], '--format needs one of table, json (was yaml)'],
    [['list', '--user', 'u'], 'unknown option --user'],
    [['revoke'], 'say which key'],
    [['revoke', '--key-id'], '--key-id needs the id'],
    [['update', '--key-id=abc'], '--key-id needs 8 to 64 hex digits'],
    [['list', 'extra'], 'unexpected argument extra'],
  ],
  translate: [
    [['--colour', 'works'], 'unknown option --colour'],
    [[], 'no query given'],
    [['--format', 'xml', 'works'], '--format needs one of json, oql, url, oqo (was xml)'],
    [['works', '--format'], '--format needs one of json, oql, url, oqo'],
    [['works', 'where'], 'unexpected argument where (quote a value that has spaces)'],
  ],
  validate: [
    [['--strict', 'works'], 'unknown option --strict (this command takes none)'],
    [[], 'no query given'],
    [['works', 'where'], 'unexpected argument where'],
  ],
}

describe('command-line errors', () => {
  it('covers every command', async () => {
    const { COMMANDS } = await import('@oqlkit/cli')
    expect(Object.keys(USAGE_ERRORS).sort()).toEqual(
      COMMANDS.map((command) => command.name)
        .filter((name) => name !== 'query')
        .sort(),
    )
  })

  for (const [command, cases] of Object.entries(USAGE_ERRORS))
    it(`oqlkit ${command}: exit 2, the flag named, the usage shown`, async () => {
      for (const [args, message] of cases) {
        const result = await runCli([command, ...args])
        const line = [command, ...args].join(' ')
        expect(result.exitCode, `${line}: ${result.stderr}`).toBe(2)
        expect(result.stdout, line).toBeUndefined()
        const first = (result.stderr ?? '').split('\n')[0] ?? ''
        if (typeof message === 'string') expect(first, line).toContain(message)
        else expect(first, line).toMatch(message)
        expect(first, line).toMatch(new RegExp(`^oqlkit ${command}: `))
        expect(result.stderr, line).toContain(`Usage: oqlkit ${command}`)
      }
    })

  it('serve refuses a --catalog folder that holds something else instead of building the sample in it', async () => {
    const result = await runCli(['serve', `--catalog=${notACatalog}`, '--port=0', '--no-metering'])
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('holds no catalog (no catalog.json)')
    expect(existsSync(join(notACatalog, 'catalog.json'))).toBe(false)
  })

  it('reads --x=v like --x v: index and ingest get past parsing and fail on the folder named', async () => {
    const index = await runCli(['index', missing, '--threads=2', '--memory-limit=1GB'])
    expect(index.exitCode).toBe(1)
    expect(index.stderr).toContain(missing)
    const ingest = await runCli(['ingest', missing, `--out=${join(scratch, 'out')}`, '--memory-limit=1GB'])
    expect(ingest.exitCode).toBe(1)
    expect(ingest.stderr).toContain('Nothing was changed')
    expect(existsSync(join(scratch, 'out'))).toBe(false)
  })

  it('generate says --overwrite (the flag) when the folder holds a snapshot', async () => {
    const out = join(scratch, 'generated')
    const first = await runCli(['generate', '--works=3', `--out=${out}`, '--seed=2', '--workers=0'])
    expect(first.exitCode, first.stderr).toBe(0)
    expect(first.stdout).toMatch(/^generated 3 works \(seed 2\)/)
    const again = await runCli(['generate', '--works', '3', '--out', out])
    expect(again.exitCode).toBe(1)
    expect(again.stderr).toBe(
      `oqlkit generate: ${out} already holds a snapshot: pass --overwrite to replace it\n`,
    )
    const overwritten = await runCli(['generate', '--works', '3', '--out', out, '--overwrite'])
    expect(overwritten.exitCode, overwritten.stderr).toBe(0)
    // A file where the folder (or one above it) should be is named as such, and left alone, --overwrite or not.
    const file = join(scratch, 'a-file')
    writeFileSync(file, 'kept\n')
    const cases: [string, string[]][] = [
      [file, []],
      [file, ['--overwrite']],
      [join(file, 'snapshot'), []],
    ]
    for (const [target, extra] of cases) {
      const onFile = await runCli(['generate', '--works', '3', '--out', target, ...extra])
      expect(onFile.exitCode).toBe(1)
      expect(onFile.stderr).toBe(
        `oqlkit generate: ${file} is a file, not a folder: give --out a folder to write the snapshot into\n`,
      )
    }
    expect(readFileSync(file, 'utf8')).toBe('kept\n')
  }, 60_000)
})
