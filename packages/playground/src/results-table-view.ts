// The first page of a list query as a table: one row per entity, its id a link to the entity's page in the
// playground (entity-page-view.ts), nested values shown by name (value-summary-format.ts).
import { normalizeSelect } from './playground-link-state.ts'
import { shortId, summarizeValue } from './value-summary-format.ts'

// Without a select, the fields a person looks at first, as far as the entity has them.
const DEFAULT_COLUMNS = [
  'id',
  'display_name',
  'publication_year',
  'type',
  'authorships',
  'works_count',
  'cited_by_count',
  'country_code',
  'primary_topic',
]
const MAX_DEFAULT_COLUMNS = 6

/** The columns a page shows: the selected ones in their order, else the default ones its rows have. */
export const columnsOf = (rows: readonly Record<string, unknown>[], select: string): string[] => {
  const selected = normalizeSelect(select)
  if (selected !== '') return selected.split(',')
  const present = new Set(rows.flatMap((row) => Object.keys(row)))
  const columns = DEFAULT_COLUMNS.filter((column) => present.has(column)).slice(0, MAX_DEFAULT_COLUMNS)
  return columns.length > 0 ? columns : [...present].slice(0, MAX_DEFAULT_COLUMNS)
}

/** The singleton of an entity beside the page: `<apiRoot>works/W123`. */
export const singletonUrl = (apiRoot: URL, entityPath: string, id: string): URL =>
  new URL(`${entityPath}/${encodeURIComponent(shortId(id))}`, apiRoot)

export interface ResultsTableInput {
  readonly rows: readonly Record<string, unknown>[]
  readonly columns: readonly string[]
  readonly apiRoot: URL
  /** The entity's path segment (`works`, `work-types`, …) for the singleton links. */
  readonly entityPath: string
  /** The page of an entity (`works/W123`) the id links to. */
  readonly entityPageUrl: (entity: string) => string
  /** Said by the table's caption (the first row's number, for paging). */
  readonly firstRowNumber: number
}

const cellOf = (input: ResultsTableInput, column: string, value: unknown): HTMLTableCellElement => {
  const cell = document.createElement('td')
  if (column === 'id' && typeof value === 'string') {
    const link = document.createElement('a')
    link.href = input.entityPageUrl(`${input.entityPath}/${shortId(value)}`)
    link.textContent = shortId(value)
    link.title = `The page of ${value}`
    cell.append(link)
    return cell
  }
  const text = summarizeValue(value)
  cell.textContent = text
  if (typeof value === 'number') cell.classList.add('number')
  // A title or a list of names gets room to read on a line or two instead of a word per line.
  else if (text.length > 40) cell.classList.add('long')
  // The full value is a hover away when the cell shows only its beginning.
  if (typeof value === 'object' && value !== null) cell.title = JSON.stringify(value).slice(0, 2000)
  return cell
}

export const renderResultsTable = (input: ResultsTableInput): HTMLTableElement => {
  const table = document.createElement('table')
  table.className = 'results-table'
  const caption = table.createCaption()
  const last = input.firstRowNumber + input.rows.length - 1
  caption.textContent =
    input.rows.length === 0
      ? 'No rows on this page.'
      : `${input.entityPath}, rows ${input.firstRowNumber.toLocaleString('en-US')}–${last.toLocaleString('en-US')}`
  const head = table.createTHead().insertRow()
  for (const column of input.columns) {
    const th = document.createElement('th')
    th.scope = 'col'
    // A long field name may break after its underscores (publication_/year), not mid-word.
    column.split('_').forEach((part, index) => {
      if (index > 0) th.append('_', document.createElement('wbr'))
      th.append(part)
    })
    head.append(th)
  }
  const body = table.createTBody()
  for (const row of input.rows) {
    const tr = body.insertRow()
    for (const column of input.columns) tr.append(cellOf(input, column, row[column]))
  }
  return table
}
