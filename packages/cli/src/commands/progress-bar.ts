/**
 * A one-line progress bar for a terminal: redrawn in place with a carriage return when the output is
 * a TTY, and reduced to a line every few seconds otherwise (CI logs, pipes), so long work always
 * shows it is alive without flooding a log.
 */
export interface ProgressBar {
  update(done: number, total: number, label: string): void
  finish(): void
}

export const createProgressBar = (
  write: (text: string) => void,
  options: { readonly interactive: boolean; readonly width?: number; readonly everyMs?: number },
): ProgressBar => {
  const width = options.width ?? 30
  let lastLine = 0
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
      if (now - lastLine >= (options.everyMs ?? 5000) || fraction === 1) {
        write(`${line}\n`)
        lastLine = now
      }
    },
    finish() {
      if (drawn) write('\n')
    },
  }
}
