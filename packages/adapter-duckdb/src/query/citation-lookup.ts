// `findCitations` over the serving database's narrow tables: the narrow copy of the referenced-works link table
// (`key`: the cited work's number, `work_row`: the citing work's row of `works__narrow`) joined to the works it
// names. A snowball's steps read the citations alone, so a step of thousands of works reads no record; the works
// a catalog holds among many ids are found by the narrow works table alone (`findHeldWorks`).
import { ID_NUMBER_COLUMN, narrowLinkTableOf, quoteIdentifier } from '@oqlkit/catalog'
import type { Citation, CitationDirection, CitationsResult } from '@oqlkit/engine'
import { narrowEntityTable } from './catalog-views.ts'
import type { DuckDbConnectionLike } from './duckdb-driver.ts'

const LINK = quoteIdentifier(narrowLinkTableOf('works-referenced-works'))
const WORKS = narrowEntityTable('works')
const NUMBER = quoteIdentifier(ID_NUMBER_COLUMN)
/** The works' numbers, one JSON list parameter (a list of any length is one value, not thousands of `?`). */
const NUMBERS_SQL = `SELECT unnest(from_json(?, '["UBIGINT"]'))`

/**
 * The numbers of the work ids among `ids` (`W123` in any case) as a JSON list; other ids name no work. Written
 * from the digits themselves (no leading zeros, which JSON refuses): a JavaScript number would round ids past
 * 2^53.
 */
const workNumbersOf = (ids: readonly string[]): string =>
  `[${ids.flatMap((id) => (/^[Ww][0-9]{1,18}$/.test(id) ? [id.slice(1).replace(/^0+(?=\d)/, '')] : [])).join(',')}]`

/**
 * The citations between held works made by (`cited`), to (`citing`) or both by and to (`between`) the given
 * works. `rowNumber` is the SQL of the narrow works table's row number, which the link table's `work_row` names.
 */
export async function findCitations(
  db: DuckDbConnectionLike,
  rowNumber: string,
  ids: readonly string[],
  direction: CitationDirection,
): Promise<CitationsResult> {
  const numbers = workNumbersOf(ids)
  if (numbers === '[]') return { citations: [], citedNotHeld: [] }
  if (direction === 'between') {
    // The given works' keys found by the link table's zone maps, kept where the citing row is one of theirs.
    const rows = await db.all(
      `WITH given AS (SELECT ${rowNumber} AS work_row, "id", ${NUMBER} AS number FROM ${WORKS} WHERE ${NUMBER} IN (${NUMBERS_SQL}))
       SELECT DISTINCT citing."id" AS citing, cited."id" AS cited
       FROM ${LINK} AS l
       JOIN given AS citing ON citing.work_row = l.work_row
       JOIN given AS cited ON cited.number = l.key
       WHERE l.key IN (SELECT number FROM given)`,
      [numbers],
    )
    return { citations: rows.map(citationOf), citedNotHeld: [] }
  }
  if (direction === 'citing') {
    // The link table is sorted by key: the cited works' keys are found by its zone maps, and the few rows they
    // keep are joined to the works after (a join first would hash every work).
    const rows = await db.all(
      `WITH cites AS (SELECT work_row, key FROM ${LINK} WHERE key IN (${NUMBERS_SQL}))
       SELECT DISTINCT w."id" AS citing, c."id" AS cited
       FROM cites
       JOIN ${WORKS} AS w ON w.${rowNumber} = cites.work_row
       JOIN ${WORKS} AS c ON c.${NUMBER} = cites.key`,
      [numbers],
    )
    return { citations: rows.map(citationOf), citedNotHeld: [] }
  }
  // The citing works' rows are a scan of the link table's `work_row` (it is sorted by key); a cited work the
  // catalog does not hold has no row to join, and is counted.
  const rows = await db.all(
    `WITH given AS (SELECT ${rowNumber} AS work_row, "id" FROM ${WORKS} WHERE ${NUMBER} IN (${NUMBERS_SQL})),
     cites AS (SELECT given."id" AS citing, l.key FROM ${LINK} AS l JOIN given ON given.work_row = l.work_row)
     SELECT DISTINCT cites.citing, c."id" AS cited, cites.key AS key
     FROM cites LEFT JOIN ${WORKS} AS c ON c.${NUMBER} = cites.key`,
    [numbers],
  )
  const held = rows.filter((row) => row.cited !== null)
  return {
    citations: held.map(citationOf),
    citedNotHeld: [...new Set(rows.filter((row) => row.cited === null).map((row) => `W${String(row.key)}`))],
  }
}

const citationOf = (row: Record<string, unknown>): Citation => ({
  citing: String(row.citing),
  cited: String(row.cited),
})

/** The work ids among `ids` that the catalog holds (`findHeldWorks`): the narrow works table's zone maps, no record. */
export async function findHeldWorks(db: DuckDbConnectionLike, ids: readonly string[]): Promise<string[]> {
  const numbers = workNumbersOf(ids)
  if (numbers === '[]') return []
  const rows = await db.all(`SELECT "id" FROM ${WORKS} WHERE ${NUMBER} IN (${NUMBERS_SQL})`, [numbers])
  return rows.map((row) => String(row.id))
}
