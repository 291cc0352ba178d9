// A process for the crash tests: it writes to an embedded store as fast as it can, printing each write
// once it is acknowledged, until the test kills it with SIGKILL. Arguments: `charges <dir> <nowMs>` or
// `keys <dir>`.

import { keyRecordOf } from '@oqlkit/engine'
import { openFileKeyStore, openFileMeterStore } from '@oqlkit/file-stores'

const [mode, dir, nowText] = process.argv.slice(2)
if (dir === undefined) throw new Error('usage: metering-crash-child.ts charges|keys <dir> [nowMs]')

if (mode === 'charges') {
  const store = await openFileMeterStore({ dir })
  const nowMs = Number(nowText)
  let sent = 0
  const worker = async (): Promise<void> => {
    for (;;) {
      const n = ++sent
      const outcome = await store.charge({
        subject: 'key:crash',
        costMicroUsd: 100,
        allowance: { dailyBudgetMicroUsd: 1_000_000_000, prepaidMicroUsd: 0, prepaidExpiresAtMs: null },
        rate: { requests: 1_000_000_000, windowMs: 1000 },
        nowMs,
        requestId: `c${n}`,
      })
      if (!outcome.ok) throw new Error(outcome.reason)
      process.stdout.write('acked\n')
    }
  }
  // Several calls in flight at once, as a server has them: the group commit path is exercised too.
  await Promise.all(Array.from({ length: 8 }, worker))
} else {
  const store = await openFileKeyStore({ dir })
  for (let n = 0; ; n++) {
    const record = await keyRecordOf(
      `crash-key-${String(n).padStart(12, '0')}`,
      { userId: `user-${n}` },
      new Date(),
    )
    await store.putKey(record)
    process.stdout.write(`acked ${record.keyHash}\n`)
  }
}
