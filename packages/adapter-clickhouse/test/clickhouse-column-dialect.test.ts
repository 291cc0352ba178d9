// The column map in ClickHouse's SQL: every source of every registry column of every entity is run on
// ClickHouse itself (chdb behind the test stand-in for its HTTP interface) over the loaded sample catalog,
// and the dialect's functions give the values DuckDB's give.
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import { type ColumnSource, catalogEntityInfo, createColumnMap } from '@oqlkit/catalog'
import {
  type Column,
  ENTITY_TYPES,
  type EntityType,
  entityPath,
  propertiesRegistry,
} from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLICKHOUSE_COLUMN_DIALECT as CH } from '../src/clickhouse-column-dialect.ts'
import { entityTableName } from '../src/clickhouse-schema.ts'
import { chdbInstalled } from './support/chdb-availability.ts'
import { sharedClickHouseSample } from './support/shared-clickhouse-sample.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

let client: ClickHouseClient
let database: string

beforeAll(async () => {
  const sample = await sharedClickHouseSample()
  client = createClient({
    url: sample.url,
    clickhouse_settings: { output_format_json_quote_64bit_integers: 1 },
  })
  database = sample.database
}, 240_000)
afterAll(async () => {
  await client?.close()
})

const evaluate = async (expression: string): Promise<unknown> => {
  const result = await client.query({ query: `SELECT ${expression} AS v`, format: 'JSONEachRow' })
  return ((await result.json()) as [{ v: unknown }])[0].v
}

/** The SQL expressions a source can put in a statement, each over one row of its entity table. */
const expressionsOf = (source: ColumnSource): string[] => {
  switch (source.kind) {
    case 'scalar':
      return [source.expr, source.groupExpr, source.codec.stored(source.expr)]
    case 'list':
      return [
        source.expr,
        `arrayMap(x -> ${source.element('x')}, ${source.expr})`,
        `arrayMap(x -> ${source.groupElement('x')}, ${source.expr})`,
        `arrayMap(x -> ${source.codec.stored('x')}, ${source.expr})`,
      ]
    case 'external-id':
    case 'prefix':
      return expressionsOf(source.scalar)
    case 'choice':
      return [...source.choices.values(), ...expressionsOf(source.scalar)]
    case 'related-to':
      return expressionsOf(source.list)
    default:
      return [] // link tables and unsupported columns hold no expression of the entity table
  }
}

interface RegistryColumnSource {
  readonly type: EntityType
  readonly column: Column
  readonly table: string
  readonly source: ColumnSource
}

/** Every registry column of every entity with a table, with its table and its source in the column map. */
const registryColumnSources = function* (): Generator<RegistryColumnSource> {
  const map = createColumnMap(CH)
  for (const type of ENTITY_TYPES) {
    const info = catalogEntityInfo(entityPath(type))
    if (info === undefined) continue
    const table = `\`${database}\`.\`${entityTableName(info.entity)}\``
    for (const column of propertiesRegistry.columnsOf(type)) {
      if (column.kind === null) continue
      const source = map.columnSourceOf(info.entity, { id: column.id, kind: column.kind })
      yield { type, column, table, source }
    }
  }
}

/**
 * Runs each statement of a table's `pieces` as few statements as it can: up to `BATCH` pieces in one (chdb
 * costs some 8 ms a statement, and the registry has some 1,500 expressions), and, where a batch fails, each
 * of its pieces alone, so that a failure names the column it belongs to.
 */
const BATCH = 60
async function runBatched<T>(
  pieces: readonly T[],
  statement: (batch: readonly T[]) => string,
  failed: (piece: T, error: Error) => void,
): Promise<void> {
  const run = async (query: string) => (await client.query({ query, format: 'JSONEachRow' })).json()
  for (let at = 0; at < pieces.length; at += BATCH) {
    const batch = pieces.slice(at, at + BATCH)
    try {
      await run(statement(batch))
    } catch {
      for (const piece of batch)
        await run(statement([piece])).catch((error: unknown) => failed(piece, error as Error))
    }
  }
}

/** The registry's column sources grouped by their entity table. */
const sourcesByTable = () => {
  const byTable = new Map<string, RegistryColumnSource[]>()
  for (const entry of registryColumnSources())
    byTable.set(entry.table, [...(byTable.get(entry.table) ?? []), entry])
  return byTable
}

onChdb('the column map in ClickHouse SQL (chdb behind the test stand-in for its HTTP interface)', () => {
  it("runs every registry column's SQL on the loaded catalog", async () => {
    const failures: string[] = []
    let ran = 0
    for (const [table, entries] of sourcesByTable()) {
      const pieces = entries.flatMap(({ type, column, source }) =>
        expressionsOf(source).map((expression) => ({ label: `${type}.${column.id}`, expression })),
      )
      ran += pieces.length
      await runBatched(
        pieces,
        (batch) =>
          `SELECT ${batch.map(({ expression }, at) => `${expression} AS e${at}`).join(', ')} FROM ${table} LIMIT 3`,
        ({ label, expression }, error) =>
          failures.push(`${label}: ${expression.slice(0, 120)}: ${error.message.slice(0, 200)}`),
      )
    }
    expect(failures).toEqual([])
    expect(ran).toBeGreaterThan(500)
  }, 240_000)

  it('groups and orders by every scalar column, booleans as Bool (no Variant, no UInt8)', async () => {
    // ClickHouse gives an expression whose branches differ in type (`coalesce` of a Float64 and an Int64) a
    // Variant, which it refuses to group or order by; and a predicate a UInt8, which groups as 0 and 1.
    const failures: string[] = []
    let ran = 0
    for (const [table, entries] of sourcesByTable()) {
      const pieces = entries.flatMap(({ type, column, source: registered }) => {
        let source = registered
        if (source.kind === 'external-id' || source.kind === 'prefix' || source.kind === 'choice')
          source = source.scalar
        return source.kind === 'scalar' ? [{ label: `${type}.${column.id}`, column, source }] : []
      })
      ran += pieces.length
      // Each column grouped (its group's type read) and ordered by, one branch of a UNION ALL each.
      await runBatched(
        pieces,
        (batch) =>
          batch
            .map(
              ({ label, source }) =>
                `(SELECT ${CH.constant(label)} AS label, toTypeName(k) AS type FROM (SELECT ${source.groupExpr} AS k, ${source.expr} AS s FROM ${table}) GROUP BY k ORDER BY k, any(s) LIMIT 1)` +
                ` UNION ALL (SELECT ${CH.constant(label)}, '' FROM ${table} ORDER BY ${source.expr} DESC LIMIT 1)`,
            )
            .join(' UNION ALL '),
        ({ label }, error) => failures.push(`${label}: ${error.message.slice(0, 200)}`),
      )
      // The types of the groups, one statement for the table: a boolean must group as a Bool.
      const booleans = pieces.filter(({ column }) => column.kind === 'boolean')
      if (booleans.length === 0) continue
      const [types] = (await (
        await client.query({
          query: `SELECT ${booleans.map(({ source }, at) => `toTypeName(${source.groupExpr}) AS t${at}`).join(', ')} FROM ${table} LIMIT 1`,
          format: 'JSONEachRow',
        })
      ).json()) as Record<string, string>[]
      if (types === undefined) continue // an empty table: nothing grouped
      // A boolean derived from a LowCardinality text column (the loader makes a column of few values one)
      // is LowCardinality too: still a Bool, written true/false.
      for (const [at, { label }] of booleans.entries()) {
        const type = types?.[`t${at}`] ?? ''
        if (!/^(LowCardinality\()?(Nullable\()?Bool\)?\)?$/.test(type))
          failures.push(`${label}: a boolean grouped as ${type}`)
      }
    }
    expect(failures).toEqual([])
    expect(ran).toBeGreaterThan(300)
  }, 240_000)

  it("gives the values DuckDB's dialect gives", async () => {
    const text = (value: string) => CH.constant(value)
    expect(await evaluate(CH.idTail(text(' https://openalex.org/works/W1/ ')))).toBe('W1')
    expect(await evaluate(CH.idTail(text('https://openalex.org/keywords/deep%20learning')))).toBe(
      'deep learning',
    )
    expect(await evaluate(CH.letterIdGroup(text('https://openalex.org/w12')))).toBe('W12')
    expect(await evaluate(CH.letterIdGroup(text('https://openalex.org/types/article')))).toBe(
      'https://openalex.org/types/article',
    )
    expect(await evaluate(CH.tryNumber(text('4.5')))).toBe(4.5)
    expect(await evaluate(CH.tryNumber(text('n/a')))).toBeNull()
    expect(await evaluate(CH.tryDate(text('2020-05-01T10:00:00')))).toBe('2020-05-01')
    expect(await evaluate(CH.tryDate(text('2020-05-01')))).toBe('2020-05-01')
    expect(await evaluate(CH.tryDate(text('someday')))).toBeNull()
    expect(await evaluate(CH.tryBoolean(text('true')))).toBe(true)
    expect(await evaluate(CH.tryBoolean(text('false')))).toBe(false)
    expect(await evaluate(CH.tryBoolean(text('maybe')))).toBeNull()
    expect(
      await evaluate(CH.externalIdKey(text(' https://doi.org/10.1/AB/ '), '^https?://(dx\\.)?doi\\.org/')),
    ).toBe('10.1/ab')
    expect(await evaluate(CH.anyOf("['a', 'b']", ['b', 'c']))).toBe(true)
    expect(await evaluate(CH.anyUpperOf("['us', 'fr']", ['US']))).toBe(true)
    expect(await evaluate(CH.distinctMapped("['a', 'b', 'a', 'c']", (x) => `nullIf(${x}, 'c')`))).toEqual([
      'a',
      'b',
    ])
    expect(await evaluate(CH.regexpExtract(text('x?authorID=123&y'), 'authorID=([0-9]+)'))).toBe('123')
    expect(await evaluate(CH.constant("it's a \\ back'slash"))).toBe("it's a \\ back'slash")
    expect(await evaluate(CH.datePlaceholder.replace('?', text('2021-02-03T04:05:06Z')))).toBe('2021-02-03')
  })
})
