// The playground's OQL editor in real Chromium against a real server on the sample catalog, driven by the
// keyboard alone: completion from @oqlkit/oql in the page and names from the server's /autocomplete,
// highlighting from the library's reading of the text, lint with the fix text and quick fixes.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumForTests, type LaunchedBrowser, launchChromium } from './support/chromium-browser.ts'
import { type PageWatch, watchPage } from './support/page-watch.ts'
import { type PlaygroundServer, sharedPlaygroundServer } from './support/playground-server.ts'

const chromium = chromiumForTests()

describe.skipIf(!chromium.available)('the OQL editor in Chromium', () => {
  let server: PlaygroundServer
  let browser: LaunchedBrowser
  let page: Page
  let watch: PageWatch
  const autocompleteRequests: string[] = []

  /** The editor's text as CodeMirror holds it (its DOM shows only what is in view). */
  const editorText = (): Promise<string> =>
    page.locator('.cm-content').evaluate((content) => {
      const lines = [...content.querySelectorAll('.cm-line')].map((line) => line.textContent ?? '')
      return lines.join('\n')
    })

  /** Focuses the editor from the top of the page with Tab alone, as a keyboard user would. */
  const tabIntoEditor = async (): Promise<void> => {
    // From the top of the page: a click on the title moves Tab's starting point there (a blur alone leaves it
    // at the element that had focus, and the results controls after the editor are more than 10 stops).
    await page.locator('.site-header h1').click()
    for (let presses = 0; presses < 10; presses++) {
      await page.keyboard.press('Tab')
      const focused = page
        .locator('.cm-content')
        .evaluate((content) => content === content.ownerDocument.activeElement)
      if (await focused) return
    }
    throw new Error('Tab never reached the editor')
  }

  /**
   * Picks the selected choice with Enter once the list shows only `labels`, first selected. CodeMirror
   * ignores Enter for 75 ms after the list changes (so a fast typist's Enter is a newline), hence the wait.
   */
  const pick = async (labels: (shown: string[]) => boolean): Promise<void> => {
    const shown = page.locator('.cm-tooltip-autocomplete [role=option] .cm-completionLabel')
    await expect.poll(async () => labels(await shown.allTextContents())).toBe(true)
    expect(
      await page.locator('.cm-tooltip-autocomplete [role=option]').first().getAttribute('aria-selected'),
    ).toBe('true')
    await page.waitForTimeout(150)
    await page.keyboard.press('Enter')
  }

  const replaceText = async (text: string): Promise<void> => {
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Delete')
    await page.keyboard.type(text)
  }

  beforeAll(async () => {
    if (!chromium.available) return
    ;[server, browser] = await Promise.all([sharedPlaygroundServer(), launchChromium(chromium.path)])
    page = await (await browser.newContext()).newPage()
    watch = await watchPage(page, server.base)
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/autocomplete'))
        autocompleteRequests.push(request.url())
    })
    await page.goto(`${server.base}playground?q=`)
    await page.locator('.cm-content').waitFor()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('is reached by Tab, is labelled, and completes a field from the library with the keyboard', async () => {
    await tabIntoEditor()
    await expect.poll(() => page.getByRole('textbox', { name: 'OQL query' }).count()).toBe(1)
    await replaceText('works where ye')
    // The library's only field for `ye`.
    await pick((shown) => shown.join() === 'year')
    expect(await editorText()).toBe('works where year')
  })

  it('completes an institution by name from the server and inserts its id with the name as an annotation', async () => {
    await page.keyboard.type(' is 2020 and institution is harv')
    // Keyboard only: the best match comes first, selected; Enter takes it.
    await pick((shown) => shown[0] === 'Harvard University')
    expect(await editorText()).toBe(
      'works where year is 2020 and institution is I136199984 [Harvard University]',
    )
    // Asked the server beside the page for what was typed, and only after typing paused.
    expect(autocompleteRequests.length).toBeGreaterThan(0)
    const asked = new URL(autocompleteRequests.at(-1)!)
    expect(asked.pathname).toBe('/autocomplete/institutions')
    expect(asked.searchParams.get('q')).toBe('harv')
    expect(autocompleteRequests.every((url) => new URL(url).searchParams.get('q')?.startsWith('h'))).toBe(
      true,
    )
  })

  it('colours fields, operators and values as the library reads them', async () => {
    await replaceText('works where type is article and title has type')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.locator('.cm-oql-field').allTextContents()).toEqual(['type', 'title'])
    expect(await page.locator('.cm-oql-operator').allTextContents()).toEqual(['is', 'has'])
    // `type` after `has` is a search term, not the field.
    expect(await page.locator('.cm-oql-value').allTextContents()).toEqual(['article', 'type'])
    expect(await page.locator('.cm-oql-entity').allTextContents()).toEqual(['works'])
    expect(await page.locator('.cm-oql-connective').allTextContents()).toEqual(['and'])
    expect(await page.locator('.cm-lintRange').count()).toBe(0)
  })

  it('lints an unknown field with its fix text and applies the quick fix from the lint panel by keyboard', async () => {
    await replaceText('works where yaer is 2020')
    await page.keyboard.press('Escape')
    // Polled: on a loaded machine the linter can first mark what an earlier keystroke left (`wh`), before the
    // whole text's diagnostics replace it.
    await expect.poll(() => page.locator('.cm-lintRange-error').first().textContent()).toBe('yaer')
    await page.keyboard.press('Control+Shift+M')
    const panel = page.locator('.cm-panel-lint')
    const message = panel.getByRole('option').first()
    await expect
      .poll(() => message.textContent())
      .toContain('Unknown field "yaer" for works. Did you mean "year"?')
    expect(await page.locator(':focus').getAttribute('role')).toBe('listbox')
    await page.keyboard.press('ArrowDown')
    expect(await panel.getByRole('button', { name: /Change to year/ }).count()).toBe(1)
    await page.keyboard.press('c')
    expect(await editorText()).toBe('works where year is 2020')
    await expect.poll(() => page.locator('.cm-lintRange').count()).toBe(0)
    await expect.poll(() => panel.getByRole('option').first().textContent()).toBe('No diagnostics')
    await page.keyboard.press('Escape')
  })

  it('opens completion with Ctrl+Space, and leaves the editor with Escape and Tab, typing no tab', async () => {
    await tabIntoEditor()
    await page.keyboard.press('End')
    await page.keyboard.type(' and ')
    await page.keyboard.press('Escape')
    const list = page.locator('.cm-tooltip-autocomplete')
    await expect.poll(() => list.count()).toBe(0)
    await page.keyboard.press('Control+Space')
    // After `and`, a condition starts: the entity's fields come first.
    await expect.poll(() => list.locator('[role=option]').count()).toBeGreaterThan(10)
    expect(await list.locator('[role=option]').first().locator('.cm-completionIcon-property').count()).toBe(1)
    await page.keyboard.press('Escape')
    await expect.poll(() => list.count()).toBe(0)
    await page.keyboard.press('Tab')
    const inEditor = await page
      .locator(':focus')
      .evaluate((focused) => focused.closest('.cm-editor') !== null)
    expect(inEditor).toBe(false)
    expect(await editorText()).toBe('works where year is 2020 and ')
  })

  it('logged no console error, no uncaught exception, no failed or off-server request', () => {
    expect(watch.consoleErrors).toEqual([])
    expect(watch.pageErrors).toEqual([])
    expect(watch.failedRequests).toEqual([])
    expect(watch.offsiteRequests).toEqual([])
    expect(server.faults).toEqual([])
  })
})
