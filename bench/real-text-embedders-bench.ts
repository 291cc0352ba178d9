// The embedders of semantic search measured on real text (issue 41, item 4): the 4,431 real works of five
// systematic reviews (`shared/data/real-works`), embedded from title and abstract as ingest embeds them, by the
// built-in LSA model (trained on these works, as ingest trains it on a catalog) and by Universal Sentence
// Encoder lite. For each paper a review's authors included, the query is its title (embedded by the same
// embedder) and every other work is ranked by cosine:
//   topical precision@10: the share of the 10 nearest works that are candidates of the same review (one
//     literature search, so one topic);
//   recall@50: the share of the review's other included papers among the 50 nearest.
// Both averaged over the queries; also the time to embed 1,000 works, and to make every work's vector (LSA's
// training included, the encoder's loading included).
//   npm run bench:real-text-embedders -- [--works DIR] [--max-words 256]
import { readdirSync, readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { type Embedder, unitVector } from '@oqlkit/engine'
import {
  createUseLiteEmbedder,
  DEFAULT_LSA_DIMENSIONS,
  lsaEmbedder,
  textFromInvertedIndex,
  textTerms,
  trainLsaModel,
} from '@oqlkit/text-models'

const { values } = parseArgs({
  options: {
    works: { type: 'string', default: resolve(import.meta.dirname, '../../shared/data/real-works') },
    'max-words': { type: 'string', default: '256' },
  },
})
const worksDir = values.works
const maxWords = Number(values['max-words'])

interface RealWork {
  readonly id: string
  readonly review: string
  readonly title: string
  readonly text: string
}

const works: RealWork[] = gunzipSync(readFileSync(join(worksDir, 'works.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => {
    const record = JSON.parse(line) as Record<string, unknown>
    const title = String(record.display_name ?? record.title ?? '')
    const abstract = textFromInvertedIndex(record.abstract_inverted_index)
    // As ingest's work-text-reader writes it: title, a blank line, abstract.
    return {
      id: String(record.id),
      review: String(record._review),
      title,
      text: `${title}\n\n${abstract}`.trim(),
    }
  })
const indexOf = new Map(works.map((work, at) => [work.id, at]))
const included = new Set<string>()
for (const file of readdirSync(join(worksDir, 'labels')).filter((name) => name.endsWith('.csv')))
  for (const line of readFileSync(join(worksDir, 'labels', file), 'utf8')
    .split('\n')
    .slice(1)) {
    const [id, , , label] = line.split(',')
    if (label?.trim() === '1' && id !== undefined && indexOf.has(id)) included.add(id)
  }
const queries = works.filter((work) => included.has(work.id) && work.title !== '')

interface Measured {
  readonly name: string
  readonly buildMs: number
  readonly embedMsPer1000: number
  readonly queryMs: number
  readonly precisionAt10: number
  readonly recallAt50: number
}

async function measure(name: string, build: () => Promise<Embedder>): Promise<Measured> {
  const started = performance.now()
  const embedder = await build()
  const ready = performance.now()
  const vectors: Float32Array[] = []
  for (let at = 0; at < works.length; at += 100)
    for (const vector of await embedder.embed(works.slice(at, at + 100).map((work) => work.text)))
      vectors.push(unitVector(vector))
  const embedded = performance.now()
  let precision = 0
  let recall = 0
  let queryMs = 0
  for (const query of queries) {
    const asked = performance.now()
    const [raw] = await embedder.embed([query.title])
    queryMs += performance.now() - asked
    const q = unitVector(raw!)
    const self = indexOf.get(query.id)!
    const ranked = vectors
      .map((vector, at) => {
        let dot = 0
        for (let d = 0; d < q.length; d++) dot += q[d]! * vector[d]!
        return { at, dot }
      })
      .filter(({ at }) => at !== self)
      .sort((a, b) => b.dot - a.dot || a.at - b.at)
    precision += ranked.slice(0, 10).filter(({ at }) => works[at]!.review === query.review).length / 10
    const others = queries.filter((other) => other.review === query.review && other.id !== query.id).length
    const found = ranked
      .slice(0, 50)
      .filter(({ at }) => works[at]!.review === query.review && included.has(works[at]!.id)).length
    recall += others === 0 ? 0 : found / others
  }
  return {
    name,
    buildMs: embedded - started,
    embedMsPer1000: ((embedded - ready) / works.length) * 1000,
    queryMs: queryMs / queries.length,
    precisionAt10: precision / queries.length,
    recallAt50: recall / queries.length,
  }
}

const load = loadavg()[0]!
const results = [
  await measure('lsa', async () => {
    const documents = works.map((work) => textTerms(work.text))
    // As ingest sizes it: at most 256 dimensions, a quarter of the documents for a small corpus.
    const dimensions = Math.min(DEFAULT_LSA_DIMENSIONS, Math.max(8, Math.floor(documents.length / 4)))
    return lsaEmbedder(trainLsaModel(documents, { dimensions, seed: 1 }), 'lsa:bench')
  }),
  await measure('use-lite', () => createUseLiteEmbedder({ maxWords })),
]
const share = (value: number) => value.toFixed(3)
process.stdout.write(
  `${[
    `${works.length} real works of ${new Set(works.map((work) => work.review)).size} reviews; ${queries.length} queries (the titles of the included papers); use-lite reads at most ${maxWords} words; ${cpus()[0]?.model}, load ${load.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end`,
    '| embedder | topical P@10 | R@50 | embedding, per 1,000 works | every vector (training or loading included) | a query |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map(
      (result) =>
        `| ${result.name} | ${share(result.precisionAt10)} | ${share(result.recallAt50)} | ${(result.embedMsPer1000 / 1000).toFixed(2)} s | ${(result.buildMs / 1000).toFixed(1)} s | ${result.queryMs.toFixed(1)} ms |`,
    ),
  ].join('\n')}\n`,
)
