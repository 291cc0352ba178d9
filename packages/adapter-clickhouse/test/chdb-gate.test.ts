// The ClickHouse tests' gate: without chdb they skip and say why, unless CI requires them.
import { describe, expect, it, vi } from 'vitest'
import { chdbForTests, loadChdb } from './support/chdb-availability.ts'

describe('the chdb gate of the ClickHouse tests', () => {
  it('runs them where chdb resolves', () => {
    expect(chdbForTests({}, '/somewhere/node_modules/chdb/index.js')).toEqual({ available: true })
  })

  it('skips them without chdb and says how to add it', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const gate = chdbForTests({}, null)
    expect(gate).toEqual({ available: false, reason: expect.stringContaining('npm run install:chdb') })
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^Skipping a file of ClickHouse tests: chdb is not installed/),
    )
  })

  it('fails instead when OQLKIT_REQUIRE_CHDB=1, as .ci/run sets it', () => {
    for (const value of ['1', 'true'])
      expect(() => chdbForTests({ OQLKIT_REQUIRE_CHDB: value }, null)).toThrow(
        /chdb is required \(OQLKIT_REQUIRE_CHDB=1\) but chdb is not installed/,
      )
  })

  it('loads chdb where it is installed, or names the command that installs it', async () => {
    if (chdbForTests({}).available) {
      const chdb = await loadChdb()
      expect(typeof chdb.Session).toBe('function')
      expect(typeof chdb.drainPending).toBe('function')
    } else await expect(loadChdb()).rejects.toThrow(/npm run install:chdb/)
  })
})
