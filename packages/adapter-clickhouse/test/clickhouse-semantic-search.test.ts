// Semantic search and the text tagger from a catalog loaded into ClickHouse: the load puts the works' vectors
// and the model files in (counted), a server reads the same embedder and tagger back, and a semantic search
// through the adapter answers as the DuckDB adapter does on the catalog folder. ClickHouse is the engine itself
// (chdb) behind the test stand-in for a server's HTTP interface; the catalog is the bundled sample.

import { createHash } from 'node:crypto'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ClickHouseClient, createClient } from '@clickhouse/client'
import { createDuckDbAdapter, type DuckDbAdapter, readCatalogWorkVectors } from '@oqlkit/adapter-duckdb'
import {
  catalogVersionOf,
  createColumnMap,
  loadCatalogTagger,
  readCatalogManifest,
  textTaggerOf,
  vectorIndexOf,
} from '@oqlkit/catalog'
import {
  planQuery,
  type QueryPlan,
  SEMANTIC_SEARCH_LIMITS,
  type StorageAdapter,
  searchNodesOf,
  TAG_KINDS,
  UnsupportedPlanError,
  type ViewParameters,
} from '@oqlkit/engine'
import type { Oqo } from '@oqlkit/oqo-schema'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClickHouseAdapter } from '../src/clickhouse-adapter.ts'
import { readClickHouseCatalogModels } from '../src/clickhouse-catalog-models.ts'
import { CLICKHOUSE_COLUMN_DIALECT } from '../src/clickhouse-column-dialect.ts'
import { QueryParams } from '../src/clickhouse-filter-compiler.ts'
import {
  ClickHouseSemanticSearch,
  nearestWorksStatement,
  semanticMatchesRelation,
} from '../src/clickhouse-semantic-search.ts'
import { loadCatalogExportingTables } from './support/catalog-table-files.ts'
import { chdbInstalled } from './support/chdb-availability.ts'
import { sharedClickHouseSample } from './support/shared-clickhouse-sample.ts'

// Every suite here runs on chdb: skipped where it is not installed (`support/chdb-availability.ts`).
const onChdb = describe.skipIf(!chdbInstalled())

const scratch = mkdtempSync(join(tmpdir(), 'oqlkit-clickhouse-semantic-'))
let client: ClickHouseClient
let catalogDir: string
let database: string
let duckdb: DuckDbAdapter
let clickhouse: StorageAdapter

beforeAll(async () => {
  const sample = await sharedClickHouseSample()
  catalogDir = sample.catalogDir
  client = createClient({ url: sample.url })
  database = sample.database
  duckdb = await createDuckDbAdapter({ catalogDir })
  clickhouse = createClickHouseAdapter({ client, catalog: sample.catalog })
}, 240_000)
afterAll(async () => {
  await duckdb?.close()
  await client?.close()
  rmSync(scratch, { recursive: true, force: true })
})

const manifestOf = async (dir: string) => {
  const read = await readCatalogManifest(dir)
  if (!read.ok) throw new Error(read.message)
  return read.manifest
}

const rowsOf = async <T>(query: string): Promise<T[]> =>
  (await (await client.query({ query, format: 'JSONEachRow' })).json()) as T[]

const semantic = (text: string, rest: Oqo['filter_rows'] & object = []): Oqo => ({
  get_rows: 'works',
  filter_rows: [{ column_id: 'semantic.search', value: text, operator: 'has' }, ...rest],
})

const planOf = (oqo: Oqo, view: ViewParameters = {}): QueryPlan => {
  const planned = planQuery(oqo, view)
  if (!planned.ok) throw new Error(JSON.stringify(planned.errors))
  return planned.plan
}

onChdb(
  'semantic search and the tagger from ClickHouse (chdb behind the test stand-in for its HTTP interface)',
  () => {
    it('loads the works’ vectors as the catalog stores them and the model files, counted', async () => {
      const manifest = await manifestOf(catalogDir)
      const vectors = vectorIndexOf(manifest)!
      const tagger = textTaggerOf(manifest)!
      expect(vectors.embedder.kind).toBe('lsa')
      const db = `\`${database}\``
      const [counted] = await rowsOf<{ n: string }>(`SELECT count() AS n FROM ${db}.work_vectors`)
      expect(Number(counted!.n)).toBe(vectors.count)
      // The first and the last row: the matrix's int8 bytes and the row's norm, beside the right id (the matrix's
      // rows are in id order: letter ids by number).
      const matrix = new Int8Array(readFileSync(join(catalogDir, vectors.matrixFile)))
      const d = vectors.dimensions
      const stored = await rowsOf<{ id: string; vector: number[]; norm: number }>(
        `SELECT id, vector, norm FROM ${db}.work_vectors ORDER BY toInt64(substring(id, 2)), id`,
      )
      expect(stored[0]!.vector).toEqual(Array.from(matrix.subarray(0, d)))
      expect(stored.at(-1)!.vector).toEqual(Array.from(matrix.subarray((vectors.count - 1) * d)))
      const exact = await readCatalogWorkVectors(catalogDir)
      expect(stored.map((row) => row.id)).toEqual(exact!.searcher.matrix.ids)
      // ClickHouse writes a Float32 as the shortest text that reads back as the same float32.
      expect(stored.map((row) => Math.fround(row.norm))).toEqual(Array.from(exact!.searcher.matrix.norms))
      // The model files, byte for byte, and catalog.json.
      const files = [vectors.lsa!.vocabularyFile, vectors.lsa!.projectionFile, tagger.file, 'catalog.json']
      const kept = await rowsOf<{ path: string; bytes: string; digest: string }>(
        `SELECT path, length(content) AS bytes, hex(SHA256(content)) AS digest FROM ${db}.catalog_files ORDER BY path`,
      )
      expect(kept.map((row) => row.path)).toEqual([...files].sort())
      for (const row of kept) {
        const bytes = readFileSync(join(catalogDir, row.path))
        expect(Number(row.bytes), row.path).toBe(bytes.length)
        expect(row.digest, row.path).toBe(createHash('sha256').update(bytes).digest('hex').toUpperCase())
      }
    }, 60_000)

    it('reads back the embedder and the tagger a server of the folder builds', async () => {
      const models = await readClickHouseCatalogModels(client, database)
      const folder = await readCatalogWorkVectors(catalogDir)
      expect(models.vectors).toEqual(folder!.vectors)
      expect(models.embedder?.modelId).toBe(folder!.embedder!.modelId)
      const texts = ['coral reef bleaching', 'deep learning for protein structure']
      expect(await models.embedder!.embed(texts)).toEqual(await folder!.embedder!.embed(texts))
      const tagger = await loadCatalogTagger(catalogDir)
      expect(models.tagger?.kinds).toEqual(tagger!.kinds)
      const input = {
        title: 'Machine learning of protein folding',
        abstract: 'Neural networks predict structure.',
      }
      for (const kind of TAG_KINDS)
        expect(await models.tagger!.tag(input, kind), kind).toEqual(await tagger!.tag(input, kind))
    })

    it('scores the nearest works as the exact scan of the catalog folder does, every value a parameter', async () => {
      const folder = (await readCatalogWorkVectors(catalogDir))!
      const search = new ClickHouseSemanticSearch(client)
      const text = 'coral reef bleaching and ocean warming'
      const plan = planOf(semantic(text))
      const queries = await search.embed(database, 'works', plan)
      const node = searchNodesOf(plan.filter)[0]!.node
      const params = new QueryParams()
      const context = { database, map: createColumnMap(CLICKHOUSE_COLUMN_DIALECT), params }
      const sql = nearestWorksStatement(context, node, 'true', queries)!
      expect(sql).not.toContain('coral')
      const found = (await (
        await client.query({ query: sql, query_params: params.values, format: 'JSONEachRow' })
      ).json()) as { id: string; score: number }[]
      const exact = folder.searcher.matrix.nearest(queries.get(text)!, SEMANTIC_SEARCH_LIMITS.maxResults)
      expect(found.map((row) => row.id)).toEqual(exact.map((match) => match.id))
      for (const [index, row] of found.entries()) expect(row.score).toBeCloseTo(exact[index]!.score, 9)
      // The matches go into the request's statements as bound constants, ids and scores as found.
      const bound = new QueryParams()
      const relation = semanticMatchesRelation({ ...context, params: bound }, found)
      expect(relation).not.toContain(found[0]!.id)
      const read = (await (
        await client.query({ query: relation, query_params: bound.values, format: 'JSONEachRow' })
      ).json()) as { id: string; score: number }[]
      expect(read).toEqual(found)
    })

    it('finds the works DuckDB finds, with the same cosines, alone, filtered, paged and grouped', async () => {
      const cases: [Oqo, ViewParameters][] = [
        [semantic('coral reef bleaching and ocean warming'), {}],
        [semantic('neural networks for image recognition'), { perPage: 10 }],
        [semantic('neural networks for image recognition'), { perPage: 10, page: 2 }],
        [
          semantic('cancer treatment outcomes', [
            { column_id: 'publication_year', value: 2015, operator: '>' },
          ]),
          { perPage: 50 },
        ],
        [semantic('qqqzzzx'), {}],
      ]
      for (const [oqo, view] of cases) {
        const plan = planOf(oqo, view)
        const [fromDuckDb, fromClickHouse] = await Promise.all([
          duckdb.queryRows(plan),
          clickhouse.queryRows(plan),
        ])
        const label = JSON.stringify([oqo.filter_rows, view])
        expect(fromClickHouse.count, label).toBe(fromDuckDb.count)
        expect(
          fromClickHouse.rows.map((row) => row.id),
          label,
        ).toEqual(fromDuckDb.rows.map((row) => row.id))
        for (const [index, row] of fromClickHouse.rows.entries())
          expect(row.relevance_score, label).toBeCloseTo(fromDuckDb.rows[index]!.relevance_score as number, 6)
      }
      expect((await clickhouse.queryRows(planOf(semantic('coral reef bleaching')))).count).toBeGreaterThan(0)
      const grouped = planOf({
        ...semantic('climate change adaptation'),
        group_by: [{ column_id: 'publication_year' }],
      })
      const [groupsDuckDb, groupsClickHouse] = await Promise.all([
        duckdb.queryGroups(grouped),
        clickhouse.queryGroups(grouped),
      ])
      expect(groupsClickHouse).toEqual(groupsDuckDb)
    }, 60_000)

    it('has no vectors or model files for a catalog built without them, and says semantic search is unavailable', async () => {
      const bare = join(scratch, 'bare')
      cpSync(catalogDir, bare, { recursive: true })
      const manifest = JSON.parse(readFileSync(join(bare, 'catalog.json'), 'utf8'))
      delete manifest.extensions.vectors
      delete manifest.extensions.textTagger
      // Nor a search index, which plays no part here: 115 of the sample's 179 tables, half of the load's CPU.
      delete manifest.extensions.search
      writeFileSync(join(bare, 'catalog.json'), JSON.stringify(manifest))
      const loaded = await loadCatalogExportingTables({ catalogDir: bare, client, catalog: 'semantic_bare' })
      const db = `\`${loaded.database}\``
      const [vectors] = await rowsOf<{ n: string }>(`SELECT count() AS n FROM ${db}.work_vectors`)
      expect(Number(vectors!.n)).toBe(0)
      expect(await rowsOf(`SELECT path FROM ${db}.catalog_files`)).toEqual([{ path: 'catalog.json' }])
      const models = await readClickHouseCatalogModels(client, loaded.database)
      expect(models).toEqual({
        vectors: undefined,
        embedder: undefined,
        tagger: undefined,
        // The version of its data is still named: catalog.json was loaded.
        dataVersion: catalogVersionOf(manifest),
      })
      const adapter = createClickHouseAdapter({ client, catalog: 'semantic_bare' })
      const failure = await adapter
        .queryRows(planOf(semantic('coral reefs')))
        .catch((error: unknown) => error)
      expect(failure).toBeInstanceOf(UnsupportedPlanError)
      expect((failure as UnsupportedPlanError).message).toContain('no vectors of works')
    }, 120_000)
  },
)
