// The progress bar in a log (not a terminal): sparse lines, driven here through a stream that is not a
// TTY and a stand-in clock whose timers run only when the test moves its time on.
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { createProgressBar, type ProgressClock } from '../src/commands/progress-bar.ts'

/** A clock the test moves: `advance` runs each callback that falls due on the way, in time order. */
const standInClock = () => {
  let now = 0
  const timers: { at: number; run: () => void; live: boolean }[] = []
  const clock: ProgressClock = {
    now: () => now,
    later(run, ms) {
      const timer = { at: now + ms, run, live: true }
      timers.push(timer)
      return () => {
        timer.live = false
      }
    },
  }
  const advance = (ms: number): void => {
    const end = now + ms
    for (;;) {
      const due = timers.filter((timer) => timer.live && timer.at <= end).sort((a, b) => a.at - b.at)[0]
      if (due === undefined) break
      now = due.at
      due.live = false
      due.run()
    }
    now = end
  }
  const pending = (): number => timers.filter((timer) => timer.live).length
  return { clock, advance, pending }
}

/** A log: a stream that is not a terminal, as `oqlkit ingest 2> ingest.log` or CI gives the CLI. */
const logStream = () => {
  const stream: PassThrough & { isTTY?: boolean } = new PassThrough()
  let text = ''
  const lines = (): string[] => {
    text += String(stream.read() ?? '')
    return text.split('\n').filter((line) => line !== '')
  }
  return { stream, interactive: stream.isTTY === true, lines }
}

/** A line without its bar and percentage. */
const labelOf = (line: string): string => line.replace(/^\[[#.]+\]\s+\d+% /, '')

describe('createProgressBar in a log, with a stand-in clock', () => {
  it('writes 23 lines for 1,120 updates: the first, each tenth, one per 10 s while stalled, none per tick', () => {
    const { clock, advance } = standInClock()
    const log = logStream()
    expect(log.interactive).toBe(false)
    const bar = createProgressBar((text) => log.stream.write(text), { interactive: log.interactive, clock })
    const entities = ['works', 'authors', 'sources']
    const tick = (done: number, ms: number, n: number) => {
      advance(ms)
      // The label changes on every update (the entity being read, the rate), as ingest's does.
      bar.update(done, 1000, `read ${done} of 1,000 (${entities[n % 3]}), ${n}/s`)
    }
    // 0 to 50 % in 5 s: the first update and tenths 1 to 5.
    for (let done = 1; done <= 500; done++) tick(done, 10, done)
    expect(log.lines()).toHaveLength(6)
    // Two minutes at 50 %, an update a second: a line each 10 s, from the clock.
    for (let second = 1; second <= 120; second++) tick(500, 1000, second)
    expect(log.lines()).toHaveLength(6 + 12)
    // 50 to 100 % in 5 s: tenths 6 to 10; the last update is the 100 % line, so finish adds nothing.
    for (let done = 501; done <= 1000; done++) tick(done, 10, done)
    bar.finish()
    const lines = log.lines()
    expect(lines).toHaveLength(6 + 12 + 5)
    expect(lines.map((line) => line.match(/(\d+)%/)?.[1])).toEqual([
      ...['0', '10', '20', '30', '40', '50'],
      ...Array.from({ length: 12 }, () => '50'),
      ...['60', '70', '80', '90', '100'],
    ])
    expect(labelOf(lines.at(-1) ?? '')).toBe('read 1000 of 1,000 (authors), 1000/s')
  })

  it('names the step a long silence belongs to, one interval after it began, with no line per step', () => {
    const { clock, advance } = standInClock()
    const log = logStream()
    const bar = createProgressBar((text) => log.stream.write(text), { interactive: log.interactive, clock })
    bar.update(50, 100, 'read 50 records (works)')
    advance(3_000)
    // A new count (the build's steps) writes at once; its next steps, within 10 s, are held back.
    for (let step = 0; step < 3; step++) {
      bar.update(step, 30, `building step ${step}`)
      advance(1)
    }
    expect(log.lines().map(labelOf)).toEqual(['read 50 records (works)', 'building step 0'])
    // Step 2 then runs for a minute: its line comes 10 s after the previous line, and no more.
    advance(60_000)
    expect(log.lines().map(labelOf)).toEqual([
      'read 50 records (works)',
      'building step 0',
      'building step 2',
    ])
  })

  it('writes the held-back last update at finish, and leaves no timer behind', () => {
    const { clock, advance, pending } = standInClock()
    const log = logStream()
    const bar = createProgressBar((text) => log.stream.write(text), {
      interactive: log.interactive,
      clock,
      everyMs: 5_000,
    })
    bar.update(1, 4, 'commit')
    advance(100)
    bar.update(1, 4, 'done')
    expect(pending()).toBe(1)
    bar.finish()
    expect(pending()).toBe(0)
    expect(log.lines().map(labelOf)).toEqual(['commit', 'done'])
    advance(60_000)
    expect(log.lines()).toHaveLength(2)
  })
})

describe('createProgressBar on a terminal', () => {
  it('redraws in place', () => {
    const written: string[] = []
    const bar = createProgressBar((text) => written.push(text), { interactive: true, width: 10 })
    bar.update(5, 10, 'half')
    bar.finish()
    expect(written[0]).toMatch(/^\r\[#####\.\.\.\.\.\] {2}50% half/)
    expect(written[1]).toBe('\n')
  })
})
