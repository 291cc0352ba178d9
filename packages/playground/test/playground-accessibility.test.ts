// The playground for people who use a keyboard or a screen reader: axe-core (the maintained accessibility
// rules engine) finds no serious or critical violation on the page with a list result and with a group-by
// chart, and a query can be written, run and its results reached with the keyboard alone.
import { createRequire } from 'node:module'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumForTests, type LaunchedBrowser, launchChromium } from './support/chromium-browser.ts'
import { type PageWatch, watchPage } from './support/page-watch.ts'
import { type PlaygroundServer, sharedPlaygroundServer } from './support/playground-server.ts'

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
  let server: PlaygroundServer
  let browser: LaunchedBrowser
  let page: Page
  let watch: PageWatch

  beforeAll(async () => {
    if (!chromium.available) return
    ;[server, browser] = await Promise.all([sharedPlaygroundServer(), launchChromium(chromium.path)])
    const context = await browser.browser.newContext({
      bypassCSP: true,
      viewport: { width: 1280, height: 900 },
    })
    page = await context.newPage()
    watch = await watchPage(page, server.base)
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('a list result has no serious or critical axe violation', async () => {
    await page.goto(`${server.base}playground?q=${encodeURIComponent('works where year is 2020')}`)
    await page.locator('#results table').first().waitFor()
    expect(await seriousViolations(page)).toEqual([])
  })

  it('a group-by chart has none either', async () => {
    await page.goto(`${server.base}playground?q=${encodeURIComponent('works group by type')}`)
    await page.locator('#results canvas').first().waitFor()
    expect(await seriousViolations(page)).toEqual([])
  })

  it('writes, runs and reaches the results with the keyboard alone', async () => {
    await page.goto(`${server.base}playground`)
    await page.locator('.cm-content').waitFor()
    // Tab from the top of the page until the editor has the focus.
    let inEditor = false
    for (let presses = 0; presses < 15 && !inEditor; presses++) {
      await page.keyboard.press('Tab')
      inEditor = (await page.evaluate(
        "document.activeElement?.classList.contains('cm-content') ?? false",
      )) as boolean
    }
    expect(inEditor).toBe(true)
    await page.keyboard.press('Control+A')
    await page.keyboard.type('works where year is 2021')
    await page.keyboard.press('Escape')
    await page.keyboard.press('Control+Enter')
    await page.locator('#results table').first().waitFor()
    // Leaving the editor with Tab (it does not trap focus) and reaching a link of the results.
    let onResultLink = false
    for (let presses = 0; presses < 60 && !onResultLink; presses++) {
      await page.keyboard.press('Tab')
      onResultLink = (await page.evaluate(
        "document.activeElement?.tagName === 'A' && document.activeElement.closest('#results table') !== null",
      )) as boolean
    }
    expect(onResultLink).toBe(true)
    expect(watch.consoleErrors).toEqual([])
    expect(watch.pageErrors).toEqual([])
  })
})
