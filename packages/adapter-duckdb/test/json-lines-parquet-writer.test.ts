import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDuckDbDatabase, PARQUET_ROW_GROUP_ROWS, writeJsonLinesAsParquet } from '@oqlkit/adapter-duckdb'
import { RowShapes, type ShapedColumn } from '@oqlkit/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

let dir: string
let db: Awaited<ReturnType<typeof openDuckDbDatabase>>

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'oqlkit-parquet-writer-'))
  db = await openDuckDbDatabase({ connections: 1 })
})

afterAll(async () => {
  await db.close()
  rmSync(dir, { recursive: true, force: true })
})

/** `rows` as a JSON Lines file of the test folder, and the columns `RowShapes` learns from them. */
const jsonLines = (
  name: string,
  rows: readonly Record<string, unknown>[],
  hints: Record<string, ShapedColumn['shape']> = {},
) => {
  const source = join(dir, `${name}.jsonl`)
  writeFileSync(source, rows.map((row) => `${JSON.stringify(row)}\n`).join(''))
  const shapes = new RowShapes([], new Map(Object.entries(hints)))
  shapes.add(rows)
  return { source, target: join(dir, `${name}.parquet`), columns: shapes.columns() }
}

const typesOf = async (file: string) =>
  Object.fromEntries(
    (await db.all('DESCRIBE SELECT * FROM read_parquet(?)', [file])).map((column) => [
      column.column_name,
      column.column_type,
    ]),
  )

describe('writeJsonLinesAsParquet', () => {
  it('writes the declared columns, in order, with their types even where the first rows are null', async () => {
    // 3,000 rows whose year is null but for the last, past what a sampling reader would look at.
    const rows = Array.from({ length: 3000 }, (_, i) => ({
      id: `W${i}`,
      publication_year: i === 2999 ? 2020 : null,
      fwci: null,
      open_access: { is_oa: i % 2 === 0, oa_url: i % 2 === 0 ? `https://oa/${i}` : null },
      authorships: i % 3 === 0 ? [] : [{ author: { id: `A${i}` }, countries: ['FR'] }],
    }))
    const file = jsonLines('typed', rows, { publication_year: { kind: 'integer' }, fwci: { kind: 'float' } })
    await writeJsonLinesAsParquet(file.source, file.target, rows.length, { columns: file.columns })
    expect(await typesOf(file.target)).toEqual({
      id: 'VARCHAR',
      publication_year: 'BIGINT',
      fwci: 'DOUBLE',
      open_access: 'STRUCT(is_oa BOOLEAN, oa_url VARCHAR)',
      authorships: 'STRUCT(author STRUCT(id VARCHAR), countries VARCHAR[])[]',
    })
    const [summary] = await db.all(
      `SELECT count(*) AS n, max(publication_year) AS year, count(*) FILTER (open_access.is_oa) AS oa,
         sum(len(authorships)) AS authors FROM read_parquet(?)`,
      [file.target],
    )
    expect(summary).toEqual({ n: 3000, year: 2020, oa: 1500, authors: 2000 })
    // The rows stay in the file's order.
    const ids = await db.all('SELECT id FROM read_parquet(?) LIMIT 3 OFFSET 2047', [file.target])
    expect(ids.map((row) => row.id)).toEqual(['W2047', 'W2048', 'W2049'])
  })

  it('writes row groups of PARQUET_ROW_GROUP_ROWS rows, not one group of the whole file', async () => {
    const rows = Array.from({ length: PARQUET_ROW_GROUP_ROWS * 2 + 10 }, (_, i) => ({ id: `W${i}` }))
    const file = jsonLines('groups', rows)
    await writeJsonLinesAsParquet(file.source, file.target, rows.length, { columns: file.columns })
    const [groups] = await db.all('SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata(?)', [
      file.target,
    ])
    expect(groups?.n).toBe(3)
  })

  it('writes typed columns of an empty file, and infers the types when none are given', async () => {
    const empty = jsonLines('empty', [])
    await writeJsonLinesAsParquet(empty.source, empty.target, 0, {
      columns: [
        { name: 'id', shape: { kind: 'text' } },
        { name: 'publication_year', shape: { kind: 'integer' } },
      ],
    })
    expect(await typesOf(empty.target)).toEqual({ id: 'VARCHAR', publication_year: 'BIGINT' })
    const inferred = jsonLines('inferred', [{ id: 'W1', n: 1 }])
    await writeJsonLinesAsParquet(inferred.source, inferred.target, 1)
    expect(await typesOf(inferred.target)).toEqual({ id: 'VARCHAR', n: 'BIGINT' })
  })

  it('converts within its memory limit: one too small for the rows fails rather than taking more', async () => {
    const rows = Array.from({ length: 6000 }, (_, i) => ({ id: `W${i}`, text: `${i} `.repeat(300) }))
    const file = jsonLines('limited', rows)
    await expect(
      writeJsonLinesAsParquet(file.source, file.target, rows.length, {
        columns: file.columns,
        memoryLimit: '1MB',
      }),
    ).rejects.toThrow(/memory/i)
    await writeJsonLinesAsParquet(file.source, file.target, rows.length, { columns: file.columns })
    const [row] = await db.all('SELECT count(*) AS n FROM read_parquet(?)', [file.target])
    expect(row?.n).toBe(6000)
  })
})
