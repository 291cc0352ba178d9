// The record-path columns the column map reads, collected per entity while the map is built (ingest writes
// exactly those: `recordPathColumnsOf`), then closed so a path outside them fails loudly.
import type { CatalogEntity } from '../layout/catalog-entities.ts'
import {
  type RecordPathColumn,
  type RecordPathForm,
  recordPathColumn,
} from '../layout/record-path-columns.ts'
import { jsonPathLiteral, quoteIdentifier } from '../sql/sql-text.ts'

/**
 * The record-path columns of one entity the column sources read. While this module loads, every source of
 * every registry column is built once and each path it reads is collected (`recordPathColumnsOf` is what
 * ingest writes); after that a path outside the collection fails loudly rather than naming a column the
 * catalog does not have.
 */
export class RecordPaths {
  readonly #columns = new Map<string, RecordPathColumn>()
  #open = true

  constructor(
    readonly entity: CatalogEntity,
    readonly quote: (name: string) => string = quoteIdentifier,
  ) {}

  #use(path: string, form: RecordPathForm): string {
    jsonPathLiteral(path)
    const column = recordPathColumn(path, form)
    const known = this.#columns.get(column.name)
    if (known === undefined) {
      if (!this.#open)
        throw new Error(`The catalog has no record-path column for ${this.entity} ${path} (${form})`)
      this.#columns.set(column.name, column)
    } else if (known.path !== path || known.form !== form)
      throw new Error(
        `${this.entity}: ${path} (${form}) and ${known.path} (${known.form}) share ${column.name}`,
      )
    return this.quote(column.name)
  }

  /** The value at a path without wildcards, as `json_extract_string` gives it (VARCHAR). */
  text(path: string): string {
    return this.#use(path, 'text')
  }

  /** The values at a wildcard path (`VARCHAR[]` without nulls; empty when there are none). */
  list(path: string): string {
    return this.#use(path, 'list')
  }

  /** How many values a wildcard path has (`len(json_extract(record, path))`). */
  count(path: string): string {
    return this.#use(path, 'count')
  }

  /** The versions of the open-access elements of a wildcard path (`locations`). */
  oaVersions(path: string): string {
    return this.#use(path, 'oa-versions')
  }

  close(): readonly RecordPathColumn[] {
    this.#open = false
    return [...this.#columns.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }
}
