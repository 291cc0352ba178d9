// The "how cost grows" plot: median latency against catalog size, one line per query shape, both axes
// logarithmic (sizes step by 10×, latencies span microseconds to seconds). Written as plain SVG text so the
// benchmark needs no charting library and the file diffs readably.

export interface LatencySeries {
  readonly name: string
  /** One point per catalog size measured; `ms` is the median latency there. */
  readonly points: readonly { readonly works: number; readonly ms: number }[]
}

export interface PlotOptions {
  readonly title: string
  readonly width?: number
  readonly height?: number
}

// A palette that stays distinguishable for a dozen-odd lines; dashes tell apart the ones that repeat a colour.
const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf']
const DASHES = ['', '6 3', '2 3']

const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

/** Powers of ten covering [low, high], at least one below and one above. */
export function decadeTicks(low: number, high: number): number[] {
  if (!(low > 0) || !(high > 0)) throw new Error(`log axes need positive bounds, got ${low} and ${high}`)
  const ticks: number[] = []
  for (let exponent = Math.floor(Math.log10(low)); exponent <= Math.ceil(Math.log10(high)); exponent++)
    ticks.push(10 ** exponent)
  if (ticks.length === 1) ticks.push(ticks[0]! * 10)
  return ticks
}

export const formatWorks = (works: number): string =>
  works >= 1_000_000 && works % 1_000_000 === 0
    ? `${works / 1_000_000}M`
    : works >= 1000 && works % 1000 === 0
      ? `${works / 1000}k`
      : String(works)

const formatMsTick = (ms: number): string =>
  ms >= 1000 ? `${ms / 1000} s` : ms >= 1 ? `${ms} ms` : `${Math.round(ms * 1000)} µs`

export function renderLatencyPlot(series: readonly LatencySeries[], options: PlotOptions): string {
  const points = series.flatMap((line) => line.points).filter((point) => point.ms > 0 && point.works > 0)
  if (points.length === 0) throw new Error('nothing to plot: no positive latencies')
  const width = options.width ?? 900
  const height = options.height ?? 560
  const margin = { left: 70, right: 300, top: 40, bottom: 50 }
  const plotWidth = width - margin.left - margin.right
  const plotHeight = height - margin.top - margin.bottom
  const xTicks = decadeTicks(Math.min(...points.map((p) => p.works)), Math.max(...points.map((p) => p.works)))
  const yTicks = decadeTicks(Math.min(...points.map((p) => p.ms)), Math.max(...points.map((p) => p.ms)))
  const [xLow, xHigh] = [Math.log10(xTicks[0]!), Math.log10(xTicks.at(-1)!)]
  const [yLow, yHigh] = [Math.log10(yTicks[0]!), Math.log10(yTicks.at(-1)!)]
  const x = (works: number) => margin.left + ((Math.log10(works) - xLow) / (xHigh - xLow)) * plotWidth
  const y = (ms: number) => margin.top + plotHeight - ((Math.log10(ms) - yLow) / (yHigh - yLow)) * plotHeight
  const r = (value: number) => value.toFixed(1)

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(options.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${margin.left}" y="24" font-size="15">${escapeXml(options.title)}</text>`,
  ]
  for (const tick of xTicks)
    parts.push(
      `<line x1="${r(x(tick))}" y1="${margin.top}" x2="${r(x(tick))}" y2="${margin.top + plotHeight}" stroke="#ddd"/>`,
      `<text x="${r(x(tick))}" y="${margin.top + plotHeight + 18}" text-anchor="middle">${formatWorks(tick)}</text>`,
    )
  for (const tick of yTicks)
    parts.push(
      `<line x1="${margin.left}" y1="${r(y(tick))}" x2="${margin.left + plotWidth}" y2="${r(y(tick))}" stroke="#ddd"/>`,
      `<text x="${margin.left - 6}" y="${r(y(tick) + 4)}" text-anchor="end">${formatMsTick(tick)}</text>`,
    )
  parts.push(
    `<rect x="${margin.left}" y="${margin.top}" width="${plotWidth}" height="${plotHeight}" fill="none" stroke="#333"/>`,
    `<text x="${margin.left + plotWidth / 2}" y="${height - 10}" text-anchor="middle">works in the catalog (log)</text>`,
    `<text transform="translate(16 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">median latency (log)</text>`,
  )
  series.forEach((line, index) => {
    const colour = COLOURS[index % COLOURS.length]!
    const dash = DASHES[Math.floor(index / COLOURS.length) % DASHES.length]!
    const visible = [...line.points].filter((p) => p.ms > 0 && p.works > 0).sort((a, b) => a.works - b.works)
    const dashAttribute = dash === '' ? '' : ` stroke-dasharray="${dash}"`
    if (visible.length > 1)
      parts.push(
        `<polyline fill="none" stroke="${colour}" stroke-width="2"${dashAttribute} points="${visible.map((p) => `${r(x(p.works))},${r(y(p.ms))}`).join(' ')}"/>`,
      )
    for (const p of visible)
      parts.push(`<circle cx="${r(x(p.works))}" cy="${r(y(p.ms))}" r="3" fill="${colour}"/>`)
    const legendY = margin.top + 8 + index * 18
    const legendX = margin.left + plotWidth + 16
    parts.push(
      `<line x1="${legendX}" y1="${legendY}" x2="${legendX + 24}" y2="${legendY}" stroke="${colour}" stroke-width="2"${dashAttribute}/>`,
      `<text x="${legendX + 30}" y="${legendY + 4}">${escapeXml(line.name)}</text>`,
    )
  })
  parts.push('</svg>')
  return `${parts.join('\n')}\n`
}
