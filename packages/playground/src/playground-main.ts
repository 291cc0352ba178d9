// The playground page: wires the OQL editor, its three forms, the run, the results (table or chart), the
// page's own link and the downloads together. Each part lives in its own module; this one only connects them.
import { translate } from '@oqlkit/oql'
import { entityPath, isEntityType, SERVED_ENTITY_TYPES } from '@oqlkit/oqo-schema'
import { entityPageModel } from './entity-page-model.ts'
import { renderEntityPage } from './entity-page-view.ts'
import { renderExampleGallery } from './example-gallery.ts'
import { type GroupChartView, renderGroupChart } from './group-chart-view.ts'
import {
  type BatchOutcome,
  idsOf,
  idsProblem,
  lookUpIds,
  MAX_LOOKUP_IDS,
  MAX_SNOWBALL_SEEDS,
  type SnowballDirection,
  snowballFrom,
} from './id-batch-runner.ts'
import {
  LOOKUP_COLUMNS,
  lookupRows,
  lookupStatusText,
  SNOWBALL_COLUMNS,
  snowballRows,
  snowballStatusText,
} from './id-batch-view.ts'
import { isGrouped, type ListEnvelope } from './list-envelope.ts'
import { createOqlEditor } from './oql-editor.ts'
import { referenceEntityOfPath } from './oql-field-reference.ts'
import { renderOqlReference } from './oql-reference-view.ts'
import {
  DEFAULT_PER_PAGE,
  entityPageLink,
  exportLink,
  type LinkState,
  linkFor,
  PER_PAGE_CHOICES,
  readLinkState,
} from './playground-link-state.ts'
import { writeProblemMessage } from './problem-message-view.ts'
import { createQueryForms } from './query-forms-view.ts'
import { preflightProblem } from './query-preflight.ts'
import { apiRoot, type RunRequest, runQuery } from './query-runner.ts'
import { columnsOf, renderResultsTable, singletonUrl } from './results-table-view.ts'
import { runStatusText } from './run-status-format.ts'

/** The deepest a page number reaches (basic paging stops at 10,000 results; cursors go further). */
const PAGING_DEPTH = 10_000
const DEFAULT_QUERY = 'works where year is 2020'

const element = <T extends HTMLElement>(id: string): T => {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`The playground page has no #${id}`)
  return found as T
}

const root = apiRoot()
const summary = element<HTMLParagraphElement>('run-summary')
const results = element<HTMLDivElement>('results')
const pager = element<HTMLElement>('pager')
const pageInfo = element<HTMLSpanElement>('page-info')
const previous = element<HTMLButtonElement>('page-previous')
const next = element<HTMLButtonElement>('page-next')
const selectInput = element<HTMLInputElement>('select-columns')
const perPageInput = element<HTMLSelectElement>('per-page')
const shareInput = element<HTMLInputElement>('share-link')
const shareNote = element<HTMLSpanElement>('share-note')
const downloadCsv = element<HTMLAnchorElement>('download-csv')
const downloadJson = element<HTMLAnchorElement>('download-json')
const downloadNote = element<HTMLParagraphElement>('download-note')

const reference = renderOqlReference(element<HTMLDetailsElement>('oql-reference'))
/** A problem in the run summary, its pointers at the API made links to the reference. */
const showProblem = (message: string): void => {
  writeProblemMessage(summary, message, referenceEntityOfPath, (entity) => reference.show(entity))
  summary.classList.add('error')
}

const initial = readLinkState(location.search)
let currentPage = initial.page
let running: AbortController | undefined
let chart: GroupChartView | undefined

for (const choice of new Set([...PER_PAGE_CHOICES, initial.perPage].sort((a, b) => a - b))) {
  const option = document.createElement('option')
  option.value = String(choice)
  option.textContent = String(choice)
  perPageInput.append(option)
}
perPageInput.value = String(initial.perPage)
selectInput.value = initial.select

const stateNow = (text: string): LinkState => ({
  q: text,
  page: currentPage,
  perPage: Number(perPageInput.value),
  select: selectInput.value,
})

const setDownload = (link: HTMLAnchorElement, href: string | null): void => {
  if (href === null) {
    link.removeAttribute('href')
    link.setAttribute('aria-disabled', 'true')
  } else {
    link.href = href
    link.removeAttribute('aria-disabled')
  }
}

/**
 * The page's link and the download links follow the query and its view. The address bar takes the link
 * once the query is the person's own (typed, run or opened from a link), not for the example the page
 * starts with (and runs), so `/playground` stays the page's plain address until the person acts.
 */
let ownQuery = initial.hasQuery
const refreshLinks = (): void => {
  const text = editor.text()
  const link = linkFor(new URL(location.href), stateNow(text))
  if (ownQuery && link.href !== location.href) history.replaceState(null, '', link)
  shareInput.value = link.href
  const translation = text.trim() === '' ? undefined : translate({ oql: text })
  const why =
    translation === undefined || !translation.validation.valid
      ? 'Downloads need a valid query.'
      : (translation.oqo?.group_by?.length ?? 0) > 0
        ? 'Downloads export rows; a grouped query has buckets (shown as a table below).'
        : ''
  downloadNote.textContent = why
  for (const [link, format] of [
    [downloadCsv, 'csv'],
    [downloadJson, 'json'],
  ] as const)
    setDownload(link, why === '' ? exportLink(root, text, format, selectInput.value).href : null)
}

let linksTimer: ReturnType<typeof setTimeout> | undefined
const refreshLinksSoon = (): void => {
  clearTimeout(linksTimer)
  linksTimer = setTimeout(refreshLinks, 250)
}

const clearResults = (): void => {
  chart?.destroy()
  chart = undefined
  results.replaceChildren()
  pager.hidden = true
}

/**
 * Runs `work` as the page's run (`controller` is `running`), then shows its outcome in the results' place: a
 * problem in the status line, or what `show` makes of it. A run begun since this one began wins.
 */
const runInResults = async <
  Outcome extends { readonly ok: true } | { readonly ok: false; readonly message: string },
>(
  controller: AbortController,
  work: () => Promise<Outcome>,
  show: (outcome: Extract<Outcome, { readonly ok: true }>) => void,
): Promise<void> => {
  summary.textContent = 'Running…'
  summary.classList.remove('error')
  results.setAttribute('aria-busy', 'true')
  const outcome = await work()
  if (running !== controller) return
  results.removeAttribute('aria-busy')
  clearResults()
  if (!outcome.ok) showProblem((outcome as { readonly message: string }).message)
  else show(outcome as Extract<Outcome, { readonly ok: true }>)
}

/** A page of rows, with the columns and page size it was asked for (the fields may have changed since). */
const showList = (body: ListEnvelope, request: RunRequest): void => {
  const rows = body.results ?? []
  const entity = body.meta.x_query?.oqo?.get_rows ?? ''
  const page = body.meta.page ?? currentPage
  const perPage = body.meta.per_page ?? request.perPage ?? DEFAULT_PER_PAGE
  results.append(
    renderResultsTable({
      rows,
      columns: columnsOf(rows, request.select ?? ''),
      apiRoot: root,
      entityPath: isEntityType(entity) ? entityPath(entity) : entity,
      entityPageUrl: (path) => entityPageLink(new URL(location.href), path).href,
      firstRowNumber: (page - 1) * perPage + 1,
    }),
  )
  const reachable = Math.min(body.meta.count ?? 0, PAGING_DEPTH)
  const pages = Math.max(1, Math.ceil(reachable / perPage))
  pageInfo.textContent = `Page ${page.toLocaleString('en-US')} of ${pages.toLocaleString('en-US')}`
  previous.disabled = page <= 1
  next.disabled = page >= pages
  pager.hidden = false
}

const showGroups = (body: ListEnvelope): void => {
  const buckets = body.group_by ?? []
  const grouping = body.meta.x_query?.oqo?.group_by as readonly { column_id?: string }[] | undefined
  chart = renderGroupChart(results, {
    buckets,
    columnId: grouping?.[0]?.column_id ?? 'key',
    entity: body.meta.x_query?.oqo?.get_rows ?? 'rows',
    groupsCount: body.meta.groups_count ?? buckets.length,
  })
}

/** Runs the editor's query; `byPerson` false for the example the page opens with (its link stays plain). */
const run = async (page: number, byPerson = true): Promise<void> => {
  const oql = editor.text()
  running?.abort()
  running = undefined
  if (oql.trim() === '') {
    summary.textContent = 'Type a query in the editor first.'
    summary.classList.add('error')
    return
  }
  const controller = new AbortController()
  running = controller
  currentPage = page
  if (byPerson) ownQuery = true
  refreshLinks()
  // A grouped query answers buckets, not pages of rows: it is asked for all of them at once, and the
  // columns chosen for rows do not apply to them.
  const grouped = (translate({ oql }).oqo?.group_by?.length ?? 0) > 0
  const perPage = Number(perPageInput.value)
  const request: RunRequest = grouped ? { oql } : { oql, page, perPage, select: selectInput.value }
  const problem = preflightProblem(request)
  if (problem !== undefined) {
    clearResults()
    showProblem(problem)
    return
  }
  await runInResults(
    controller,
    () => runQuery(request, controller.signal),
    (outcome) => {
      summary.textContent = runStatusText(outcome)
      if (isGrouped(outcome.body)) showGroups(outcome.body)
      else showList(outcome.body, request)
    },
  )
}

const editor = createOqlEditor(element('oql-editor'), {
  text: initial.hasQuery ? initial.q : DEFAULT_QUERY,
  onRun: () => void run(1),
  onChange: (text) => {
    forms.editorChanged(text)
    // The link names the new query from its first page, as Run would show it.
    currentPage = 1
    ownQuery = true
    refreshLinksSoon()
  },
})

const forms = createQueryForms(
  {
    canonical: element('form-oql'),
    canonicalNote: element('form-oql-note'),
    oqo: element('form-oqo'),
    oqoError: element('form-oqo-error'),
    url: element('form-url'),
    urlNote: element('form-url-note'),
  },
  {
    apiRoot: root,
    setEditorText: (text) => editor.setText(text),
    writeProblem: (note, message) =>
      writeProblemMessage(note, message, referenceEntityOfPath, (entity) => reference.show(entity)),
  },
)

// An example runs at once: it replaces the editor's query and shows its results.
renderExampleGallery(element('example-list'), (oql) => {
  editor.setText(oql)
  void run(1)
})

element<HTMLButtonElement>('run-query').addEventListener('click', () => void run(1))
previous.addEventListener('click', () => void run(currentPage - 1))
next.addEventListener('click', () => void run(currentPage + 1))
element<HTMLFormElement>('view-form').addEventListener('submit', (event) => {
  event.preventDefault()
  void run(1)
})
perPageInput.addEventListener('change', () => void run(1))
// The chosen columns shape the link and the downloads as they are typed, before the next run.
selectInput.addEventListener('input', refreshLinksSoon)

element<HTMLButtonElement>('copy-link').addEventListener('click', async () => {
  refreshLinks()
  try {
    await navigator.clipboard.writeText(shareInput.value)
    shareNote.textContent = 'Link copied.'
  } catch {
    // No clipboard here (not allowed, or not a secure context): the link is selected for Ctrl+C instead.
    shareInput.focus()
    shareInput.select()
    shareNote.textContent = 'Press Ctrl+C to copy the selected link.'
  }
})

/**
 * The page of one entity (`works/W123`), in the results' place, with the queries that follow from it. It is
 * one more run: a query run after it (an example, Run) aborts it, and one that ran since it began wins.
 */
const showEntity = async (entity: string): Promise<void> => {
  const [path = '', id = ''] = entity.split('/')
  const jsonUrl = singletonUrl(root, path, id).href
  running?.abort()
  const controller = new AbortController()
  running = controller
  shareInput.value = entityPageLink(new URL(location.href), entity).href
  summary.textContent = 'Loading…'
  summary.classList.remove('error')
  let record: Record<string, unknown>
  try {
    const response = await fetch(jsonUrl, {
      headers: { accept: 'application/json' },
      signal: controller.signal,
    })
    const body: unknown = await response.json()
    if (running !== controller) return
    const answer =
      typeof body === 'object' && body !== null && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : {}
    if (!response.ok || typeof answer.id !== 'string') {
      showProblem(
        typeof answer.message === 'string'
          ? answer.message
          : `The server answered ${response.status} without an entity.`,
      )
      return
    }
    record = answer
  } catch (error) {
    if (running !== controller) return
    showProblem(`The entity could not be loaded (${error instanceof Error ? error.message : String(error)}).`)
    return
  }
  clearResults()
  summary.textContent = `${path}/${id}`
  results.append(
    renderEntityPage(entityPageModel(path, record), {
      jsonUrl,
      pageUrl: (link) => entityPageLink(new URL(location.href), link.path).href,
      runQuery: (oql) => {
        editor.setText(oql)
        void run(1)
      },
    }),
  )
}

// Many ids at once: a lookup or a snowball, in the results' place. One more run, as an entity's page is.
const batchIds = element<HTMLTextAreaElement>('batch-ids')
const batchEntity = element<HTMLSelectElement>('batch-entity')
const snowballDirection = element<HTMLSelectElement>('snowball-direction')
for (const entity of SERVED_ENTITY_TYPES) {
  const option = document.createElement('option')
  option.value = entityPath(entity)
  option.textContent = entityPath(entity)
  batchEntity.append(option)
}

const runBatch = async <Body>(
  most: number,
  what: string,
  call: (ids: readonly string[], signal: AbortSignal) => Promise<BatchOutcome<Body>>,
  show: (body: Body, clientMs: number) => void,
): Promise<void> => {
  running?.abort()
  // Nothing runs until this one starts: an aborted run must not write over what is said here.
  running = undefined
  const ids = idsOf(batchIds.value)
  const problem = idsProblem(ids, most, what)
  if (problem !== undefined) {
    clearResults()
    showProblem(problem)
    return
  }
  const controller = new AbortController()
  running = controller
  await runInResults(
    controller,
    () => call(ids, controller.signal),
    (outcome) => show(outcome.body, outcome.clientMs),
  )
}

const batchTable = (rows: readonly Record<string, unknown>[], columns: readonly string[], path: string) =>
  renderResultsTable({
    rows,
    columns,
    apiRoot: root,
    entityPath: path,
    entityPageUrl: (link) => entityPageLink(new URL(location.href), link).href,
    firstRowNumber: 1,
  })

element<HTMLButtonElement>('batch-lookup').addEventListener('click', () => {
  const path = batchEntity.value
  void runBatch(
    MAX_LOOKUP_IDS,
    'a lookup',
    (ids, signal) => lookUpIds(root, path, ids, signal),
    (body, clientMs) => {
      summary.textContent = lookupStatusText(body, clientMs)
      results.append(batchTable(lookupRows(body), LOOKUP_COLUMNS, path))
    },
  )
})
element<HTMLButtonElement>('batch-snowball').addEventListener('click', () => {
  const direction = snowballDirection.value as SnowballDirection
  void runBatch(
    MAX_SNOWBALL_SEEDS,
    'a snowball',
    (ids, signal) => snowballFrom(root, ids, direction, signal),
    (body, clientMs) => {
      summary.textContent = snowballStatusText(body, clientMs)
      results.append(batchTable(snowballRows(body), SNOWBALL_COLUMNS, 'works'))
    },
  )
})

forms.showNow(editor.text())
refreshLinks()
// The page opens with results: an entity's page, a shared link's query on the page it names, or the example.
if (initial.entity !== null) void showEntity(initial.entity)
else void run(initial.hasQuery ? initial.page : 1, initial.hasQuery)
