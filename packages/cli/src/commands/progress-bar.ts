/**
 * A one-line progress bar for a terminal: redrawn in place with a carriage return when the output is
 * a TTY. Otherwise (CI logs, pipes, files) it writes sparse lines: one at once for the first update of a
 * count (a new total: the read's bytes, then the build's steps) and for each tenth of it reached, and
 * the latest update held back otherwise, written when `everyMs` have passed since the previous line
 * (so a long silence is named by the step it belongs to, within that time) or at `finish()` (so the log
 * ends on the last state). An update that changes only the label, as ingest's do many times a second,
 * writes nothing by itself.
 */
export interface ProgressBar {
  update(done: number, total: number, label: string): void
  /** Writes the held-back update, if any, and ends a terminal's line. */
  finish(): void
}

/** Time for the bar: `now` in milliseconds, and `later` to run a callback once, which it cancels. */
export interface ProgressClock {
  now(): number
  /** Runs `run` after `ms`, without keeping the process alive for it; returns the cancel. */
  later(run: () => void, ms: number): () => void
}

const SYSTEM_CLOCK: ProgressClock = {
  now: () => performance.now(),
  later: (run, ms) => {
    const timer = setTimeout(run, ms)
    timer.unref()
    return () => clearTimeout(timer)
  },
}

/** The longest a log goes without a line while updates arrive. */
const DEFAULT_EVERY_MS = 10_000

export const createProgressBar = (
  write: (text: string) => void,
  options: {
    readonly interactive: boolean
    readonly width?: number
    readonly everyMs?: number
    readonly clock?: ProgressClock
  },
): ProgressBar => {
  const width = options.width ?? 30
  const everyMs = options.everyMs ?? DEFAULT_EVERY_MS
  const clock = options.clock ?? SYSTEM_CLOCK
  let drawn = false
  /** The last line written: when, of which total, and in which tenth of it. */
  let last: { readonly at: number; readonly total: number; readonly tenth: number } | null = null
  let held: { readonly line: string; readonly total: number; readonly tenth: number } | null = null
  let cancelLater: (() => void) | null = null

  const writeLine = (line: string, total: number, tenth: number): void => {
    write(`${line}\n`)
    last = { at: clock.now(), total, tenth }
    held = null
    cancelLater?.()
    cancelLater = null
  }
  const writeHeld = (): void => {
    if (held !== null) writeLine(held.line, held.total, held.tenth)
  }
  const atLater = (): void => {
    cancelLater = null
    writeHeld()
  }

  return {
    update(done, total, label) {
      const fraction = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0
      const filled = Math.round(fraction * width)
      const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${label}`
      if (options.interactive) {
        write(`\r${line.padEnd(100).slice(0, 100)}`)
        drawn = true
        return
      }
      const tenth = Math.floor(fraction * 10)
      const now = clock.now()
      if (last === null || total !== last.total || tenth > last.tenth || now - last.at >= everyMs) {
        writeLine(line, total, tenth)
        return
      }
      held = { line, total, tenth }
      cancelLater ??= clock.later(atLater, Math.max(0, last.at + everyMs - now))
    },
    finish() {
      if (drawn) write('\n')
      drawn = false
      writeHeld()
      cancelLater?.()
      cancelLater = null
    },
  }
}

/**
 * Runs a long piece of work with a progress bar on a command's progress output: `work` moves it with
 * `update`, and it is finished (its last state written) whether the work ends or fails.
 */
export const withProgressBar = async <T>(
  context: { readonly writeProgress: (text: string) => void; readonly interactive: boolean },
  work: (update: ProgressBar['update']) => Promise<T>,
): Promise<T> => {
  const bar = createProgressBar(context.writeProgress, { interactive: context.interactive })
  try {
    return await work((done, total, label) => bar.update(done, total, label))
  } finally {
    bar.finish()
  }
}
