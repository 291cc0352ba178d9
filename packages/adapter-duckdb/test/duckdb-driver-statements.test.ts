// The driver keeps each connection's prepared SELECTs and reads results on the main thread: a statement run
// again answers for its new values, for tables changed since, and past the number it keeps; one that reads
// state when bound (an unseeded sample, a setting) is prepared on every run; results of several chunks come
// back whole, with values made plain. Real DuckDB, one connection, so that every run meets the kept statement.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DuckDbConnectionLike, openDuckDbDatabase } from '../src/query/duckdb-driver.ts'

let db: DuckDbConnectionLike
beforeAll(async () => {
  db = await openDuckDbDatabase({ threads: 1, connections: 1 })
  await db.all('CREATE TABLE numbers AS SELECT range AS n, range % 3 AS r FROM range(10)')
})
afterAll(async () => {
  await db.close()
})

describe('the DuckDB driver running a statement again', () => {
  it('answers for the values of each run, whatever their types', async () => {
    const byRest = 'SELECT list(n ORDER BY n) AS ns FROM numbers WHERE r = ?'
    expect(await db.all(byRest, [1])).toEqual([{ ns: [1, 4, 7] }])
    expect(await db.all(byRest, [2])).toEqual([{ ns: [2, 5, 8] }])
    expect(await db.all(byRest, [0])).toEqual([{ ns: [0, 3, 6, 9] }])
    const echo = 'SELECT ? AS v'
    expect(await db.all(echo, [7])).toEqual([{ v: 7 }])
    expect(await db.all(echo, ['seven'])).toEqual([{ v: 'seven' }])
    expect(await db.all(echo, [7.5])).toEqual([{ v: 7.5 }])
    expect(await db.all(echo, [true])).toEqual([{ v: true }])
  })

  it('reads a table as it is now, after it was replaced with other rows and types', async () => {
    await db.all('CREATE TABLE changing AS SELECT 1 AS v')
    const read = 'SELECT v FROM changing WHERE v IS NOT NULL'
    expect(await db.all(read)).toEqual([{ v: 1 }])
    await db.all('INSERT INTO changing VALUES (2)')
    expect(await db.all(read)).toEqual([{ v: 1 }, { v: 2 }])
    await db.all('DROP TABLE changing')
    await db.all("CREATE TABLE changing AS SELECT 'text' AS v")
    expect(await db.all(read)).toEqual([{ v: 'text' }])
  })

  it('draws an unseeded sample and reads a setting anew on every run', async () => {
    const drawn = new Set<unknown>()
    for (let run = 0; run < 40; run++)
      drawn.add((await db.all('SELECT n FROM numbers USING SAMPLE reservoir(1 ROWS)'))[0]?.n)
    expect(drawn.size).toBeGreaterThan(1)
    const setting = "SELECT current_setting('threads') AS threads"
    expect(await db.all(setting)).toEqual([{ threads: 1 }])
    await db.all('SET threads = 2')
    try {
      expect(await db.all(setting)).toEqual([{ threads: 2 }])
    } finally {
      await db.all('SET threads = 1')
    }
  })

  it('answers statements it no longer keeps, and one that failed, once its values are good', async () => {
    const statements = Array.from(
      { length: 100 },
      (_, index) => `SELECT n + ${index} AS m FROM numbers WHERE n = ?`,
    )
    for (const [index, statement] of statements.entries())
      expect(await db.all(statement, [index % 10])).toEqual([{ m: (index % 10) + index }])
    for (const [index, statement] of statements.entries())
      expect(await db.all(statement, [(index + 1) % 10])).toEqual([{ m: ((index + 1) % 10) + index }])
    const failing = "SELECT CASE WHEN ? THEN CAST(error('refused') AS INTEGER) ELSE 1 END AS ok"
    await expect(db.all(failing, [true])).rejects.toThrow('refused')
    expect(await db.all(failing, [false])).toEqual([{ ok: 1 }])
    await expect(db.all(failing, [true])).rejects.toThrow('refused')
  })
})

describe('the DuckDB driver reading a result', () => {
  it('returns every row of a result of several chunks, in order', async () => {
    const rows = await db.all('SELECT range AS n FROM range(?) ORDER BY n', [5000])
    expect(rows.length).toBe(5000)
    expect(rows.every((row, index) => row.n === index)).toBe(true)
  })

  it('makes values plain: big integers as numbers, dates as ISO text, nested values alike', async () => {
    const [row] = await db.all(
      "SELECT CAST(? AS BIGINT) AS big, DATE '2024-02-29' AS day, [CAST(1 AS HUGEINT), 2] AS list, {'at': TIMESTAMP '2024-01-02 03:04:05', 'n': CAST(3 AS UBIGINT)} AS struct, NULL AS nothing, 1 AS twice, 2 AS twice",
      [9_007_199_254_740_991],
    )
    expect(row).toEqual({
      big: 9_007_199_254_740_991,
      day: '2024-02-29T00:00:00.000Z',
      list: [1, 2],
      struct: { at: '2024-01-02T03:04:05.000Z', n: 3 },
      nothing: null,
      twice: 1,
      'twice:1': 2,
    })
  })
})
