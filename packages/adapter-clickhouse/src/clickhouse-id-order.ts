// Id order in ClickHouse, as the catalog defines it (`entity-id-order.ts`): a letter id by its number, then its
// text. For tables and files that hold only the id (vectors, autocomplete, links' `work_id`); entity tables
// have the number as `id_num`.

/** The number of a stored letter id `expr` (`W123` gives 123). */
export const letterIdNumberSql = (expr: string): string => `toInt64OrZero(substring(${expr}, 2))`

/** `ORDER BY` terms of id order over a letter id `expr`. */
export const letterIdOrderSql = (expr: string): string => `${letterIdNumberSql(expr)}, ${expr}`
