// The playground page in real Chromium against a real server on the sample catalog.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumForTests, type LaunchedBrowser, launchChromium } from './support/chromium-browser.ts'
import { type PageWatch, watchPage } from './support/page-watch.ts'
import { type PlaygroundServer, sharedPlaygroundServer } from './support/playground-server.ts'

const chromium = chromiumForTests()

describe.skipIf(!chromium.available)('the playground page in Chromium', () => {
  let server: PlaygroundServer
  let browser: LaunchedBrowser
  let page: Page
  let watch: PageWatch

  beforeAll(async () => {
    if (!chromium.available) return
    ;[server, browser] = await Promise.all([sharedPlaygroundServer(), launchChromium(chromium.path)])
    page = await (await browser.newContext()).newPage()
    watch = await watchPage(page, server.base)
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('opens from the server root, with every script and style from the server itself', async () => {
    await page.goto(server.base)
    expect(new URL(page.url()).pathname).toBe('/playground')
    await page.locator('.cm-content').waitFor()
    expect(await page.title()).toBe('oqlkit playground')
    expect(watch.offsiteRequests).toEqual([])
  })

  it('runs the query in the editor with Ctrl+Enter and says how many results came back', async () => {
    await page.goto(`${server.base}playground`)
    const editor = page.locator('.cm-content')
    await editor.click()
    await page.keyboard.press('Control+A')
    await page.keyboard.type('works where year is 2020')
    await page.keyboard.press('Control+Enter')
    await expect
      .poll(() => page.locator('#run-summary').textContent())
      .toMatch(/^\d+ results in \d+ ms \(database \d+ ms\) · \$[\d.]+$/)
  })

  it('logged no console error, no uncaught exception and no failed request', () => {
    expect(watch.consoleErrors).toEqual([])
    expect(watch.pageErrors).toEqual([])
    expect(watch.failedRequests).toEqual([])
    expect(server.faults).toEqual([])
  })
})
