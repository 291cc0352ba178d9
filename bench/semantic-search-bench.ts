// The semantic search benchmark: quality of the built-in LSA embedder against plain keyword search, and the
// latency of semantic search, on one catalog.
//
//   npm run bench:semantic -- --catalog DIR [--queries 200] [--seed 1] [--hold-out 0.2] [--dimensions 256 (at most)]
//                             [--max-training N (the build's default)] [--rebuild] [--latency-rounds 50]
//
// Quality. The catalog's vectors are (re)built with a held-out share of the works (default 20%) that the LSA
// model never trains on (`--rebuild`, or when the catalog's vectors hold none out). For held-out works with
// an abstract, the abstract alone (cut to 2,000 characters) is the query:
//   - recall@10: the share of queries whose own work is in the top 10 (the title is not in the query, so
//     the work is found by its abstract's meaning, and its vector was made from title + abstract);
//   - related@10: for works whose `related_works` has works in the catalog, the mean share of the top 10
//     (the work itself left out) that are related works, and the share of queries with at least one.
// The baseline is keyword search (`search=`, BM25 with the citation boost, as the API ranks it) on the
// abstract's 10 most informative words (highest idf in the model's vocabulary; words it lacks count as
// rarest) joined by OR: all of an abstract's words ANDed would match the work alone, which says nothing.
//
// Latency. Semantic search through the adapter (embedding, the vector search, the page's records), per_page
// 10, alone and with a filter, median and p95 over `--latency-rounds` queries after warm-up; and the vector
// search alone, by the catalog's list index (when it has one) against the exact scan, with its recall@10.
//
// The list index alone, on synthesised vectors (no catalog; see `semantic-index-bench.ts`):
//
//   npm run bench:semantic -- --synthetic 100000 [--kind clustered|random] [--dimensions 256] [--queries 200]
//                             [--seed 1] [--sweep]
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import {
  catalogTableRelations,
  createDuckDbAdapter,
  createDuckDbInstance,
  readCatalogWorkVectors,
  SERVING_DATABASE_NAME,
  tablesInServingDatabase,
} from '@oqlkit/adapter-duckdb'
import {
  constantLiteral,
  isHeldOut,
  readCatalogManifest,
  SERVING_DATABASE_FILE,
  vectorIndexOf,
} from '@oqlkit/catalog'
import { planQuery, type StorageAdapter, unitVector } from '@oqlkit/engine'
import { connectionSession, indexCatalogVectors, RecordTextsFiles, readWorkTexts } from '@oqlkit/ingest'
import type { Oqo } from '@oqlkit/oqo-schema'
import { exactTokens, porterStem, readLsaModel } from '@oqlkit/text-models'
import { formatMs, median, percentile } from './bench-stats.ts'

const { values: args } = parseArgs({
  options: {
    catalog: { type: 'string' },
    queries: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    'hold-out': { type: 'string', default: '0.2' },
    dimensions: { type: 'string', default: '256' },
    'max-training': { type: 'string' },
    rebuild: { type: 'boolean', default: false },
    'latency-rounds': { type: 'string', default: '50' },
    synthetic: { type: 'string' },
    kind: { type: 'string', default: 'clustered' },
    sweep: { type: 'boolean', default: false },
  },
})
if (args.synthetic !== undefined) {
  const kind = args.kind
  if (kind !== 'clustered' && kind !== 'random') throw new Error(`--kind is clustered or random, not ${kind}`)
  const { runSemanticIndexBench } = await import('./semantic-index-bench.ts')
  await runSemanticIndexBench({
    rows: Number(args.synthetic),
    kind,
    dimensions: Number(args.dimensions),
    queries: Number(args.queries),
    seed: Number(args.seed),
    sweep: args.sweep,
  })
  process.exit(0)
}
if (args.catalog === undefined) {
  console.error('usage: semantic-search-bench --catalog DIR [--queries N] [--hold-out 0.2] [--rebuild]')
  process.exit(2)
}
const catalogDir = resolve(args.catalog)
const seed = Number(args.seed)
const holdOut = Number(args['hold-out'])
const dimensions = Number(args.dimensions)
const queryCount = Number(args.queries)
const maxTraining = args['max-training'] === undefined ? undefined : Number(args['max-training'])

const manifestOf = async () => {
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) throw new Error(read.message)
  return read.manifest
}

let vectors = vectorIndexOf(await manifestOf())
if (
  args.rebuild ||
  vectors?.lsa === undefined ||
  vectors.lsa.holdOutFraction !== holdOut ||
  vectors.lsa.seed !== seed
) {
  const started = performance.now()
  const built = await indexCatalogVectors({
    catalogDir,
    vectors: {
      kind: 'lsa',
      seed,
      holdOutFraction: holdOut,
      dimensions,
      ...(maxTraining === undefined ? {} : { maxTrainingDocuments: maxTraining }),
    },
  })
  vectors = built.vectors
  console.log(
    `built LSA vectors: ${vectors.count.toLocaleString('en-US')} works, ${vectors.lsa!.terms.toLocaleString('en-US')} terms, trained on ${vectors.lsa!.trainingDocuments.toLocaleString('en-US')} works, ${vectors.dimensions} dimensions, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
}
const lsa = vectors!.lsa!
const manifest = await manifestOf()
const { model } = await readLsaModel(
  {
    vocabulary: resolve(catalogDir, lsa.vocabularyFile),
    projection: resolve(catalogDir, lsa.projectionFile),
  },
  vectors!.dimensions,
)

// The held-out works with an abstract: their abstract and related works.
const instance = await createDuckDbInstance()
const connection = await instance.connect()
// The works' table: its file, or (format 9) the serving database, attached read-only.
if (tablesInServingDatabase(manifest))
  await connection.run(
    `ATTACH ${constantLiteral(resolve(catalogDir, SERVING_DATABASE_FILE))} AS ${SERVING_DATABASE_NAME} (READ_ONLY)`,
  )
const works = catalogTableRelations(catalogDir, manifest, { ordered: false }).entity('works')
const source = {
  rows: async (sql: string, params: readonly unknown[] = []) =>
    (await connection.runAndReadAll(sql, [...(params as never[])])).getRowObjectsJson() as Record<
      string,
      unknown
    >[],
}
const shortId = (id: string) => id.replace(/^https?:\/\/openalex\.org\//i, '').toUpperCase()
interface Probe {
  readonly id: string
  readonly abstract: string
  related: string[]
}
const probes: Probe[] = []
// The works' texts are read from the record store into a texts file first (the catalog keeps no copy).
const textsDir = mkdtempSync(join(tmpdir(), 'oqlkit-bench-texts-'))
const worksTexts = await (
  await RecordTextsFiles.ofCatalog(connectionSession(connection), catalogDir, textsDir)
).of('works')
for await (const batch of readWorkTexts(source, worksTexts, 32_768)) {
  for (const work of batch) {
    const split = work.text.indexOf('\n\n')
    if (split === -1 || !isHeldOut(work.id, seed, holdOut)) continue
    const abstract = work.text.slice(split + 2)
    if (abstract.split(' ').length < 20) continue
    probes.push({ id: shortId(work.id), abstract: abstract.slice(0, 2000), related: [] })
  }
}
// A deterministic spread over the id range rather than the lowest ids.
probes.sort(
  (a, b) =>
    (isHeldOut(`order/${a.id}`, seed, 0.5) ? 0 : 1) - (isHeldOut(`order/${b.id}`, seed, 0.5) ? 0 : 1) ||
    (a.id < b.id ? -1 : 1),
)
probes.length = Math.min(probes.length, queryCount)
const allIds = new Set((await source.rows(`SELECT id FROM ${works}`)).map((row) => shortId(String(row.id))))
connection.closeSync()
instance.closeSync()
rmSync(textsDir, { recursive: true, force: true })

/** The 10 most informative words of a text: highest idf in the model's vocabulary (unknown: rarest). */
const informativeWords = (text: string): string[] => {
  const vectorizer = model.vectorizer
  const rarest = Math.log(1 + vectorizer.documentCount) + 1
  const scored = new Map<string, number>()
  for (const token of exactTokens(text)) {
    if (token.length < 3 || !/^[a-z]+$/.test(token) || scored.has(token)) continue
    const id = vectorizer.termId(porterStem(token))
    scored.set(token, id === undefined ? rarest : vectorizer.idf(id))
  }
  return [...scored.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 10)
    .map(([word]) => word)
}

const adapter: StorageAdapter = await createDuckDbAdapter({ catalogDir })
// Each probe's related works, read from the record store through the adapter (the works file keeps no
// records since catalog format 6).
for (const probe of probes) {
  const planned = planQuery(
    { get_rows: 'works', filter_rows: [{ column_id: 'ids.openalex', value: probe.id, operator: 'is' }] },
    { perPage: 1, select: ['id', 'related_works'] },
  )
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  const [row] = (await adapter.queryRows(planned.plan)).rows
  probe.related = ((row?.related_works as string[] | null | undefined) ?? [])
    .map((id) => shortId(String(id)))
    .filter((id) => allIds.has(id) && id !== probe.id)
}
const run = async (oqo: Oqo, perPage = 10): Promise<{ ids: string[]; ms: number }> => {
  const planned = planQuery(oqo, { perPage, select: ['id'] })
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  const started = performance.now()
  const result = await adapter.queryRows(planned.plan)
  return { ids: result.rows.map((row) => shortId(String(row.id))), ms: performance.now() - started }
}
const semanticOqo = (text: string, filter: Oqo['filter_rows'] = []): Oqo => ({
  get_rows: 'works',
  filter_rows: [{ column_id: 'abstract.search.semantic', value: text, operator: 'has' }, ...(filter ?? [])],
})
const keywordOqo = (words: readonly string[]): Oqo => ({
  get_rows: 'works',
  filter_rows: [
    {
      join: 'or',
      filters: words.map((word) => ({ column_id: 'fulltext.search', value: word, operator: 'has' })),
    },
  ],
})

interface Quality {
  found: number
  relatedQueries: number
  relatedShare: number
  relatedHit: number
  times: number[]
}
const quality = (): Quality => ({ found: 0, relatedQueries: 0, relatedShare: 0, relatedHit: 0, times: [] })
const semantic = quality()
const keyword = quality()
const score = (into: Quality, probe: Probe, answer: { ids: string[]; ms: number }) => {
  into.times.push(answer.ms)
  if (answer.ids.includes(probe.id)) into.found++
  if (probe.related.length === 0) return
  const related = new Set(probe.related)
  const hits = answer.ids.filter((id) => id !== probe.id && related.has(id)).length
  into.relatedQueries++
  into.relatedShare += hits / 10
  if (hits > 0) into.relatedHit++
}
for (const probe of probes) {
  score(semantic, probe, await run(semanticOqo(probe.abstract)))
  const words = informativeWords(probe.abstract)
  if (words.length > 0) score(keyword, probe, await run(keywordOqo(words)))
  else keyword.times.push(0)
}

const percent = (value: number, of: number) => (of === 0 ? 'n/a' : `${((100 * value) / of).toFixed(1)}%`)
console.log(
  `\n${manifest.entities.works.rowCount.toLocaleString('en-US')} works; ${vectors!.count.toLocaleString('en-US')} with a vector; ${probes.length} held-out queries (abstract only); ${semantic.relatedQueries} of them with related works in the catalog\n`,
)
console.log(
  '| search | recall@10 (own work) | related@10 (share of top 10) | queries with ≥1 related in top 10 | median ms | p95 ms |',
)
console.log('|---|---:|---:|---:|---:|---:|')
for (const [name, q] of [
  ['semantic (LSA)', semantic],
  ['keyword (10 rarest words, OR)', keyword],
] as const)
  console.log(
    `| ${name} | ${percent(q.found, probes.length)} | ${percent(q.relatedShare, q.relatedQueries)} | ${percent(q.relatedHit, q.relatedQueries)} | ${formatMs(median(q.times))} | ${formatMs(percentile(q.times, 95))} |`,
  )

// Latency: the same query texts again (warm), alone and with a filter that keeps about half the works.
const rounds = Math.min(Number(args['latency-rounds']), probes.length)
const texts = probes.slice(0, rounds).map((probe) => probe.abstract)
for (const text of texts.slice(0, 3)) await run(semanticOqo(text))
const alone: number[] = []
const filtered: number[] = []
for (const text of texts) {
  alone.push((await run(semanticOqo(text))).ms)
  filtered.push(
    (await run(semanticOqo(text, [{ column_id: 'publication_year', value: 2015, operator: '>' }]))).ms,
  )
}
console.log(`\nlatency over ${texts.length} queries (per_page 10, warm):\n`)
console.log('| semantic search | median ms | p95 ms |')
console.log('|---|---:|---:|')
console.log(`| alone | ${formatMs(median(alone))} | ${formatMs(percentile(alone, 95))} |`)
console.log(
  `| with filter publication_year > 2015 | ${formatMs(median(filtered))} | ${formatMs(percentile(filtered, 95))} |`,
)
await adapter.close()

// The vector search alone: the list index (when the catalog has one) against the exact scan of every vector,
// on the same query texts' embeddings; recall@10 of the index against the exact answer.
const read = await readCatalogWorkVectors(catalogDir)
if (read?.embedder !== undefined) {
  const { searcher, embedder, vectors: built } = read
  const embedded = (await embedder.embed(texts)).map((vector) => unitVector(vector))
  const timed = <T>(run: () => T): [T, number] => {
    const started = performance.now()
    const answer = run()
    return [answer, performance.now() - started]
  }
  const exactTimes: number[] = []
  const indexTimes: number[] = []
  let recall = 0
  for (const query of embedded) {
    const [exact, exactMs] = timed(() => searcher.matrix.nearest(query, 50))
    const [found, indexMs] = timed(() => searcher.nearest(query, 50))
    exactTimes.push(exactMs)
    indexTimes.push(indexMs)
    const wanted = new Set(exact.slice(0, 10).map((match) => match.id))
    recall += found.slice(0, 10).filter((match) => wanted.has(match.id)).length / Math.max(1, wanted.size)
  }
  const listIndex = built.listIndex
  console.log(
    `\nvector search alone over ${searcher.matrix.rows.toLocaleString('en-US')} vectors, ${texts.length} queries, 50 nearest; ${listIndex === undefined ? 'the catalog has no list index (too few vectors, or none paid at build): both rows are the exact scan' : `list index of ${listIndex.lists} lists scoring ${listIndex.scanRows.toLocaleString('en-US')} rows (recall ${listIndex.recall.toFixed(3)} at build)`}\n`,
  )
  console.log('| vector search | recall@10 | median ms | p95 ms |')
  console.log('|---|---:|---:|---:|')
  console.log(
    `| exact scan | 1 | ${formatMs(median(exactTimes))} | ${formatMs(percentile(exactTimes, 95))} |`,
  )
  console.log(
    `| ${searcher.index === undefined ? 'exact scan (no index)' : 'list index'} | ${(recall / embedded.length).toFixed(3)} | ${formatMs(median(indexTimes))} | ${formatMs(percentile(indexTimes, 95))} |`,
  )
}
