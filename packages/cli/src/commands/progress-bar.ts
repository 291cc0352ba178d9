/**
 * A one-line progress bar for a terminal: redrawn in place with a carriage return when the output is
 * a TTY, and reduced to a line every few seconds otherwise (CI logs, pipes), so long work always
 * shows it is alive without flooding a log; and a line at once when the work moves to another stage
 * (the label without its numbers changes), so a log says which step a long silence belongs to.
 */
export interface ProgressBar {
  update(done: number, total: number, label: string): void
  finish(): void
}

/** A label without its counts: `read 1,200 records (works)` and `read 9,800 records (works)` are one stage. */
const stageOf = (label: string): string => label.replace(/[\d,.]+/g, '#')

export const createProgressBar = (
  write: (text: string) => void,
  options: { readonly interactive: boolean; readonly width?: number; readonly everyMs?: number },
): ProgressBar => {
  const width = options.width ?? 30
  let lastLine = 0
  let lastStage: string | null = null
  let drawn = false
  return {
    update(done, total, label) {
      const fraction = total > 0 ? Math.min(1, done / total) : 0
      const filled = Math.round(fraction * width)
      const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${label}`
      if (options.interactive) {
        write(`\r${line.padEnd(100).slice(0, 100)}`)
        drawn = true
        return
      }
      const now = Date.now()
      const stage = stageOf(label)
      if (now - lastLine >= (options.everyMs ?? 5000) || fraction === 1 || stage !== lastStage) {
        write(`${line}\n`)
        lastLine = now
        lastStage = stage
      }
    },
    finish() {
      if (drawn) write('\n')
    },
  }
}
