import { describe, expect, it } from 'vitest'
import {
  ratio,
  renderGrowthTable,
  renderMemoryTable,
  renderQueryTable,
  type SizeResult,
} from './bench-report-writer.ts'

describe('the report tables', () => {
  const result = (works: number, appMs: number): SizeResult => ({
    works,
    seed: 1,
    date: '2026-11-21',
    machine: 'test',
    rounds: 3,
    warmup: 1,
    build: { ingestMs: 90_000 },
    postgresLoad: { copyMs: 10_000, indexMs: 5_000, analyzeMs: 1_000, sizeBytes: 300 * 1_048_576, rows: {} },
    shapes: [
      {
        shape: 'group_by type',
        growth: 'linear',
        path: '/works?group_by=type',
        contenders: [
          { name: 'app', medianMs: appMs, p95Ms: appMs * 2, rounds: 3 },
          { name: 'duckdb', medianMs: 4, p95Ms: 5, rounds: 3 },
          { name: 'postgres', medianMs: 80, p95Ms: 90, rounds: 3 },
        ],
      },
    ],
    load: [],
    serverPeakRssBytes: 512 * 1_048_576,
  })

  it('gives ratios from the medians of one run', () => {
    expect(renderQueryTable(result(100_000, 8))).toContain(
      '| group_by type | 8.00 ms | 16.0 ms | 4.00 ms | 80.0 ms | 90.0 ms | 2.00 | 0.10 |',
    )
    expect(ratio(1, Number.NaN)).toBe('—')
  })

  it('lays out sizes as columns, smallest first', () => {
    expect(renderGrowthTable([result(100_000, 8), result(20_000, 3)])).toContain(
      '| group_by type | linear | 3.00 ms | 8.00 ms |',
    )
  })

  it('reports build and load times and the peak memory per size', () => {
    expect(renderMemoryTable([result(20_000, 3)])).toContain(
      '| 20k | — | 90.0 s | 16.0 s (10.0 s + 5.0 s + 1.0 s) | 300 MB | 512 MB |',
    )
  })
})
