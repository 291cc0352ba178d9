import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CollectionDraft } from '@oqlkit/engine'
import { describeCollectionStoreContract } from '@oqlkit/engine/testing'
import { COLLECTIONS_LOG_FILE, openFileCollectionStore, StateDirectoryInUseError } from '@oqlkit/file-stores'
import { afterAll, describe, expect, it } from 'vitest'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-embedded-collections-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0
const freshDir = (): string => join(scratch, `state-${++folders}`)

describeCollectionStoreContract('embedded (file-backed)', {
  open: () => openFileCollectionStore({ dir: freshDir() }),
})

describeCollectionStoreContract('embedded, compacting at every write', {
  open: () => openFileCollectionStore({ dir: freshDir(), compactAtBytes: 1 }),
})

const draft = (id: string, displayName: string, entityIds: string[] = []): CollectionDraft => ({
  id,
  userId: 'u1',
  entityType: 'works',
  displayName,
  description: 'kept',
  entityIds,
  at: '2026-06-01T08:00:00',
})

describe('the embedded collection store on disk', () => {
  it('reopens with every acknowledged write, in order, and the limits still in force', async () => {
    const dir = freshDir()
    const store = await openFileCollectionStore({ dir })
    await store.create(draft('col_aaaaaaaaaa', 'First', ['W1', 'W2']))
    await store.create(draft('col_bbbbbbbbbb', 'Second'))
    await store.addEntities('col_aaaaaaaaaa', ['W3'], 'works', '2026-06-01T09:00:00')
    await store.removeEntities('col_aaaaaaaaaa', ['W1'], '2026-06-01T09:30:00')
    await store.update('col_bbbbbbbbbb', {
      displayName: 'Renamed',
      entityType: 'authors',
      at: '2026-06-01T10:00:00',
    })
    await store.create(draft('col_cccccccccc', 'Third'))
    await store.delete('col_cccccccccc')
    const before = await store.list({ offset: 0, limit: 10 })
    await store.close()

    const reopened = await openFileCollectionStore({ dir })
    try {
      expect(await reopened.list({ offset: 0, limit: 10 })).toEqual(before)
      expect(await reopened.members('col_aaaaaaaaaa', 0, 10)).toEqual({ total: 2, ids: ['W2', 'W3'] })
      expect(await reopened.get('col_bbbbbbbbbb')).toMatchObject({
        displayName: 'Renamed',
        entityType: 'authors',
        updatedAt: '2026-06-01T10:00:00',
      })
      await expect(reopened.create(draft('col_dddddddddd', 'renamed'))).rejects.toMatchObject({
        code: 'display_name_duplicate',
      })
      // The name the deleted collection had is free again.
      await reopened.create(draft('col_eeeeeeeeee', 'Third'))
    } finally {
      await reopened.close()
    }
  })

  it('drops a last line a crash cut short (never acknowledged) and keeps the rest', async () => {
    const dir = freshDir()
    const store = await openFileCollectionStore({ dir })
    await store.create(draft('col_aaaaaaaaaa', 'Kept', ['W1']))
    await store.close()
    const path = join(dir, COLLECTIONS_LOG_FILE)
    const whole = statSync(path).size
    appendFileSync(path, '{"v":1,"op":"add","id":"col_aaaaaaaaaa","entityIds":["W9"],"at":"2026-0')
    const reopened = await openFileCollectionStore({ dir })
    try {
      expect(statSync(path).size).toBe(whole)
      expect(await reopened.members('col_aaaaaaaaaa', 0, 10)).toEqual({ total: 1, ids: ['W1'] })
      await reopened.addEntities('col_aaaaaaaaaa', ['W2'], 'works', '2026-06-02T00:00:00')
    } finally {
      await reopened.close()
    }
    const again = await openFileCollectionStore({ dir })
    expect((await again.members('col_aaaaaaaaaa', 0, 10))?.ids).toEqual(['W1', 'W2'])
    await again.close()
  })

  it('refuses to open a log damaged in the middle, rather than losing what follows', async () => {
    const dir = freshDir()
    const store = await openFileCollectionStore({ dir })
    await store.create(draft('col_aaaaaaaaaa', 'One'))
    await store.create(draft('col_bbbbbbbbbb', 'Two'))
    await store.close()
    const path = join(dir, COLLECTIONS_LOG_FILE)
    const lines = readFileSync(path, 'utf8').split('\n')
    writeFileSync(path, [lines[0]!.slice(0, 20), ...lines.slice(1)].join('\n'))
    await expect(openFileCollectionStore({ dir })).rejects.toThrow(/line 1: not JSON/)
    // The refused open released the lock: a repaired log opens.
    writeFileSync(path, lines.slice(1).join('\n'))
    const repaired = await openFileCollectionStore({ dir })
    expect((await repaired.list({ offset: 0, limit: 10 })).collections.map((c) => c.id)).toEqual([
      'col_bbbbbbbbbb',
    ])
    await repaired.close()
  })

  it('keeps a second store off a folder in use, and compacts the log to one line per collection', async () => {
    const dir = freshDir()
    const store = await openFileCollectionStore({ dir, compactAtBytes: 2000 })
    await expect(openFileCollectionStore({ dir })).rejects.toBeInstanceOf(StateDirectoryInUseError)
    // The message names what is locked: the collections, not the metering state beside them.
    await expect(openFileCollectionStore({ dir })).rejects.toThrow(
      /^The collections in .* keep collections in Redis/,
    )
    await store.create(draft('col_aaaaaaaaaa', 'Churn', ['W1']))
    for (let round = 0; round < 40; round++) {
      await store.addEntities('col_aaaaaaaaaa', [`W${round + 100}`], 'works', '2026-06-03T00:00:00')
      await store.removeEntities('col_aaaaaaaaaa', [`W${round + 100}`], '2026-06-03T00:00:01')
    }
    await store.close()
    const path = join(dir, COLLECTIONS_LOG_FILE)
    expect(statSync(path).size).toBeLessThan(4000)
    const reopened = await openFileCollectionStore({ dir })
    expect(await reopened.get('col_aaaaaaaaaa')).toMatchObject({
      entityCount: 1,
      updatedAt: '2026-06-03T00:00:01',
    })
    await reopened.close()
  })
})
