import { describe, expect, it } from 'vitest'
import { decadeTicks, formatWorks, renderLatencyPlot } from './latency-plot-writer.ts'

describe('renderLatencyPlot', () => {
  const svg = renderLatencyPlot(
    [
      {
        name: 'singleton <by id>',
        points: [
          { works: 100_000, ms: 3 },
          { works: 20_000, ms: 2 },
        ],
      },
      { name: 'group_by type', points: [{ works: 100_000, ms: 40 }] },
    ],
    { title: 'latency & size', width: 800, height: 400 },
  )

  it('is one SVG document of the given size', () => {
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"')).toBe(true)
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true)
    expect(svg).toContain('<title>latency &#38; size</title>')
  })

  it('draws a line through the points of a series in order of size, and a dot at each point', () => {
    const lines = [...svg.matchAll(/<polyline [^>]*points="([^"]+)"/g)].map((match) => match[1]!)
    expect(lines).toHaveLength(1) // the one-point series has no line
    const xs = lines[0]!.split(' ').map((point) => Number(point.split(',')[0]))
    expect(xs[0]).toBeLessThan(xs[1]!)
    expect(svg.match(/<circle /g)).toHaveLength(3)
  })

  it('puts larger latencies higher on the page (smaller y)', () => {
    const ys = [...svg.matchAll(/<circle cx="[^"]+" cy="([^"]+)"/g)].map((match) => Number(match[1]))
    // singleton at 20k (2 ms), at 100k (3 ms), then group_by at 100k (40 ms)
    expect(ys[0]).toBeGreaterThan(ys[1]!)
    expect(ys[1]).toBeGreaterThan(ys[2]!)
  })

  it('labels decades of both axes and escapes text', () => {
    expect(svg).toContain('>10k<')
    expect(svg).toContain('>100k<')
    expect(svg).toContain('>1 ms<')
    expect(svg).toContain('>100 ms<')
    expect(svg).toContain('singleton &#60;by id&#62;')
    expect(svg).toContain('latency &#38; size')
  })

  it('refuses to draw nothing', () => {
    expect(() => renderLatencyPlot([{ name: 'x', points: [] }], { title: 't' })).toThrow('nothing to plot')
  })
})

describe('axis helpers', () => {
  it('covers the range with powers of ten', () => {
    expect(decadeTicks(20_000, 1_000_000)).toEqual([10_000, 100_000, 1_000_000])
    expect(decadeTicks(0.4, 3)).toEqual([0.1, 1, 10])
    expect(decadeTicks(100, 100)).toEqual([100, 1000])
    expect(() => decadeTicks(0, 10)).toThrow('positive')
  })

  it('writes sizes the way the issue does', () => {
    expect(formatWorks(20_000)).toBe('20k')
    expect(formatWorks(1_000_000)).toBe('1M')
    expect(formatWorks(10_000_000)).toBe('10M')
    expect(formatWorks(1234)).toBe('1234')
  })
})
