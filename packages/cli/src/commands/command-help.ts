// `oqlkit <command> --help`: the command's summary, its usage line, each option with what it does, and notes,
// rendered from its command line (`CommandLine`), the table the parser reads, so the help cannot drift from it.
import type { CommandLine } from './command-line-parser.ts'

/** Help lines are wrapped at this width, options' descriptions indented under a column of their own. */
const WIDTH = 100

/** `text` wrapped at word boundaries to `width` columns, each line after the first indented by `indent`. */
const wrap = (text: string, width: number, indent: string): string[] => {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line)
      line = word
    } else line = line === '' ? word : `${line} ${word}`
  }
  if (line !== '') lines.push(line)
  return lines.map((wrapped, index) => (index === 0 ? wrapped : `${indent}${wrapped}`))
}

export const renderCommandHelp = (summary: string, line: CommandLine): string => {
  const flags = Object.entries(line.options).map(([name, option]) =>
    option.type === 'boolean' ? `--${name}` : `--${name} ${option.placeholder ?? 'VALUE'}`,
  )
  const column = Math.min(Math.max(0, ...flags.map((flag) => flag.length)) + 4, 30)
  const indent = ' '.repeat(column)
  const options = Object.values(line.options).flatMap((option, index) => {
    const flag = `  ${flags[index]!}`
    const described = wrap(option.help, WIDTH - column, indent)
    return flag.length + 2 <= column
      ? [`${flag.padEnd(column)}${described.join('\n')}`]
      : [flag, `${indent}${described.join('\n')}`]
  })
  return [
    summary,
    '',
    `Usage: ${line.synopsis}`,
    ...(options.length === 0 ? [] : ['', 'Options:', ...options]),
    ...(line.notes ?? []).flatMap((note) => ['', ...wrap(note, WIDTH, '')]),
    '',
  ].join('\n')
}
