// The playground for people who use a keyboard or a screen reader: axe-core (the maintained accessibility
// rules engine) finds no serious or critical violation on the page with a list result and with a group-by
// chart, and a query can be written, run and its results reached with the keyboard alone.
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { chromiumForTests } from './support/chromium-browser.ts'
import { usePlaygroundPage } from './support/playground-page.ts'

const chromium = chromiumForTests()
const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: readonly { readonly target: readonly string[] }[]
}

// axe runs inside the page; the page's CSP admits only its own scripts, so this context bypasses it (the
// other tests keep it, and assert that the page itself needs nothing else).
const seriousViolations = async (page: Page): Promise<string[]> => {
  await page.addScriptTag({ path: AXE_SCRIPT })
  // Page functions are written as text: the tests typecheck without the DOM library.
  const violations = (await page.evaluate('axe.run().then((result) => result.violations)')) as AxeViolation[]
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((n) => n.target.join(' ')).join('; ')})`,
    )
}

describe.skipIf(!chromium.available)('the playground with a keyboard and a screen reader', () => {
  const ui = usePlaygroundPage(chromium, { bypassCSP: true, viewport: { width: 1280, height: 900 } })

  it('a list result has no serious or critical axe violation', async () => {
    await ui.page.goto(`${ui.server.base}playground?q=${encodeURIComponent('works where year is 2020')}`)
    await ui.page.locator('#results table').first().waitFor()
    expect(await seriousViolations(ui.page)).toEqual([])
  })

  it('a group-by chart has none either', async () => {
    await ui.page.goto(`${ui.server.base}playground?q=${encodeURIComponent('works group by type')}`)
    await ui.page.locator('#results canvas').first().waitFor()
    expect(await seriousViolations(ui.page)).toEqual([])
  })

  it('writes, runs and reaches the results with the keyboard alone', async () => {
    await ui.page.goto(`${ui.server.base}playground`)
    await ui.page.locator('.cm-content').waitFor()
    // Tab from the top of the page until the editor has the focus.
    let inEditor = false
    for (let presses = 0; presses < 15 && !inEditor; presses++) {
      await ui.page.keyboard.press('Tab')
      inEditor = (await ui.page.evaluate(
        "document.activeElement?.classList.contains('cm-content') ?? false",
      )) as boolean
    }
    expect(inEditor).toBe(true)
    await ui.page.keyboard.press('Control+A')
    await ui.page.keyboard.type('works where year is 2021')
    await ui.page.keyboard.press('Escape')
    await ui.page.keyboard.press('Control+Enter')
    await ui.page.locator('#results table').first().waitFor()
    // Leaving the editor with Tab (it does not trap focus) and reaching a link of the results.
    let onResultLink = false
    for (let presses = 0; presses < 60 && !onResultLink; presses++) {
      await ui.page.keyboard.press('Tab')
      onResultLink = (await ui.page.evaluate(
        "document.activeElement?.tagName === 'A' && document.activeElement.closest('#results table') !== null",
      )) as boolean
    }
    expect(onResultLink).toBe(true)
    expect(ui.watch.consoleErrors).toEqual([])
    expect(ui.watch.pageErrors).toEqual([])
  })
})
