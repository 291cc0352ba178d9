// SQL over a country code for the continent and Global South columns (catalog/country-geography.ts). The
// country lists are constants of this package, written into the statement as literals: no user value ever
// goes through here.
import { COUNTRIES_BY_CONTINENT, GLOBAL_SOUTH_COUNTRIES } from '../catalog/country-geography.ts'
import { constantLiteral } from '../sql/sql-text.ts'

const inList = (codes: readonly string[]): string => codes.map(constantLiteral).join(', ')

/** SQL: the continent id (`Q46`) of the country code `code`, or NULL. */
export const continentOfSql = (code: string): string =>
  `CASE ${Object.entries(COUNTRIES_BY_CONTINENT)
    .map(
      ([continent, codes]) => `WHEN upper(${code}) IN (${inList(codes)}) THEN ${constantLiteral(continent)}`,
    )
    .join(' ')} END`

/** SQL: whether the country code `code` is in the Global South (NULL for a NULL code). */
export const isGlobalSouthSql = (code: string): string =>
  `upper(${code}) IN (${inList(GLOBAL_SOUTH_COUNTRIES)})`

/** SQL: whether any code of the list `codes` is in the Global South. */
export const anyGlobalSouthSql = (codes: string): string =>
  `list_has_any(list_transform(${codes}, lambda __c: upper(__c)), [${inList(GLOBAL_SOUTH_COUNTRIES)}])`

/** SQL: the full id of a continent id (`https://openalex.org/continents/Q46`), the form group keys take. */
export const continentUrlSql = (continent: string): string =>
  `'https://openalex.org/continents/' || ${continent}`
