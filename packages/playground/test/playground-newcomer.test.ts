// The playground as a researcher first meets it, in real Chromium against a real server on the sample: the
// example query runs on opening; the three forms show the editor's query as it is now (nothing while it is
// not valid); running closes the completion list; a gallery of examples runs in one click; the OQL reference
// lists each entity's fields; and an error's pointer at the API becomes a link to those fields. The gallery's
// queries are also run through the API directly: each must still parse, run and find something.

import { translate } from '@oqlkit/oql'
import { describe, expect, it } from 'vitest'
import { abstractOf, entityPageModel, worksQueriesOf } from '../src/entity-page-model.ts'
import { EXAMPLE_QUERIES } from '../src/example-queries.ts'
import { fieldReference, referenceEntities } from '../src/oql-field-reference.ts'
import { chromiumForTests } from './support/chromium-browser.ts'
import { usePlaygroundPage } from './support/playground-page.ts'

const chromium = chromiumForTests()

describe('the OQL reference, from the parser', () => {
  it('lists the entities and, for works, fields with their kinds, operators and values', () => {
    expect(referenceEntities()).toEqual(expect.arrayContaining(['works', 'authors', 'institutions']))
    const fields = fieldReference('works')
    expect(fields.length).toBeGreaterThan(30)
    const year = fields.find((field) => field.name === 'year')
    expect(year).toEqual({
      name: 'year',
      kind: 'number',
      operators: ['is', 'is not', '>', '>=', '<', '<='],
      values: [],
    })
    const type = fields.find((field) => field.name === 'type')
    expect(type?.values).toEqual(expect.arrayContaining(['article', 'preprint']))
    expect(fields.find((field) => field.kind === 'search')?.operators).toContain('has')
  })
})

describe("an entity's page, worked out from its record", () => {
  it('writes the abstract out of the inverted index in reading order', () => {
    expect(abstractOf({ learning: [1, 4], deep: [0], is: [2], representation: [3] })).toBe(
      'deep learning is representation learning',
    )
    expect(abstractOf(null)).toBeUndefined()
  })

  it('offers only queries the language reads, for every kind of entity that has them', () => {
    for (const path of ['works', 'authors', 'institutions', 'sources', 'topics', 'publishers', 'funders']) {
      const queries = worksQueriesOf(path, `${path.charAt(0).toUpperCase()}123`)
      expect(queries.length, path).toBeGreaterThan(0)
      for (const { oql } of queries) expect(translate({ oql }).validation.valid, oql).toBe(true)
    }
    expect(worksQueriesOf('continents', 'Q1')).toEqual([])
  })

  it("names a work's authors, source and topic as links to their pages", () => {
    const model = entityPageModel('works', {
      id: 'https://openalex.org/W1',
      display_name: 'A title',
      publication_year: 2020,
      authorships: [{ author: { id: 'https://openalex.org/A9', display_name: 'Ada' } }],
      primary_location: { source: { id: 'https://openalex.org/S5', display_name: 'A journal' } },
      doi: 'https://doi.org/10.1/x',
    })
    expect(model.title).toBe('A title')
    expect(model.facts).toEqual(
      expect.arrayContaining([
        { label: 'Year', text: '2020' },
        { label: 'Authors', links: [{ path: 'authors/A9', name: 'Ada' }] },
        { label: 'Source', links: [{ path: 'sources/S5', name: 'A journal' }] },
        { label: 'DOI', text: '10.1/x', url: 'https://doi.org/10.1/x' },
      ]),
    )
    // A DOI that is not the resolver's address is shown, never linked.
    const odd = entityPageModel('works', { id: 'https://openalex.org/W2', doi: 'javascript:alert(1)' })
    expect(odd.facts).toContainEqual({ label: 'DOI', text: 'javascript:alert(1)' })
  })
})

describe.skipIf(!chromium.available)('the playground for a newcomer, in Chromium', () => {
  const ui = usePlaygroundPage(chromium)

  const summary = () => ui.page.locator('#run-summary').textContent()

  const replaceQuery = async (text: string): Promise<void> => {
    await ui.page.locator('.cm-content').click()
    await ui.page.keyboard.press('Control+A')
    await ui.page.keyboard.press('Delete')
    await ui.page.keyboard.type(text)
  }

  it('every example of the gallery parses, runs and finds something on the sample', async () => {
    expect(EXAMPLE_QUERIES).toHaveLength(12)
    for (const { oql } of EXAMPLE_QUERIES) {
      const response = await fetch(`${ui.server.base}?oql=${encodeURIComponent(oql)}`)
      expect(response.status, oql).toBe(200)
      const body = (await response.json()) as { meta: { count: number } }
      expect(body.meta.count, oql).toBeGreaterThan(0)
    }
  })

  it('runs the example query on opening, and keeps the plain address', async () => {
    await ui.page.goto(`${ui.server.base}playground`)
    await expect.poll(summary).toMatch(/^\d+ results in /)
    expect(await ui.page.locator('#results table tbody tr').count()).toBeGreaterThan(0)
    expect(new URL(ui.page.url()).search).toBe('')
  })

  it('shows nothing in the OQO and URL forms while the query is not valid, and the query once it is', async () => {
    await replaceQuery('works where year is 2020 and')
    await expect.poll(() => ui.page.locator('#form-oqo').inputValue()).toBe('')
    expect(await ui.page.locator('#form-url').inputValue()).toBe('')
    expect(await ui.page.locator('#form-oqo-error').textContent()).toBe(
      'None while the query in the editor is not valid.',
    )
    expect(await ui.page.locator('#form-oql-note').getAttribute('class')).toContain('error')
    await ui.page.keyboard.type(' type is article')
    await expect.poll(() => ui.page.locator('#form-url').inputValue()).toContain('publication_year:2020')
    expect(await ui.page.locator('#form-oqo-error').textContent()).toBe('')
    expect(await ui.page.locator('#form-oql-note').textContent()).toBe('')
  })

  it('closes the completion list when Ctrl+Enter runs the query', async () => {
    await replaceQuery('works where ye')
    const list = ui.page.locator('.cm-tooltip-autocomplete')
    await list.waitFor()
    await ui.page.keyboard.press('Control+Enter')
    await expect.poll(() => list.count()).toBe(0)
  })

  it('runs an example of the gallery in one click', async () => {
    const examples = ui.page.locator('#example-list button')
    expect(await examples.count()).toBe(EXAMPLE_QUERIES.length)
    const example = EXAMPLE_QUERIES.find((query) => query.oql.includes('citation count'))!
    await ui.page.getByRole('button', { name: new RegExp(example.question) }).click()
    await expect.poll(summary).toMatch(/^\d+ results in /)
    await expect
      .poll(() => ui.page.locator('.cm-content').evaluate((content) => content.textContent))
      .toBe(example.oql)
    // The forms follow the example's query too.
    await expect.poll(() => ui.page.locator('#form-url').inputValue()).toContain('cited_by_count:%3E1000')
  })

  it('links an error that points at the API to the fields of the entity, in the OQL reference', async () => {
    await ui.page.locator('#form-url').fill(`${ui.server.base}works?filter=yeer:2020`)
    const link = ui.page.locator('#form-url-note a.fields-link')
    await expect
      .poll(() => ui.page.locator('#form-url-note').textContent(), { timeout: 5_000 })
      .toContain("Did you mean 'publication_year'?")
    expect(await ui.page.locator('#form-url-note').textContent()).not.toContain('GET /properties')
    await link.click()
    expect(await ui.page.locator('#oql-reference').getAttribute('open')).not.toBeNull()
    expect(await ui.page.locator('#reference-entity').inputValue()).toBe('works')
    const rows = ui.page.locator('.reference-table tr')
    expect(await rows.count()).toBeGreaterThan(30)
    expect(await ui.page.locator('.reference-table td', { hasText: /^year$/ }).count()).toBe(1)
  })

  it("opens a work's page from the results, with its authors' pages and the works citing it a click away", async () => {
    await ui.page.goto(
      `${ui.server.base}playground?q=${encodeURIComponent('works where citation count > 1000')}`,
    )
    const first = ui.page.locator('.results-table tbody tr').first().locator('a')
    await first.waitFor()
    const id = (await first.textContent()) ?? ''
    await first.click()
    await ui.page.locator('.entity-page h3').waitFor()
    const work = (await (await fetch(`${ui.server.base}works/${id}`)).json()) as { display_name: string }
    expect(await ui.page.locator('.entity-page h3').textContent()).toBe(work.display_name)
    expect(await ui.page.locator('.entity-page dt', { hasText: 'Authors' }).count()).toBe(1)
    expect(await ui.page.locator('.entity-page dd a[href*="entity=authors"]').count()).toBeGreaterThan(0)
    await ui.page.getByRole('button', { name: 'Works citing this' }).click()
    await expect.poll(summary).toMatch(/^\d+ results in /)
    expect(new URL(ui.page.url()).searchParams.get('q')).toBe(`works where it cites (${id})`)
    // An author's page, from a link on the work's.
    await ui.page.goto(`${ui.server.base}playground?entity=works%2F${id}`)
    await ui.page.locator('.entity-page dd a[href*="entity=authors"]').first().click()
    await ui.page.getByRole('button', { name: 'Works by this author' }).waitFor()
  })

  it('logged no console error, no uncaught exception and no failed request', () => {
    expect(ui.watch.consoleErrors).toEqual([])
    expect(ui.watch.pageErrors).toEqual([])
    expect(ui.watch.failedRequests).toEqual([])
    expect(ui.server.faults).toEqual([])
  })
})
