// The /docs page in real Chromium: Swagger UI, served by the oqlkit server itself, renders the OpenAPI
// document's operations with no request leaving the server and no console error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumForTests, type LaunchedBrowser, launchChromium } from './support/chromium-browser.ts'
import { watchPage } from './support/page-watch.ts'
import { type PlaygroundServer, sharedPlaygroundServer } from './support/playground-server.ts'

const chromium = chromiumForTests()

describe.skipIf(!chromium.available)('the docs page in Chromium', () => {
  let server: PlaygroundServer
  let browser: LaunchedBrowser

  beforeAll(async () => {
    if (!chromium.available) return
    ;[server, browser] = await Promise.all([sharedPlaygroundServer(), launchChromium(chromium.path)])
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('renders every operation of /openapi.json and links to the playground', async () => {
    const page = await (await browser.newContext()).newPage()
    const watch = await watchPage(page, server.base)
    await page.goto(`${server.base}docs`)
    await page.locator('.opblock').first().waitFor()
    const document = (await (await fetch(`${server.base}openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>
    }
    const operations = Object.values(document.paths).flatMap((item) =>
      Object.keys(item).filter((key) => ['get', 'post', 'put', 'patch', 'delete'].includes(key)),
    )
    expect(await page.locator('.opblock').count()).toBe(operations.length)
    // It opens on what the API is and a first call, not on metering: the description's first paragraph says
    // what it is, and its first heading is the first calls, before the keys and the serving details.
    const description = page.locator('.info .markdown, .info .renderedMarkdown').first()
    expect(await description.locator('p').first().textContent()).toMatch(/^A catalog of scholarly works/)
    const headings = await description.locator('h2').allTextContents()
    expect(headings[0]).toBe('First calls')
    expect(headings.indexOf('First calls')).toBeLessThan(headings.indexOf('Metering and keys'))
    expect(await page.locator('.opblock-summary-path', { hasText: /^\/playground$/ }).count()).toBe(1)
    await page.getByRole('link', { name: 'Try queries in the playground' }).click()
    await page.waitForURL(/\/playground$/)
    expect(watch.offsiteRequests).toEqual([])
    expect(watch.consoleErrors).toEqual([])
    expect(watch.pageErrors).toEqual([])
    expect(server.faults).toEqual([])
  })
})
