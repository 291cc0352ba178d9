// SQL over a country code for the continent and Global South columns (catalog/country-geography.ts). The
// country lists are constants of this package, written into the statement as literals: no user value ever
// goes through here.
import { COUNTRIES_BY_CONTINENT, GLOBAL_SOUTH_COUNTRIES } from '../layout/country-geography.ts'
import type { ColumnDialect } from './column-dialect.ts'

const inList = (dialect: ColumnDialect, codes: readonly string[]): string =>
  codes.map(dialect.constant).join(', ')

/** SQL: the continent id (`Q46`) of the country code `code`, or NULL. */
export const continentOfSql = (dialect: ColumnDialect, code: string): string =>
  `CASE ${Object.entries(COUNTRIES_BY_CONTINENT)
    .map(
      ([continent, codes]) =>
        `WHEN upper(${code}) IN (${inList(dialect, codes)}) THEN ${dialect.constant(continent)}`,
    )
    .join(' ')} END`

/** SQL: whether the country code `code` is in the Global South (NULL for a NULL code). */
export const isGlobalSouthSql = (dialect: ColumnDialect, code: string): string =>
  `upper(${code}) IN (${inList(dialect, GLOBAL_SOUTH_COUNTRIES)})`

/** SQL: whether any code of the list `codes` is in the Global South. */
export const anyGlobalSouthSql = (dialect: ColumnDialect, codes: string): string =>
  dialect.anyUpperOf(codes, GLOBAL_SOUTH_COUNTRIES)

/** SQL: the full id of a continent id (`https://openalex.org/continents/Q46`), the form group keys take. */
export const continentUrlSql = (dialect: ColumnDialect, continent: string): string =>
  dialect.concat(dialect.constant('https://openalex.org/continents/'), continent)
