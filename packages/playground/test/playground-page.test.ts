// The playground page in real Chromium against a real server on the sample catalog.
import { describe, expect, it } from 'vitest'
import { chromiumForTests } from './support/chromium-browser.ts'
import { usePlaygroundPage } from './support/playground-page.ts'

const chromium = chromiumForTests()

describe.skipIf(!chromium.available)('the playground page in Chromium', () => {
  const ui = usePlaygroundPage(chromium)

  it('opens from the server root, with every script and style from the server itself', async () => {
    await ui.page.goto(ui.server.base)
    expect(new URL(ui.page.url()).pathname).toBe('/playground')
    await ui.page.locator('.cm-content').waitFor()
    expect(await ui.page.title()).toBe('oqlkit playground')
    expect(ui.watch.offsiteRequests).toEqual([])
  })

  it('runs the query in the editor with Ctrl+Enter and says how many results came back', async () => {
    await ui.page.goto(`${ui.server.base}playground`)
    const editor = ui.page.locator('.cm-content')
    await editor.click()
    await ui.page.keyboard.press('Control+A')
    await ui.page.keyboard.type('works where year is 2020')
    await ui.page.keyboard.press('Control+Enter')
    await expect
      .poll(() => ui.page.locator('#run-summary').textContent())
      .toMatch(/^\d+ results in \d+ ms \(database \d+ ms\) · \$[\d.]+ · data default \(\d{4}-\d{2}-\d{2}\)$/)
  })

  it('logged no console error, no uncaught exception and no failed request', () => {
    expect(ui.watch.consoleErrors).toEqual([])
    expect(ui.watch.pageErrors).toEqual([])
    expect(ui.watch.failedRequests).toEqual([])
    expect(ui.server.faults).toEqual([])
  })
})
