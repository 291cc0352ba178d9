import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { keyRecordOf } from '@oqlkit/engine'
import { describeKeyStoreConformance } from '@oqlkit/engine/testing'
import { openFileKeyStore } from '@oqlkit/file-stores'
import { afterAll, describe, expect, it } from 'vitest'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-embedded-keys-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0

// Two stores on one folder: a server's and the `oqlkit keys` command's, as two processes have them.
describeKeyStoreConformance('embedded (keys.log)', async () => {
  const dir = join(scratch, `state-${++folders}`)
  const store = await openFileKeyStore({ dir })
  const other = await openFileKeyStore({ dir })
  return {
    store,
    other,
    dispose: async () => {
      await store.close()
      await other.close()
    },
  }
})

describe('the embedded key store, revocation', () => {
  it('appends the revocation as one more line and reads it back after a reopen', async () => {
    const dir = join(scratch, 'revoked')
    const store = await openFileKeyStore({ dir })
    const record = await keyRecordOf('revoked-key-00000000001', { userId: 'gone' }, new Date())
    await store.putKey(record)
    await store.putKey({ ...record, revokedAt: '2030-01-01T00:00:00.000Z' })
    await store.close()
    const lines = readFileSync(join(dir, 'keys.log'), 'utf8').trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(JSON.parse(lines[1]!).put.revokedAt).toBe('2030-01-01T00:00:00.000Z')
    const reopened = await openFileKeyStore({ dir })
    expect(await reopened.findKey(record.keyHash)).toBeUndefined()
    expect((await reopened.listKeys())[0]?.revokedAt).toBe('2030-01-01T00:00:00.000Z')
  })
})
