import { spawn } from 'node:child_process'
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { keyRecordOf, utcDayOf } from '@oqlkit/engine'
import { describeMeterStoreConformance } from '@oqlkit/engine/testing'
import {
  METER_LOG_FILE,
  openFileKeyStore,
  openFileMeterStore,
  StateDirectoryInUseError,
} from '@oqlkit/file-stores'
import { afterAll, describe, expect, it } from 'vitest'

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-embedded-meter-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))
let folders = 0
const freshDir = (): string => join(scratch, `state-${++folders}`)

const NOW = Date.UTC(2030, 2, 3, 15)
const charge = (subject: string, cost: number, requestId: string) => ({
  subject,
  costMicroUsd: cost,
  allowance: { dailyBudgetMicroUsd: 1_000_000, prepaidMicroUsd: 1_000_000, prepaidExpiresAtMs: null },
  rate: { requests: 1_000_000, windowMs: 1000 },
  nowMs: NOW,
  requestId,
})

describeMeterStoreConformance('embedded (file-backed)', async () => {
  const store = await openFileMeterStore({ dir: freshDir() })
  return { store, dispose: () => store.close() }
})

describeMeterStoreConformance('embedded, compacting at every flush', async () => {
  const store = await openFileMeterStore({ dir: freshDir(), compactAtBytes: 1 })
  return { store, dispose: () => store.close() }
})

describe('the embedded meter store on disk', () => {
  it('replays its log on open: every acknowledged charge and refund is still there', async () => {
    const dir = freshDir()
    const first = await openFileMeterStore({ dir })
    for (let i = 0; i < 30; i++) await first.charge(charge('key:a', 100, `a${i}`))
    const big = await first.charge(charge('key:b', 1_500_000, 'b'))
    expect(big.ok).toBe(true)
    if (big.ok) await first.refund(big.receipt, NOW)
    await first.charge(charge('key:b', 1_200_000, 'b2'))
    await first.close()
    const reopened = await openFileMeterStore({ dir })
    expect((await reopened.read('key:a', NOW)).counters).toEqual({
      day: utcDayOf(NOW),
      dailyUsedMicroUsd: 3000,
      prepaidUsedMicroUsd: 0,
    })
    expect((await reopened.read('key:b', NOW)).counters).toMatchObject({
      dailyUsedMicroUsd: 1_000_000,
      prepaidUsedMicroUsd: 200_000,
    })
    expect(reopened.skippedLines).toBe(0)
    await reopened.close()
  })

  it('never writes a free call, and keeps the log bounded by compacting it', async () => {
    const dir = freshDir()
    const store = await openFileMeterStore({ dir, compactAtBytes: 2000, clock: () => NOW })
    await store.charge(charge('ip:free', 0, 'free'))
    expect(statSync(join(dir, METER_LOG_FILE)).size).toBe(0)
    // 20 flushes of 20 charges: the log is compacted whenever a flush finds it past 2,000 bytes.
    for (let group = 0; group < 20; group++)
      await Promise.all(
        Array.from({ length: 20 }, (_, i) => store.charge(charge(`key:s${i % 5}`, 100, `s${group}-${i}`))),
      )
    await store.close()
    expect(statSync(join(dir, METER_LOG_FILE)).size).toBeLessThan(2000 + 20 * 80)
    const reopened = await openFileMeterStore({ dir })
    for (let s = 0; s < 5; s++)
      expect((await reopened.read(`key:s${s}`, NOW)).counters.dailyUsedMicroUsd).toBe(8000)
    await reopened.close()
  })

  it('cuts off a line a crash left half-written, and appends after it', async () => {
    const dir = freshDir()
    const store = await openFileMeterStore({ dir })
    await store.charge(charge('key:torn', 100, 't1'))
    await store.close()
    appendFileSync(join(dir, METER_LOG_FILE), '{"op":"charge","subject":"key:torn","da')
    const reopened = await openFileMeterStore({ dir })
    await reopened.charge(charge('key:torn', 100, 't2'))
    await reopened.close()
    expect(readFileSync(join(dir, METER_LOG_FILE), 'utf8').split('\n')).toHaveLength(3)
    const third = await openFileMeterStore({ dir })
    expect((await third.read('key:torn', NOW)).counters.dailyUsedMicroUsd).toBe(200)
    expect(third.skippedLines).toBe(0)
    await third.close()
  })

  it('serves one process: a second open fails while the first holds the folder', async () => {
    const dir = freshDir()
    const store = await openFileMeterStore({ dir })
    await expect(openFileMeterStore({ dir })).rejects.toThrow(StateDirectoryInUseError)
    await expect(openFileMeterStore({ dir })).rejects.toThrow(
      /^The metering state in .* share budgets through Redis/,
    )
    await store.close()
    const again = await openFileMeterStore({ dir })
    await again.close()
  })

  it('takes over the lock of a process that died, keeping its charges, and holds it as its own', async () => {
    const dir = freshDir()
    const lockFile = join(dir, 'meter.lock')
    const store = await openFileMeterStore({ dir })
    await store.charge(charge('key:dead', 100, 'd1'))
    await store.close()
    expect(existsSync(lockFile), 'close releases the lock').toBe(false)
    // The dead process's lock: a pid no process has (above the kernel's pid_max).
    writeFileSync(lockFile, '99999999')
    const taken = await openFileMeterStore({ dir })
    expect(readFileSync(lockFile, 'utf8').trim(), 'the lock now names this process').toBe(String(process.pid))
    expect((await taken.read('key:dead', NOW)).counters.dailyUsedMicroUsd).toBe(100)
    expect((await taken.charge(charge('key:dead', 100, 'd2'))).ok).toBe(true)
    // Taken over for real: another open is refused while this store holds it.
    await expect(openFileMeterStore({ dir })).rejects.toThrow(StateDirectoryInUseError)
    await taken.close()
    expect(existsSync(lockFile)).toBe(false)
    const reopened = await openFileMeterStore({ dir })
    expect((await reopened.read('key:dead', NOW)).counters.dailyUsedMicroUsd).toBe(200)
    await reopened.close()
  })

  it('does not take over the lock of a process that is still running', async () => {
    const dir = freshDir()
    const lockFile = join(dir, 'meter.lock')
    await (await openFileMeterStore({ dir })).close()
    // The parent of this test process is alive: its lock stands.
    writeFileSync(lockFile, String(process.ppid))
    const refused = await openFileMeterStore({ dir }).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(refused).toBeInstanceOf(StateDirectoryInUseError)
    expect((refused as StateDirectoryInUseError).pid).toBe(process.ppid)
    expect(readFileSync(lockFile, 'utf8')).toBe(String(process.ppid))
  })
})

const childScript = resolve(import.meta.dirname, 'support/metering-crash-child.ts')

/** Runs the crash child until it has acknowledged `atLeast` writes, then SIGKILLs it; returns its output lines. */
const runAndKill = async (args: readonly string[], atLeast: number): Promise<string[]> => {
  const child = spawn(
    process.execPath,
    ['--conditions=@oqlkit/source', '--import', 'tsx', childScript, ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let stdout = ''
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const exited = new Promise<void>((done) => child.on('exit', () => done()))
  await new Promise<void>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
      if (stdout.split('\n').length > atLeast) {
        child.kill('SIGKILL')
        done()
      }
    })
    child.on('exit', () => fail(new Error(`the child ended before it was killed: ${stderr}`)))
  })
  await exited
  // Only complete lines were acknowledged; output read after the kill is from before it.
  return stdout.split('\n').filter((line) => line.startsWith('acked'))
}

describe('the embedded stores after SIGKILL', () => {
  it('lose no acknowledged charge', async () => {
    const dir = freshDir()
    const acknowledged = (await runAndKill(['charges', dir, String(NOW)], 300)).length
    const store = await openFileMeterStore({ dir })
    const used = (await store.read('key:crash', NOW)).counters.dailyUsedMicroUsd
    await store.close()
    expect(used).toBeGreaterThanOrEqual(acknowledged * 100)
    // At most the 8 calls in flight were written but not yet acknowledged.
    expect(used).toBeLessThanOrEqual((acknowledged + 8) * 100)
  }, 60_000)

  it('lose no acknowledged key', async () => {
    const dir = freshDir()
    const lines = await runAndKill(['keys', dir], 60)
    const store = await openFileKeyStore({ dir })
    for (const line of lines) expect(await store.findKey(line.slice('acked '.length))).toBeDefined()
    await store.close()
  }, 60_000)
})

describe('the embedded key store', () => {
  it('stores keys by hash only, and finds them after a reopen', async () => {
    const dir = freshDir()
    const key = 'embedded-key-0000000001'
    const record = await keyRecordOf(key, { userId: 'u1', prepaidUsd: 3 }, new Date(NOW))
    const store = await openFileKeyStore({ dir })
    await store.putKey(record)
    expect(await store.findKey(record.keyHash)).toEqual(record)
    await store.close()
    expect(readFileSync(join(dir, 'keys.log'), 'utf8')).not.toContain(key)
    const reopened = await openFileKeyStore({ dir })
    expect(await reopened.findKey(record.keyHash)).toEqual(record)
    expect(await reopened.findKey('f'.repeat(64))).toBeUndefined()
  })

  it('sees keys another process adds while it runs, and the newest record of a key', async () => {
    const dir = freshDir()
    const server = await openFileKeyStore({ dir })
    const cli = await openFileKeyStore({ dir })
    const record = await keyRecordOf('added-later-000000000001', { userId: 'late' }, new Date(NOW))
    expect(await server.findKey(record.keyHash)).toBeUndefined()
    await cli.putKey(record)
    expect(await server.findKey(record.keyHash)).toEqual(record)
    await cli.putKey({ ...record, prepaidUsd: 50 })
    await new Promise((done) => setTimeout(done, 1100))
    expect((await server.findKey(record.keyHash))?.prepaidUsd).toBe(50)
  })

  it('skips damaged lines instead of trusting them', async () => {
    const dir = freshDir()
    const store = await openFileKeyStore({ dir })
    const record = await keyRecordOf('damaged-line-00000000001', { userId: 'ok' }, new Date(NOW))
    appendFileSync(join(dir, 'keys.log'), '{"put":{"keyHash":"zz","admin":"yes"}}\n{"put":{"keyHa')
    await store.putKey(record)
    const reopened = await openFileKeyStore({ dir })
    expect(await reopened.findKey(record.keyHash)).toEqual(record)
    expect(await reopened.findKey('zz')).toBeUndefined()
  })
})
