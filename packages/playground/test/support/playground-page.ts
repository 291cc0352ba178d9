// One Chromium page on the shared playground server, for the browser tests of one `describe`: the server and
// the browser started together before its tests, the page watched for console errors, failed requests and
// requests leaving the server, and the browser closed after. The fields are read once `beforeAll` has run.
import type { BrowserContextOptions, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import type { ChromiumAvailability } from './chromium-browser.ts'
import { type LaunchedBrowser, launchChromium } from './chromium-browser.ts'
import { type PageWatch, watchPage } from './page-watch.ts'
import { type PlaygroundServer, sharedPlaygroundServer } from './playground-server.ts'

export interface PlaygroundPage {
  readonly server: PlaygroundServer
  readonly browser: LaunchedBrowser
  readonly page: Page
  readonly watch: PageWatch
}

/**
 * Registers the hooks in the calling `describe`; nothing starts when Chromium is not available. The page's
 * context is the browser's usual one (downloads allowed), or one of `contextOptions` alone when given.
 */
export function usePlaygroundPage(
  chromium: ChromiumAvailability,
  contextOptions?: BrowserContextOptions,
): PlaygroundPage {
  const opened = {} as { -readonly [K in keyof PlaygroundPage]: PlaygroundPage[K] }
  beforeAll(async () => {
    if (!chromium.available) return
    // Each kept as it comes, so that afterAll closes whichever started when the other failed.
    const [server, browser] = await Promise.allSettled([
      sharedPlaygroundServer().then((started) => {
        opened.server = started
        return started
      }),
      launchChromium(chromium.path).then((launched) => {
        opened.browser = launched
        return launched
      }),
    ])
    if (server.status === 'rejected') throw server.reason
    if (browser.status === 'rejected') throw browser.reason
    const context =
      contextOptions === undefined
        ? await opened.browser.newContext()
        : await opened.browser.browser.newContext(contextOptions)
    opened.page = await context.newPage()
    opened.watch = await watchPage(opened.page, opened.server.base)
  }, 180_000)
  afterAll(async () => {
    await opened.browser?.close()
    await opened.server?.close()
  })
  return opened
}
