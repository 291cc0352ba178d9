// The playground's results in real Chromium against a real server on the sample catalog: a list query's
// rows, paging, select, group-by charts, the three forms, shared links and downloads, each compared with
// what the API itself answers for the same query.
import { readFileSync } from 'node:fs'
import { translate } from '@oqlkit/oql'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumForTests, type LaunchedBrowser, launchChromium } from './support/chromium-browser.ts'
import { type PageWatch, watchPage } from './support/page-watch.ts'
import { type PlaygroundServer, sharedPlaygroundServer } from './support/playground-server.ts'

const chromium = chromiumForTests()

interface ApiList {
  readonly meta: { readonly count: number; readonly groups_count: number | null }
  readonly results?: readonly Record<string, unknown>[]
  readonly group_by?: readonly { key: string; key_display_name: string; count: number }[]
}

const shortId = (id: unknown): string => String(id).split('/').pop() ?? ''

/** Records in a CSV text: newlines outside quoted fields, so a quoted newline does not count. */
const csvRecords = (text: string): number => {
  let records = 0
  let quoted = false
  for (const char of text) {
    if (char === '"') quoted = !quoted
    else if (char === '\n' && !quoted) records += 1
  }
  return text.endsWith('\n') ? records : records + 1
}

describe.skipIf(!chromium.available)('the playground results in Chromium', () => {
  let server: PlaygroundServer
  let browser: LaunchedBrowser
  let page: Page
  let watch: PageWatch
  // Refusals the page let through to the server: it checks a run as the server would (query-preflight.ts),
  // so a bad query or select is answered in the page and none should reach the server.
  let refusals = 0

  /** The server's own message for a run, to hold the page's words to it. */
  const refusalMessage = async (params: Record<string, string>): Promise<string> => {
    const url = new URL(server.base)
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
    const response = await fetch(url, { headers: { accept: 'application/json' } })
    expect(response.status).toBe(400)
    const body = (await response.json()) as {
      message?: string
      validation?: { errors: { message: string }[] }
    }
    return body.validation?.errors[0]?.message ?? body.message ?? ''
  }

  const api = async (params: Record<string, string>): Promise<ApiList> => {
    const url = new URL(server.base)
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
    const response = await fetch(url, { headers: { accept: 'application/json' } })
    expect(response.status).toBe(200)
    return (await response.json()) as ApiList
  }

  const setQuery = async (oql: string): Promise<void> => {
    await page.locator('.cm-content').click()
    await page.keyboard.press('Control+A')
    await page.keyboard.press('Delete')
    await page.keyboard.insertText(oql)
  }

  const summary = () => page.locator('#run-summary')
  const waitForRun = async (): Promise<string> => {
    await expect.poll(() => summary().textContent()).not.toMatch(/^(Running…)?$/)
    return (await summary().textContent()) ?? ''
  }
  const run = async (oql: string): Promise<string> => {
    await setQuery(oql)
    await page.getByRole('button', { name: /^Run/ }).click()
    return waitForRun()
  }
  const rowIds = () => page.locator('.results-table tbody tr td:first-child a').allTextContents()
  const headers = () => page.locator('.results-table thead th').allTextContents()

  beforeAll(async () => {
    if (!chromium.available) return
    ;[server, browser] = await Promise.all([sharedPlaygroundServer(), launchChromium(chromium.path)])
    page = await (await browser.newContext()).newPage()
    watch = await watchPage(page, server.base)
    page.on('response', (response) => {
      if (response.status() === 400) refusals += 1
    })
    await page.goto(`${server.base}playground`)
    await page.locator('.cm-content').waitFor()
  }, 180_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('runs a list query and shows the first page the API gives, ids linked to their pages', async () => {
    // The example the page starts with stays out of the address bar until the query is the person's.
    expect(new URL(page.url()).search).toBe('')
    const oql = 'works where year is 2020'
    const status = await run(oql)
    expect(new URL(page.url()).searchParams.get('q')).toBe(oql)
    const expected = await api({ oql })
    expect(status).toMatch(
      new RegExp(
        `^${expected.meta.count} results in \\d+ ms \\(database \\d+ ms\\) · \\$0\\.0001 · data default \\(\\d{4}-\\d{2}-\\d{2}\\)$`,
      ),
    )
    expect(await rowIds()).toEqual(expected.results!.map((row) => shortId(row.id)))
    const first = page.locator('.results-table tbody tr').first().locator('a')
    // The link opens the entity's page in the playground (playground-newcomer.test.ts reads one).
    expect(await first.getAttribute('href')).toBe(
      `${server.base}playground?entity=works%2F${shortId(expected.results![0]!.id)}`,
    )
    expect(await page.locator('#page-info').textContent()).toBe(
      `Page 1 of ${Math.ceil(expected.meta.count / 25)}`,
    )
  })

  it('shows nested values by their names, never [object Object]', async () => {
    const expected = await api({ oql: 'works where year is 2020' })
    const cells = await page.locator('.results-table tbody td').allTextContents()
    expect(cells.join('\n')).not.toContain('[object Object]')
    const column = (await headers()).indexOf('authorships')
    expect(column).toBeGreaterThan(0)
    const firstAuthor = (expected.results![0]!.authorships as { author: { display_name: string } }[])[0]!
    const cell = page.locator('.results-table tbody tr').first().locator('td').nth(column)
    expect(await cell.textContent()).toContain(firstAuthor.author.display_name)
  })

  it('pages to page 2 and back, and a per-page choice changes the page size', async () => {
    const oql = 'works where year is 2020'
    await page.getByRole('button', { name: 'Next' }).click()
    await expect.poll(() => page.locator('#page-info').textContent()).toMatch(/^Page 2 of/)
    const second = await api({ oql, page: '2' })
    await expect.poll(rowIds).toEqual(second.results!.map((row) => shortId(row.id)))
    expect(new URL(page.url()).searchParams.get('page')).toBe('2')
    await page.getByRole('button', { name: 'Previous' }).click()
    await expect.poll(() => page.locator('#page-info').textContent()).toMatch(/^Page 1 of/)
    await page.getByLabel('Rows per page').selectOption('10')
    const ten = await api({ oql, 'per-page': '10' })
    await expect.poll(rowIds).toEqual(ten.results!.map((row) => shortId(row.id)))
    expect(await page.locator('#page-info').textContent()).toBe(`Page 1 of ${Math.ceil(ten.meta.count / 10)}`)
    await page.getByLabel('Rows per page').selectOption('25')
    await waitForRun()
  })

  it("shows only the selected columns, and says why a column is bad in the server's words", async () => {
    await page.getByLabel('Columns (select)').fill('id, display_name ,publication_year')
    await page.getByLabel('Columns (select)').press('Enter')
    await expect.poll(headers).toEqual(['id', 'display_name', 'publication_year'])
    expect(new URL(page.url()).searchParams.get('select')).toBe('id,display_name,publication_year')
    await page.getByLabel('Columns (select)').fill('id,nope')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => summary().textContent()).toContain("'nope' is not one")
    expect(await summary().textContent()).toBe(
      await refusalMessage({ oql: await page.locator('.cm-content').innerText(), select: 'id,nope' }),
    )
    expect(await summary().getAttribute('class')).toContain('error')
    expect(await page.locator('.results-table').count()).toBe(0)
    await page.getByLabel('Columns (select)').fill('')
  })

  it('says plainly why the server would refuse a query, without sending it', async () => {
    const status = await run('works wher')
    expect(status).toContain('Unexpected text "wher"')
    expect(status).toBe(await refusalMessage({ oql: 'works wher' }))
    expect(await summary().getAttribute('class')).toContain('error')
  })

  it('charts a group-by as bars, with the buckets the API gives as a table', async () => {
    const oql = 'works group by type'
    const status = await run(oql)
    const expected = await api({ oql })
    expect(status).toMatch(
      new RegExp(`^${expected.meta.groups_count} groups of ${expected.meta.count} works in`),
    )
    const canvas = page.locator('canvas#group-chart-canvas')
    await canvas.waitFor()
    expect(await canvas.getAttribute('data-chart-type')).toBe('bar')
    expect(await canvas.getAttribute('aria-label')).toMatch(/^Bar chart of works by type/)
    expect(Number(await canvas.getAttribute('data-buckets'))).toBe(expected.group_by!.length)
    const rows = await page
      .locator('.bucket-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)))
    expect(rows).toEqual(
      expected.group_by!.map((bucket) => [
        bucket.key,
        bucket.key_display_name,
        bucket.count.toLocaleString('en-US'),
      ]),
    )
    // A grouped query exports no rows: the downloads say so instead of failing.
    expect(await page.locator('#download-csv').getAttribute('aria-disabled')).toBe('true')
  })

  it('draws a year group-by as a line', async () => {
    await run('works group by year')
    const canvas = page.locator('canvas#group-chart-canvas')
    await expect.poll(() => canvas.getAttribute('data-chart-type')).toBe('line')
    const expected = await api({ oql: 'works group by year' })
    expect(await page.locator('.bucket-table tbody tr').count()).toBe(expected.group_by!.length)
  })

  it('shows the three forms of what is typed, and says why a query has no classic URL', async () => {
    await setQuery('works where type is article and year is 2021')
    const expected = translate({ oql: 'works where type is article and year is 2021' })
    await expect.poll(() => page.getByLabel('Canonical OQL').inputValue()).toBe(expected.oql)
    expect(JSON.parse(await page.getByLabel('OQO (JSON, editable)').inputValue())).toEqual(expected.oqo)
    const classic = new URL(await page.getByLabel('Classic URL (editable)').inputValue())
    expect(`${classic.origin}/`).toBe(server.base)
    expect(classic.search).toBe(new URL(expected.oxurl!).search)

    await setQuery('works where (year is 2020 or type is article) and (year is 2021 or type is book)')
    await expect.poll(() => page.getByLabel('Classic URL (editable)').inputValue()).toBe('')
    expect(await page.locator('#form-url-note').textContent()).toMatch(/^No classic URL/)
  })

  it('leads the editor from an edited URL or OQO form, and an invalid form changes nothing else', async () => {
    const urlForm = page.getByLabel('Classic URL (editable)')
    await urlForm.fill(`${server.base}works?filter=publication_year:2019`)
    await expect.poll(() => page.locator('.cm-content').textContent()).toBe('works where year is (2019)')
    await expect
      .poll(async () => JSON.parse(await page.getByLabel('OQO (JSON, editable)').inputValue()))
      .toEqual({ get_rows: 'works', filter_rows: [{ column_id: 'publication_year', value: 2019 }] })
    // The form being typed in keeps the person's text (no echo back through the editor).
    expect(await urlForm.inputValue()).toBe(`${server.base}works?filter=publication_year:2019`)

    const oqoForm = page.getByLabel('OQO (JSON, editable)')
    await oqoForm.fill('{"get_rows": "works", "filter_rows": [{"column_id": "type", "value": "book"}]}')
    await expect.poll(() => page.locator('.cm-content').textContent()).toBe('works where type is (book)')
    await expect.poll(() => urlForm.inputValue()).toBe(`${server.base}works?filter=type:book`)

    await oqoForm.fill(
      '{"get_rows": "works", "filter_rows": [{"column_id": "publication_year", "value": "x"}]}',
    )
    await expect.poll(() => page.locator('#form-oqo-error').textContent()).toContain('needs an integer')
    expect(await oqoForm.getAttribute('aria-invalid')).toBe('true')
    await urlForm.fill(`${server.base}works?filter=nope:1`)
    await expect.poll(() => page.locator('#form-url-note').textContent()).toContain("'nope' is not a filter")
    expect(await page.locator('.cm-content').textContent()).toBe('works where type is (book)')
    expect(await page.getByLabel('Canonical OQL').inputValue()).toBe('works where type is (book)')
  })

  it('opens a shared link with the same query, view and results, run at once', async () => {
    const oql = 'works where type is book'
    await setQuery(oql)
    await page.getByLabel('Columns (select)').fill('id,display_name')
    await page.getByRole('button', { name: /^Run/ }).click()
    await waitForRun()
    const link = await page.getByLabel('Link to this query').inputValue()
    expect(new URL(link).searchParams.get('q')).toBe(oql)
    expect(link).toBe(page.url())

    const other = await (await browser.newContext()).newPage()
    const otherWatch = await watchPage(other, server.base)
    await other.goto(link)
    await expect.poll(() => other.locator('.cm-content').textContent()).toBe(oql)
    await expect
      .poll(() => other.locator('.results-table thead th').allTextContents())
      .toEqual(['id', 'display_name'])
    const expected = await api({ oql, select: 'id,display_name' })
    expect(await other.locator('.results-table tbody tr td:first-child a').allTextContents()).toEqual(
      expected.results!.map((row) => shortId(row.id)),
    )
    expect(await other.locator('#run-summary').textContent()).toMatch(
      new RegExp(`^${expected.meta.count} results`),
    )
    expect([...otherWatch.consoleErrors, ...otherWatch.pageErrors, ...otherWatch.offsiteRequests]).toEqual([])
    await other.close()
  })

  it('downloads the query as CSV and JSON through the export endpoint, every row with the selected columns', async () => {
    const oql = 'works where type is book'
    // Typing the columns (no run) is enough for the download to take them.
    await page.getByLabel('Columns (select)').fill('id, publication_year')
    await expect
      .poll(() => page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'))
      .toContain('select=id%2Cpublication_year')
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ])
    const text = readFileSync((await download.path())!, 'utf8')
    const expected = await api({ oql, 'per-page': '1' })
    expect(text.split('\n')[0]).toBe('id,publication_year')
    expect(csvRecords(text)).toBe(expected.meta.count + 1)
    expect(download.suggestedFilename()).toBe('works.csv')
    const [json] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download JSON' }).click(),
    ])
    const records = JSON.parse(readFileSync((await json.path())!, 'utf8')) as Record<string, unknown>[]
    expect(records).toHaveLength(expected.meta.count)
    expect(Object.keys(records[0]!)).toEqual(['id', 'publication_year'])
  })

  it('copies the page link to the clipboard', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: new URL(server.base).origin,
    })
    await page.getByRole('button', { name: 'Copy link' }).click()
    await expect.poll(() => page.locator('#share-note').textContent()).toBe('Link copied.')
    // Page functions are given as text: this file is typechecked for Node, without the DOM's globals.
    const copied = await page.evaluate<string>('navigator.clipboard.readText()')
    expect(copied).toBe(page.url())
    expect(new URL(copied).searchParams.get('q')).toBe('works where type is book')
  })

  it('is operable by keyboard, every control labelled, focus visible', async () => {
    const unlabelled = await page.evaluate<string[]>(
      `[...document.querySelectorAll('main input, main select, main textarea')]
        .filter((field) => field.labels.length === 0)
        .map((field) => field.id)`,
    )
    expect(unlabelled).toEqual([])
    expect(await page.locator('.cm-content').getAttribute('aria-label')).toBe('OQL query')
    await page.getByLabel('Columns (select)').fill('')
    await setQuery('works where year is 2020')
    await page.keyboard.press('Control+Enter')
    await expect.poll(() => page.locator('#page-info').textContent()).toMatch(/^Page 1 of/)
    // From the columns field: rows per page, Apply, then Next (Previous is disabled on page 1).
    await page.getByLabel('Columns (select)').focus()
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('Tab')
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('page-next')
    const outline = await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle')
    expect(outline).toBe('solid')
    await page.keyboard.press('Enter')
    await expect.poll(() => page.locator('#page-info').textContent()).toMatch(/^Page 2 of/)
    const second = await api({ oql: 'works where year is 2020', page: '2' })
    await expect.poll(rowIds).toEqual(second.results!.map((row) => shortId(row.id)))
  })

  it('puts the results beside the query on a wide screen and under it on a narrow one', async () => {
    const boxes = async () => {
      const query = (await page.locator('.query-panel').boundingBox())!
      const results = (await page.locator('.results-panel').boundingBox())!
      return { query, results }
    }
    const wide = await boxes()
    expect(wide.results.x).toBeGreaterThanOrEqual(wide.query.x + wide.query.width)
    await page.setViewportSize({ width: 600, height: 900 })
    const narrow = await boxes()
    expect(narrow.results.y).toBeGreaterThanOrEqual(narrow.query.y + narrow.query.height)
    expect(narrow.results.x).toBe(narrow.query.x)
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('shows a connection that fails in the status line, without throwing', async () => {
    const other = await (await browser.newContext()).newPage()
    const errors: string[] = []
    other.on('pageerror', (error) => errors.push(String(error)))
    await other.route(
      (url) => url.pathname === '/' && url.searchParams.has('oql'),
      (route) => route.abort('connectionrefused'),
    )
    await other.goto(`${server.base}playground?q=${encodeURIComponent('works where year is 2020')}`)
    await expect
      .poll(() => other.locator('#run-summary').textContent())
      .toMatch(/^The server could not be reached/)
    expect(await other.locator('#run-summary').getAttribute('class')).toContain('error')
    expect(errors).toEqual([])
    await other.close()
  })

  it('looks many ids up at once, a row per id in the order given, and snowballs from seed works', async () => {
    const listed = await api({ oql: 'works where year is 2020' })
    const ids = listed.results!.slice(0, 3).map((row) => shortId(row.id))
    const asked = [ids[0]!, 'W1', ids[1]!, ids[2]!]
    const lookedUp = (await (
      await fetch(new URL('works/lookup', server.base), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids: asked }),
      })
    ).json()) as { results: { record: { id: string } | null; message?: string }[] }
    await page.locator('#batch-ids').fill(asked.join('\n'))
    await page.locator('#batch-entity').selectOption('works')
    await page.getByRole('button', { name: 'Look up' }).click()
    expect(await waitForRun()).toMatch(
      /^4 ids: 3 found, 1 not in \d+ ms · \$0\.0001 · data default \(\d{4}-\d{2}-\d{2}\)$/,
    )
    const column = (n: number) => page.locator(`.results-table tbody tr td:nth-child(${n})`).allTextContents()
    expect(await column(1)).toEqual(asked)
    expect(await column(2)).toEqual(
      lookedUp.results.map((result) => (result.record === null ? '—' : shortId(result.record.id))),
    )
    expect((await column(4))[1]).toBe(lookedUp.results[1]!.message)
    // A snowball from the first work, both ways: the works the API's snowball gives, the seed first.
    const snowball = (await (
      await fetch(new URL(`works/snowball?ids=${ids[0]}&select=id`, server.base))
    ).json()) as { meta: { count: number; citations_count: number }; works: { id: string; depth: number }[] }
    await page.locator('#batch-ids').fill(ids[0]!)
    await page.getByRole('button', { name: 'Snowball from works' }).click()
    expect(await waitForRun()).toMatch(
      new RegExp(
        `^1 seed: ${(snowball.meta.count - 1).toLocaleString('en-US')} works? cited by or citing them, ${snowball.meta.citations_count.toLocaleString('en-US')} citations? among them in \\d+ ms · \\$0\\.0001 · data default`,
      ),
    )
    expect(await column(2)).toEqual(snowball.works.map((work) => shortId(work.id)))
    expect((await column(1))[0]).toBe('0')
  })

  it('logged no console error, no uncaught exception, no failed and no off-server request', () => {
    expect(refusals).toBe(0)
    expect(watch.consoleErrors).toEqual([])
    expect(watch.pageErrors).toEqual([])
    expect(watch.failedRequests).toEqual([])
    expect(watch.offsiteRequests).toEqual([])
    expect(server.faults).toEqual([])
  })
})
