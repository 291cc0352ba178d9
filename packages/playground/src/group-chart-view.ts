// A grouped query's buckets: a Chart.js chart (bars; a line over the years when the key is the
// publication year) and the same buckets as a table, which is what a screen reader or a keyboard reads.
// Only the Chart.js parts these two charts use are registered, so the bundle carries no others.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js'
import type { Bucket } from './list-envelope.ts'
import { yearPoints } from './year-series-format.ts'

Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Tooltip,
)

/** Group keys read along a time axis: drawn as a line, in key order. */
const YEAR_COLUMNS = new Set(['publication_year'])

export interface GroupChartInput {
  readonly buckets: readonly Bucket[]
  /** The grouped column (`type`, `publication_year`, …). */
  readonly columnId: string
  /** What is counted (`works`). */
  readonly entity: string
  /** How many groups there are in all (the response may hold fewer). */
  readonly groupsCount: number
}

export interface GroupChartView {
  readonly element: HTMLElement
  destroy(): void
}

const labelOf = (bucket: Bucket): string => bucket.key_display_name ?? bucket.key

const accent = (): string =>
  getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#2456c5'

const bucketTable = (input: GroupChartInput): HTMLTableElement => {
  const table = document.createElement('table')
  table.className = 'results-table bucket-table'
  table.createCaption().textContent = `${input.entity} by ${input.columnId}: ${input.buckets.length} of ${input.groupsCount} groups`
  const head = table.createTHead().insertRow()
  for (const name of ['key', 'display name', 'count']) {
    const th = document.createElement('th')
    th.scope = 'col'
    th.textContent = name
    head.append(th)
  }
  const body = table.createTBody()
  for (const bucket of input.buckets) {
    const row = body.insertRow()
    row.insertCell().textContent = bucket.key
    row.insertCell().textContent = labelOf(bucket)
    const count = row.insertCell()
    count.textContent = bucket.count.toLocaleString('en-US')
    count.className = 'number'
  }
  return table
}

/** Draws into `parent` (the canvas must be in the page before Chart.js measures it). */
export const renderGroupChart = (parent: HTMLElement, input: GroupChartInput): GroupChartView => {
  const isYears = YEAR_COLUMNS.has(input.columnId)
  const buckets = input.buckets
  const figure = document.createElement('figure')
  figure.className = 'group-chart'
  const frame = document.createElement('div')
  frame.className = 'chart-frame'
  const canvas = document.createElement('canvas')
  canvas.id = 'group-chart-canvas'
  canvas.setAttribute('role', 'img')
  const top = input.buckets[0]
  canvas.setAttribute(
    'aria-label',
    `${isYears ? 'Line' : 'Bar'} chart of ${input.entity} by ${input.columnId}, ${input.buckets.length} groups` +
      (top === undefined ? '' : `; largest ${labelOf(top)} with ${top.count.toLocaleString('en-US')}`) +
      '. The table below lists every group.',
  )
  frame.append(canvas)
  const caption = document.createElement('figcaption')
  caption.textContent = `${input.entity} by ${input.columnId}`
  figure.append(caption, frame, bucketTable(input))
  parent.append(figure)

  const color = accent()
  const common = {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
  } as const
  const y = { beginAtZero: true, ticks: { precision: 0 } }
  const chart = isYears
    ? // Years on a linear axis, so a year without any rows is a gap in time and not skipped over.
      new Chart(canvas, {
        type: 'line',
        data: {
          datasets: [
            {
              label: input.entity,
              data: yearPoints(buckets),
              backgroundColor: color,
              borderColor: color,
              pointRadius: 2,
            },
          ],
        },
        options: {
          ...common,
          scales: {
            x: { type: 'linear', ticks: { precision: 0, callback: (value) => String(value) } },
            y,
          },
        },
      })
    : new Chart(canvas, {
        type: 'bar',
        data: {
          labels: buckets.map(labelOf),
          datasets: [
            { label: input.entity, data: buckets.map((bucket) => bucket.count), backgroundColor: color },
          ],
        },
        options: { ...common, scales: { y } },
      })
  // What was drawn, from the chart itself, for people's tools and the page's tests.
  canvas.dataset.chartType = String((chart.config as { type?: string }).type)
  canvas.dataset.buckets = String(buckets.length)
  return { element: figure, destroy: () => chart.destroy() }
}
