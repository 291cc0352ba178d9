import { describe, expect, it } from 'vitest'
import { BenchArgumentError, parseBenchArguments, parseSize } from './bench-arguments.ts'
import { catalogCacheName, snapshotCacheName } from './bench-catalog-cache.ts'

describe('parseSize', () => {
  it('reads k and M suffixes and plain numbers', () => {
    expect(parseSize('20k')).toBe(20_000)
    expect(parseSize('100K')).toBe(100_000)
    expect(parseSize('1M')).toBe(1_000_000)
    expect(parseSize('2.5M')).toBe(2_500_000)
    expect(parseSize('12345')).toBe(12_345)
  })

  it('refuses what is not a whole positive number of works, saying what to write', () => {
    expect(() => parseSize('1G')).toThrow(/not a catalog size: write a number of works such as 100k/)
    expect(() => parseSize('0')).toThrow(BenchArgumentError)
    expect(() => parseSize('1.5')).toThrow(/whole positive/)
  })
})

describe('parseBenchArguments', () => {
  it('defaults to the three sizes of the issue and every part', () => {
    const args = parseBenchArguments([])
    expect(args.sizes).toEqual([100_000, 1_000_000, 10_000_000])
    expect([...args.parts]).toEqual(['queries', 'postgres', 'load', 'memory'])
    expect(args.connections).toEqual([1, 2, 8])
    expect(args.postgres).toEqual({ host: '127.0.0.1', port: 5432, user: 'postgres' })
    expect(args.resultsDir).toBe('bench/results')
    expect(args.reportOnly).toBe(false)
    expect(parseBenchArguments(['--report-only']).reportOnly).toBe(true)
  })

  it('selects sizes (sorted, without repeats) and skips parts', () => {
    const args = parseBenchArguments(['--sizes', '1M,20k,20000', '--skip', 'postgres,load', '--rounds', '9'])
    expect(args.sizes).toEqual([20_000, 1_000_000])
    expect([...args.parts]).toEqual(['queries', 'memory'])
    expect(args.rounds).toBe(9)
  })

  it('keeps the PostgreSQL database when asked, and prepares it only for sizes it is given', () => {
    expect(parseBenchArguments([])).toMatchObject({ keepPostgres: false, preparePostgres: false })
    expect(parseBenchArguments(['--keep-postgres'])).toMatchObject({
      keepPostgres: true,
      preparePostgres: false,
    })
    expect(parseBenchArguments(['--prepare-postgres', '--sizes', '1M'])).toMatchObject({
      keepPostgres: true,
      preparePostgres: true,
      sizes: [1_000_000],
    })
    expect(() => parseBenchArguments(['--prepare-postgres'])).toThrow(/name them with --sizes/)
  })

  it('splits --only on |', () => {
    expect(parseBenchArguments(['--only', 'singleton|group_by']).only).toEqual(['singleton', 'group_by'])
  })

  it('names what is wrong with a bad option', () => {
    expect(() => parseBenchArguments(['--skip', 'network'])).toThrow(
      /--skip knows queries, postgres, load, memory/,
    )
    expect(() => parseBenchArguments(['--rounds', '0'])).toThrow(
      /--rounds needs a whole number of at least 1/,
    )
    expect(() => parseBenchArguments(['--connections', '1,x'])).toThrow(/--connections/)
    expect(() => parseBenchArguments(['--ingest-memory-limit', 'lots'])).toThrow(/a size such as 8GB/)
    expect(() => parseBenchArguments(['--sizes', ''])).toThrow(/at least one size/)
    expect(() => parseBenchArguments(['--colour'])).toThrow(/usage: npm run bench/)
  })
})

describe('the cache keys', () => {
  it('tell sizes, seeds and formats apart', () => {
    expect(snapshotCacheName(100_000, 1)).toBe('snapshot-w100000-s1-g1')
    expect(catalogCacheName(100_000, 1)).toMatch(/^catalog-w100000-s1-c\d+$/)
    expect(catalogCacheName(100_000, 2)).not.toBe(catalogCacheName(100_000, 1))
    expect(snapshotCacheName(20_000, 1)).not.toBe(snapshotCacheName(100_000, 1))
  })
})
