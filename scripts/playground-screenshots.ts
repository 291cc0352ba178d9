// Takes the README's screenshots of the playground (docs/playground-*.png) from the real thing: the built
// `oqlkit serve` on the bundled sample catalog (what `npm start` serves), in Debian's Chromium.
// Run `npm run build` first; then `npm run screenshots`.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join, resolve } from 'node:path'
import { chromiumForTests, launchChromium } from '@oqlkit/playground/test-support'
import type { Page } from 'playwright-core'

const REPO = resolve(import.meta.dirname, '..')
const PORT = Number(process.env.SCREENSHOT_PORT ?? 8097)
const BASE = `http://127.0.0.1:${PORT}/`

const SHOTS = [
  {
    file: 'docs/playground-list.png',
    link: `q=${encodeURIComponent('works where year >= 2015 and open access is true')}&select=id,display_name,publication_year,cited_by_count,primary_location`,
    ready: '#results table',
  },
  {
    file: 'docs/playground-group-by.png',
    link: `q=${encodeURIComponent('works group by year')}`,
    ready: '#results canvas',
  },
  {
    // The gallery of examples and the OQL reference opened at the works' fields.
    file: 'docs/playground-examples.png',
    link: '',
    ready: '#example-list button',
    prepare: async (page: Page) => {
      await page.locator('#oql-reference summary').click()
      await page.locator('.reference-table tr').nth(5).waitFor()
      await page.locator('#examples-heading').scrollIntoViewIfNeeded()
    },
  },
] as const satisfies readonly {
  file: string
  link: string
  ready: string
  prepare?: (page: Page) => Promise<void>
}[]

const waitForServer = async (): Promise<void> => {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await fetch(BASE)).ok) return
    } catch {
      // Not listening yet (the first start builds .catalog from the sample).
    }
    await new Promise((later) => setTimeout(later, 500))
  }
  throw new Error(`oqlkit serve did not answer at ${BASE} within 2 minutes`)
}

const chromium = chromiumForTests({ OQLKIT_REQUIRE_CHROMIUM: '1' })
if (!chromium.available) throw new Error('unreachable: Chromium is required here')
const server = spawn(process.execPath, ['packages/cli/bin/oqlkit.js', 'serve', '--port', String(PORT)], {
  cwd: REPO,
  stdio: ['ignore', 'ignore', 'inherit'],
})
try {
  await waitForServer()
  const browser = await launchChromium(chromium.path)
  const context = await browser.browser.newContext({
    viewport: { width: 1360, height: 860 },
    deviceScaleFactor: 1,
  })
  const page = await context.newPage()
  for (const shot of SHOTS) {
    await page.goto(`${BASE}playground${shot.link === '' ? '' : `?${shot.link}`}`)
    await page.locator(shot.ready).first().waitFor({ timeout: 30_000 })
    if ('prepare' in shot) await shot.prepare(page)
    // Chart.js animates its first draw; let it settle.
    await page.waitForTimeout(1_200)
    await page.screenshot({ path: join(REPO, shot.file) })
    console.log(`wrote ${shot.file}`)
  }
  await browser.close()
} finally {
  server.kill('SIGTERM')
  await once(server, 'exit')
}
