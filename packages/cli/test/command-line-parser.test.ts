import { describe, expect, it } from 'vitest'
import {
  choiceOption,
  integerOption,
  numberOption,
  parseCommandLine,
  UsageProblem,
} from '../src/commands/command-line-parser.ts'

const OPTIONS = {
  out: { type: 'string', value: 'a folder', help: 'Where to write.' },
  count: { type: 'string', value: 'a whole number', help: 'How many.' },
  force: { type: 'boolean', help: 'Overwrite.' },
} as const

const problemOf = (run: () => unknown): string => {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(UsageProblem)
    return (error as Error).message
  }
  throw new Error('expected a UsageProblem')
}

describe('parseCommandLine', () => {
  it('reads --x v and --x=v alike, switches, and positionals, with -- ending the options', () => {
    expect(
      parseCommandLine(['--out', 'a', '--count=3', '--force', 'p'], OPTIONS, { names: ['thing'] }),
    ).toEqual({
      values: { out: 'a', count: '3', force: true },
      positionals: ['p'],
    })
    expect(parseCommandLine(['--out=-dash', '--', '--force'], OPTIONS, { names: ['thing'] })).toEqual({
      values: { out: '-dash' },
      positionals: ['--force'],
    })
    expect(parseCommandLine(['--out='], OPTIONS).values).toEqual({ out: '' })
    expect(parseCommandLine(['x'], OPTIONS, { names: ['a', 'b'], optional: 1 }).positionals).toEqual(['x'])
    expect(problemOf(() => parseCommandLine([], OPTIONS, { names: ['a', 'b'], optional: 1 }))).toBe(
      'no a given',
    )
  })

  it('names the flag of every refusal and says what it needs', () => {
    const cases: [readonly string[], string][] = [
      [['--colour', 'red'], 'unknown option --colour (options: --out, --count, --force)'],
      [['-x'], 'unknown option -x (options: --out, --count, --force)'],
      [['--out'], '--out needs a folder'],
      [['--out', '--force'], '--out needs a folder (got --force; write --out=--force if that is the value)'],
      [['--count', '-3'], '--count needs a whole number (got -3; write --count=-3 if that is the value)'],
      [['--force=yes'], '--force takes no value'],
      [['--out', 'a', '--out=b'], '--out is given twice: give it once'],
      [['stray'], 'unexpected argument stray'],
      [['--constructor'], 'unknown option --constructor (options: --out, --count, --force)'],
    ]
    for (const [args, message] of cases)
      expect(problemOf(() => parseCommandLine(args, OPTIONS))).toBe(message)
    expect(problemOf(() => parseCommandLine([], OPTIONS, { names: ['catalog folder'] }))).toBe(
      'no catalog folder given',
    )
    expect(problemOf(() => parseCommandLine(['a', 'b', 'c'], OPTIONS, { names: ['query'] }))).toBe(
      'unexpected arguments b c (quote a value that has spaces)',
    )
    expect(problemOf(() => parseCommandLine(['--x'], {}))).toBe(
      'unknown option --x (this command takes none)',
    )
  })
})

describe('value checks', () => {
  it('takes plain decimal numbers in range, and nothing Number() would bend', () => {
    expect(integerOption('--n', '42', 'a whole number', 1, 100)).toBe(42)
    expect(integerOption('--n', undefined, 'a whole number', 1)).toBeUndefined()
    expect(numberOption('--t', '0.5', 'seconds', (value) => value > 0)).toBe(0.5)
    for (const text of ['0x10', '1e3', ' 7', '', '3.5', '0', '101', 'ten'])
      expect(problemOf(() => integerOption('--n', text, 'a whole number from 1 to 100', 1, 100))).toBe(
        `--n needs a whole number from 1 to 100 (was ${text})`,
      )
  })

  it('takes one of an enumeration, listing the choices otherwise', () => {
    expect(choiceOption('--format', 'csv', ['csv', 'json'])).toBe('csv')
    expect(problemOf(() => choiceOption('--format', 'xml', ['csv', 'json']))).toBe(
      '--format needs one of csv, json (was xml)',
    )
  })
})
