import { createMemoryKeyStore, keyRecordOf, layerKeyStores } from '@oqlkit/engine'
import { describeKeyStoreConformance } from '@oqlkit/engine/testing'
import { describe, expect, it } from 'vitest'

describeKeyStoreConformance('memory', async () => {
  const store = createMemoryKeyStore()
  return { store, other: store, dispose: async () => {} }
})

describe('layered key stores', () => {
  it('list each hash once, as the first store that knows it has it', async () => {
    const now = new Date('2030-01-01T00:00:00.000Z')
    const shared = await keyRecordOf('layered-key-000000000001', { userId: 'stored' }, now)
    const storedOnly = await keyRecordOf('layered-key-000000000002', { userId: 'stored-only' }, now)
    const persistent = createMemoryKeyStore([shared, storedOnly])
    const provisioned = createMemoryKeyStore([{ ...shared, userId: 'provisioned' }])
    const layered = layerKeyStores(provisioned, persistent)
    expect((await layered.listKeys()).map((record) => record.userId).sort()).toEqual([
      'provisioned',
      'stored-only',
    ])
    await layered.putKey({ ...storedOnly, revokedAt: '2030-01-02T00:00:00.000Z' })
    expect(await layered.findKey(storedOnly.keyHash)).toBeUndefined()
    expect(
      (await persistent.listKeys()).find((record) => record.keyHash === storedOnly.keyHash)?.revokedAt,
    ).toBe('2030-01-02T00:00:00.000Z')
  })
})
