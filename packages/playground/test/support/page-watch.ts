// What a page did that it should not: console errors, uncaught exceptions, failed requests and any request
// that leaves the oqlkit server (the page must work with no other network).
import type { Page } from 'playwright-core'

export interface PageWatch {
  readonly consoleErrors: string[]
  readonly pageErrors: string[]
  readonly offsiteRequests: string[]
  readonly failedRequests: string[]
}

export const watchPage = async (page: Page, base: string): Promise<PageWatch> => {
  const watch: PageWatch = { consoleErrors: [], pageErrors: [], offsiteRequests: [], failedRequests: [] }
  const origin = new URL(base).origin
  page.on('console', (message) => {
    if (message.type() === 'error') watch.consoleErrors.push(message.text())
  })
  page.on('pageerror', (error) => watch.pageErrors.push(String(error)))
  page.on('requestfailed', (request) => {
    // A download the test did not read, or a fetch the page aborted on purpose, is not a failure.
    if (request.failure()?.errorText !== 'net::ERR_ABORTED') watch.failedRequests.push(request.url())
  })
  await page.route(
    (url) => url.origin !== origin && url.protocol !== 'data:' && url.protocol !== 'blob:',
    async (route) => {
      watch.offsiteRequests.push(route.request().url())
      await route.abort()
    },
  )
  return watch
}
