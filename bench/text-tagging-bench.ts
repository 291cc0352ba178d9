// Text-tagging quality and latency. A seeded 20% of a catalog's works is held out; the model is trained on
// the other 80% exactly as ingest trains it; each held-out work's title + abstract is tagged and its top 5
// keywords and concepts are compared with the work's real ones. Side by side: the naive baseline, which
// tags a text with every known label (same label set as the model) whose display name occurs in it as a
// run of words (stemmed, so plurals match), longest names first, then the most used.
//
//   npm run bench:text-tagging -- --catalog DIR [--seed 1] [--holdout 0.2] [--max-training N (ingest's default)]
//                                 [--latency-calls 500]
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { TagKind } from '@oqlkit/engine'
import { readCatalogTrainingWorks, trainTextTagModel } from '@oqlkit/ingest'
import { seededIdFraction, type TextTagModel, type TrainingWork, textTerms } from '@oqlkit/text-models'
import { median, percentile } from './bench-stats.ts'

const { values: args } = parseArgs({
  options: {
    catalog: { type: 'string' },
    seed: { type: 'string', default: '1' },
    holdout: { type: 'string', default: '0.2' },
    'max-training': { type: 'string' },
    'latency-calls': { type: 'string', default: '500' },
    'similarity-scale': { type: 'string' },
    'name-weight': { type: 'string' },
    threshold: { type: 'string' },
  },
})
if (args.catalog === undefined) {
  console.error('usage: text-tagging-bench --catalog DIR [--seed N] [--holdout 0.2] [--latency-calls N]')
  process.exit(2)
}
const catalogDir = resolve(args.catalog)
const seed = Number(args.seed)
const holdout = Number(args.holdout)
// The split uses its own salt, so it is not the selection ingest makes with the same seed.
const heldOut = (id: string): boolean => seededIdFraction(id, seed ^ 0x5eed) < holdout
const KINDS: readonly TagKind[] = ['keywords', 'concepts']
const TOP = 5

const trainStarted = performance.now()
const { model } = await trainTextTagModel({
  catalogDir,
  include: (id) => !heldOut(id),
  ...(args['max-training'] === undefined ? {} : { maxTrainingWorks: Number(args['max-training']) }),
})
const trainMs = performance.now() - trainStarted
const modelBytes = model.serialize().length

const settings = {
  ...(args['similarity-scale'] === undefined ? {} : { similarityScale: Number(args['similarity-scale']) }),
  ...(args['name-weight'] === undefined ? {} : { nameMatchWeight: Number(args['name-weight']) }),
  ...(args.threshold === undefined
    ? {}
    : {
        thresholds: {
          keywords: Number(args.threshold),
          concepts: Number(args.threshold),
          topics: Number(args.threshold),
        },
      }),
}

/** The baseline's lookup: labels by the first term of their name, with the name's terms. */
function nameIndex(labels: NonNullable<ReturnType<TextTagModel['labelSet']>>) {
  const byFirst = new Map<string, Array<{ id: string; terms: string[]; works: number }>>()
  labels.ids.forEach((id, i) => {
    const terms = textTerms(labels.names[i]!)
    if (terms.length === 0) return
    const list = byFirst.get(terms[0]!) ?? []
    list.push({ id, terms, works: labels.workCounts[i]! })
    byFirst.set(terms[0]!, list)
  })
  return byFirst
}
const baselineIndexes = new Map(KINDS.map((kind) => [kind, nameIndex(model.labelSet(kind)!)]))

function baselineTags(text: string, kind: TagKind): string[] {
  const terms = textTerms(text)
  const found = new Map<string, { length: number; works: number }>()
  const index = baselineIndexes.get(kind)!
  terms.forEach((term, start) => {
    for (const label of index.get(term) ?? []) {
      if (label.terms.every((t, k) => terms[start + k] === t))
        found.set(label.id, { length: label.terms.length, works: label.works })
    }
  })
  return [...found]
    .sort(([a, x], [b, y]) => y.length - x.length || y.works - x.works || (a < b ? -1 : 1))
    .map(([id]) => id)
}

interface Tally {
  works: number
  precision: number
  recall: number
  returned: number
}
const tally = (): Tally => ({ works: 0, precision: 0, recall: 0, returned: 0 })
const scores = new Map(
  KINDS.map((kind) => [kind, { model: tally(), baseline: tally(), reachable: 0, truth: 0 }]),
)
const texts: string[] = []
let heldOutWorks = 0
for await (const work of readCatalogTrainingWorks(catalogDir)) {
  if (!heldOut(work.id)) continue
  heldOutWorks++
  const text = textOf(work)
  if (text.trim() === '') continue
  texts.push(text)
  for (const kind of KINDS) {
    const truth = new Set(work.labels[kind].map((label) => label.id))
    if (truth.size === 0) continue
    const entry = scores.get(kind)!
    const known = new Set(model.labelSet(kind)?.ids ?? [])
    entry.truth += truth.size
    entry.reachable += [...truth].filter((id) => known.has(id)).length
    const score = (into: Tally, ranked: readonly string[]) => {
      const top = ranked.slice(0, TOP)
      const hits = top.filter((id) => truth.has(id)).length
      into.works++
      into.precision += hits / TOP
      into.recall += hits / truth.size
      into.returned += top.length
    }
    score(
      entry.model,
      model.tag(text, kind, settings).map((tag) => tag.id),
    )
    score(entry.baseline, baselineTags(text, kind))
  }
}

function textOf(work: TrainingWork): string {
  return work.abstract === '' ? work.title : `${work.title}\n${work.abstract}`
}

// Latency of one `/text` worth of tagging (keywords and concepts) on held-out texts, cut to the API's 2,000
// characters.
const calls = Math.min(Number(args['latency-calls']), texts.length * 4)
const times: number[] = []
for (let call = 0; call < calls; call++) {
  const text = texts[call % texts.length]!.slice(0, 2000)
  const started = performance.now()
  for (const kind of KINDS) model.tag(text, kind, settings)
  times.push(performance.now() - started)
}

const unrelated = [
  'Preheat the oven, whisk the eggs with sugar and bake the sponge cake for forty minutes.',
  'The quick brown fox jumps over the lazy dog while the farmer sings by the river.',
]
const unrelatedTags = unrelated.map((text) => KINDS.map((kind) => model.tag(text, kind, settings).length))

const pct = (value: number) => (100 * value).toFixed(1).padStart(5)
console.log(`catalog ${catalogDir}`)
console.log(
  `held out ${heldOutWorks} works (seed ${seed}, share ${holdout}), trained on ${model.trainedWorks}; training ${(trainMs / 1000).toFixed(1)} s, model ${(modelBytes / 1e6).toFixed(2)} MB, vocabulary ${model.vectorizer.size}`,
)
console.log(
  'kind      works  P@5 model  P@5 base  R@5 model  R@5 base  tags/text model  base  labels seen in training',
)
for (const kind of KINDS) {
  const { model: m, baseline: b, reachable, truth } = scores.get(kind)!
  const avg = (t: Tally, key: 'precision' | 'recall' | 'returned') => (t.works === 0 ? 0 : t[key] / t.works)
  console.log(
    `${kind.padEnd(9)} ${String(m.works).padStart(5)}      ${pct(avg(m, 'precision'))}     ${pct(avg(b, 'precision'))}      ${pct(avg(m, 'recall'))}     ${pct(avg(b, 'recall'))}            ${avg(m, 'returned').toFixed(2)}  ${avg(b, 'returned').toFixed(2)}  ${pct(truth === 0 ? 0 : reachable / truth)}%`,
  )
}
console.log(
  `latency per text (keywords + concepts, ${calls} calls): median ${median(times).toFixed(3)} ms, p95 ${percentile(times, 95).toFixed(3)} ms`,
)
console.log(`tags for unrelated text (keywords, concepts): ${JSON.stringify(unrelatedTags)}`)
