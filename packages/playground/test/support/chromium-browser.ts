// Real Chromium for the page's tests: Debian's `chromium` package driven by playwright-core (which never
// downloads a browser of its own). Without Chromium the browser tests skip and say why, unless
// OQLKIT_REQUIRE_CHROMIUM=1 (as `.ci/run` sets it after installing Chromium), when its absence fails them.
import { existsSync } from 'node:fs'
import { type Browser, type BrowserContext, chromium } from 'playwright-core'

export const REQUIRE_CHROMIUM_VARIABLE = 'OQLKIT_REQUIRE_CHROMIUM'
export const CHROMIUM_PATH = '/usr/bin/chromium'

export type ChromiumAvailability =
  | { readonly available: true; readonly path: string }
  | { readonly available: false; readonly reason: string }

/** Whether the browser tests run here; throws when they are required and Chromium is missing. */
export const chromiumForTests = (
  env: Readonly<Record<string, string | undefined>> = process.env,
  path: string = env.OQLKIT_CHROMIUM ?? CHROMIUM_PATH,
): ChromiumAvailability => {
  if (existsSync(path)) return { available: true, path }
  const reason = `${path} is missing (apt-get install chromium, or set OQLKIT_CHROMIUM to a Chromium binary)`
  const required = env[REQUIRE_CHROMIUM_VARIABLE] === '1' || env[REQUIRE_CHROMIUM_VARIABLE] === 'true'
  if (required) throw new Error(`Chromium is required (${REQUIRE_CHROMIUM_VARIABLE}=1) but ${reason}.`)
  console.warn(`Skipping the playground's browser tests: ${reason}.`)
  return { available: false, reason }
}

// The flags this machine needs: no sandbox as root, no GPU, and none of Chromium's own background
// connections, which a closed network refuses many at a time.
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export interface LaunchedBrowser {
  readonly browser: Browser
  /** A fresh context (own storage, downloads allowed) per test file or test. */
  newContext(): Promise<BrowserContext>
  close(): Promise<void>
}

export const launchChromium = async (path: string): Promise<LaunchedBrowser> => {
  // playwright-core gives each launch a new, empty profile of its own (it refuses --user-data-dir).
  const browser = await chromium.launch({
    executablePath: path,
    headless: true,
    args: CHROMIUM_ARGS,
  })
  return {
    browser,
    newContext: () => browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } }),
    close: () => browser.close(),
  }
}
