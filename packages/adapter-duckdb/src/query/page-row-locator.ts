// Page rows chosen by row number get their id and record location from a second, indexed lookup: the page
// statement then never reads the id text of the rows it passes over (compiled-query.ts, `RowLocator`).
import type { RowLocator } from '@oqlkit/catalog'
import type { DuckDbConnectionLike, DuckDbRow } from './duckdb-driver.ts'

/** `rows` with `__id`, `__ro`, `__rb` added (and the id sort key set to the id), in the same order. */
export async function locatePageRows(
  db: DuckDbConnectionLike,
  locator: RowLocator,
  rows: readonly DuckDbRow[],
): Promise<DuckDbRow[]> {
  if (rows.length === 0) return []
  const statement = locator.statementFor(rows.map((row) => Number(row.__row)))
  const locations = new Map(
    (await db.all(statement.sql, statement.params)).map((location) => [Number(location.__row), location]),
  )
  const idKey = locator.idKeyIndex === null ? null : `__k${locator.idKeyIndex}`
  return rows.map((row) => {
    const location = locations.get(Number(row.__row))
    if (location === undefined) throw new Error(`Row ${String(row.__row)} of the page has no location`)
    const located: Record<string, unknown> = {
      ...row,
      __id: location.__id,
      __ro: location.__ro,
      __rb: location.__rb,
    }
    if (idKey !== null) located[idKey] = location.__id
    return located
  })
}
