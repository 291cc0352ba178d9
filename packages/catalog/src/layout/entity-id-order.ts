// The id order of a catalog's rows (oqo-schema's `compareEntityIds`) in SQL. A letter id orders by its number,
// which every entity table holds as `id_num`, then by its text; the other ids by their text. Catalogs of
// format 7 and earlier are in the ids' text order throughout, their serving rows numbered so.
import { compareLetterIds } from '@oqlkit/oqo-schema/registry'
import type { CatalogEntityInfo } from './catalog-entities.ts'
import type { CatalogManifest } from './catalog-layout.ts'

/** How a catalog's files and serving rows order ids: letter ids `by-number` (format 8), or all `by-text`. */
export type CatalogIdOrder = 'by-number' | 'by-text'

/** The first catalog format in `by-number` order. */
const BY_NUMBER_SINCE = 8

export const catalogIdOrder = (manifest: Pick<CatalogManifest, 'formatVersion'>): CatalogIdOrder =>
  manifest.formatVersion >= BY_NUMBER_SINCE ? 'by-number' : 'by-text'

/** The column of an entity table holding the number of a letter id. */
export const ID_NUMBER_COLUMN = 'id_num'

/**
 * A letter id that is a plain number (`W123`: no leading zero, at most 18 digits), in the RE2 DuckDB reads.
 * When every id of an entity is one and all have the same letter, the numbers are as unique as the ids, and a
 * relation of ids may join the rows on the number (an integer, which a table's zone maps find) instead of the
 * id's text.
 */
export const PLAIN_LETTER_ID_PATTERN = '[A-Z][1-9][0-9]{0,17}'

/**
 * The columns, over `alias` (`e.` or empty), that an entity's rows order by in id order, first to last:
 * `id_num`, `id` for letter ids, `id` for the others (and for every id in `by-text` order).
 */
export const idOrderColumns = (
  info: CatalogEntityInfo,
  alias = '',
  order: CatalogIdOrder = 'by-number',
): readonly string[] =>
  info.idKind === 'letter' && order === 'by-number'
    ? [`${alias}"${ID_NUMBER_COLUMN}"`, `${alias}"id"`]
    : [`${alias}"id"`]

/** `ORDER BY` terms of id order (ascending; a letter id always has a number, so no NULLS clause matters). */
export const idOrderSql = (
  info: CatalogEntityInfo,
  alias = '',
  order: CatalogIdOrder = 'by-number',
): string => idOrderColumns(info, alias, order).join(', ')

const compareText = (left: string, right: string): number => (left === right ? 0 : left < right ? -1 : 1)

/** How two letter ids of one entity compare in a catalog of `order` (negative when `left` comes first). */
export const letterIdComparator = (order: CatalogIdOrder): ((left: string, right: string) => number) =>
  order === 'by-number' ? compareLetterIds : compareText

/**
 * SQL `ORDER BY` terms of id order over a letter id `expr` alone, for relations without `id_num` (its
 * number computed as ingest computes the column).
 */
export const letterIdOrderSql = (expr: string, order: CatalogIdOrder = 'by-number'): string =>
  order === 'by-number' ? `CAST(${expr}[2:] AS BIGINT), ${expr}` : expr
