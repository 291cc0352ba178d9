// The progress bar in a log (not a terminal): a line every few seconds, and one whenever the stage changes.
import { describe, expect, it } from 'vitest'
import { createProgressBar } from '../src/commands/progress-bar.ts'

describe('createProgressBar without a terminal', () => {
  it('writes the first update of each stage, the last one, and nothing else within the interval', () => {
    const lines: string[] = []
    const bar = createProgressBar((text) => lines.push(text), { interactive: false, everyMs: 60_000 })
    bar.update(10, 100, 'read 1,000 records (works)')
    bar.update(20, 100, 'read 2,000 records (works)')
    bar.update(30, 100, 'read 3,000 records (authors)')
    bar.update(40, 100, 'read 4,000 records (authors)')
    bar.update(100, 100, 'read 5,000 records (authors)')
    bar.update(0, 37, 'building entities/works.parquet')
    bar.update(1, 37, 'building entities/works.parquet (range 2 of 9)')
    bar.update(1, 37, 'building entities/works.parquet (range 3 of 9)')
    bar.update(2, 37, 'building links/works-authors.parquet')
    bar.finish()
    expect(lines.map((line) => line.replace(/^\[[#.]+\]\s+\d+% /, '').trimEnd())).toEqual([
      'read 1,000 records (works)',
      'read 3,000 records (authors)',
      'read 5,000 records (authors)',
      'building entities/works.parquet',
      'building entities/works.parquet (range 2 of 9)',
      'building links/works-authors.parquet',
    ])
  })

  it('redraws in place on a terminal', () => {
    const written: string[] = []
    const bar = createProgressBar((text) => written.push(text), { interactive: true, width: 10 })
    bar.update(5, 10, 'half')
    bar.finish()
    expect(written[0]).toMatch(/^\r\[#####\.\.\.\.\.\] {2}50% half/)
    expect(written[1]).toBe('\n')
  })
})
