// The one DuckDB factory: every instance is offline whatever the caller asks, and a caller's settings reach
// DuckDB under their own names; OQLKIT_DUCKDB_THREADS sets the threads a caller leaves unnamed.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, describe, expect, it } from 'vitest'
import { createDuckDbInstance, DUCKDB_THREADS_VARIABLE } from '../src/query/duckdb-instance-factory.ts'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-duckdb-factory-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

async function settingsOf(
  instance: DuckDBInstance,
  names: readonly string[],
): Promise<Record<string, string>> {
  const connection = await instance.connect()
  try {
    const reader = await connection.runAndReadAll(
      `SELECT ${names.map((name) => `current_setting('${name}')::VARCHAR AS "${name}"`).join(', ')}`,
    )
    return reader.getRowObjectsJson()[0] as Record<string, string>
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

describe('createDuckDbInstance', () => {
  it('creates an in-memory DuckDB that neither installs nor loads extensions by itself', async () => {
    expect(
      await settingsOf(await createDuckDbInstance(), [
        'autoinstall_known_extensions',
        'autoload_known_extensions',
      ]),
    ).toEqual({ autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' })
  })

  it("passes the caller's threads, memory limit, spill folder, insertion order and settings", async () => {
    const tempDirectory = join(scratch, 'spill')
    const settings = await settingsOf(
      await createDuckDbInstance(':memory:', {
        threads: 3,
        memoryLimit: '300MB',
        tempDirectory,
        preserveInsertionOrder: false,
        settings: { disabled_optimizers: 'late_materialization' },
      }),
      ['threads', 'memory_limit', 'temp_directory', 'preserve_insertion_order', 'disabled_optimizers'],
    )
    expect(settings).toEqual({
      threads: '3',
      memory_limit: expect.stringMatching(/^286\.\d MiB$/),
      temp_directory: tempDirectory,
      preserve_insertion_order: 'false',
      disabled_optimizers: 'late_materialization',
    })
  })

  it('keeps the offline settings over a caller setting that would turn them back on', async () => {
    const settings = await settingsOf(
      await createDuckDbInstance(':memory:', { settings: { autoload_known_extensions: 'true' } }),
      ['autoload_known_extensions'],
    )
    expect(settings).toEqual({ autoload_known_extensions: 'false' })
  })

  it('takes the threads of OQLKIT_DUCKDB_THREADS when the caller names none, and refuses a bad value', async () => {
    // The suite sets the variable for every file (vitest.config.ts): put back whatever it was.
    const before = process.env[DUCKDB_THREADS_VARIABLE]
    try {
      process.env[DUCKDB_THREADS_VARIABLE] = '3'
      expect(await settingsOf(await createDuckDbInstance(), ['threads'])).toEqual({ threads: '3' })
      expect(await settingsOf(await createDuckDbInstance(':memory:', { threads: 2 }), ['threads'])).toEqual({
        threads: '2',
      })
      for (const bad of ['0', '-1', '1.5', 'two']) {
        process.env[DUCKDB_THREADS_VARIABLE] = bad
        await expect(createDuckDbInstance()).rejects.toThrow(
          `OQLKIT_DUCKDB_THREADS must be a positive whole number of threads, such as 2; it is '${bad}'`,
        )
        // A caller that names its threads does not read the variable.
        expect(await settingsOf(await createDuckDbInstance(':memory:', { threads: 1 }), ['threads'])).toEqual(
          {
            threads: '1',
          },
        )
      }
      delete process.env[DUCKDB_THREADS_VARIABLE]
      const cores = await settingsOf(await createDuckDbInstance(), ['threads'])
      expect(Number(cores.threads)).toBeGreaterThanOrEqual(1)
    } finally {
      if (before === undefined) delete process.env[DUCKDB_THREADS_VARIABLE]
      else process.env[DUCKDB_THREADS_VARIABLE] = before
    }
  })

  it('opens a database file when given its path', async () => {
    const path = join(scratch, 'file.duckdb')
    const first = await createDuckDbInstance(path)
    const writer = await first.connect()
    await writer.run('CREATE TABLE kept AS SELECT 42 AS answer')
    writer.closeSync()
    first.closeSync()
    const second = await createDuckDbInstance(path)
    const reader = await second.connect()
    try {
      expect((await reader.runAndReadAll('SELECT answer FROM kept')).getRowObjectsJson()).toEqual([
        { answer: 42 },
      ])
    } finally {
      reader.closeSync()
      second.closeSync()
    }
  })
})
