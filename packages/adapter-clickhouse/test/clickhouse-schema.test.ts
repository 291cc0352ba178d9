// The tables a catalog becomes in ClickHouse and their DDL, on one server and on a cluster: the deployment
// guide in the README shows exactly what the code generates, and names that are not plain are refused.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { readCatalogManifest, searchIndexOf } from '@oqlkit/catalog'
import { sharedSampleCatalog } from '@oqlkit/ingest/test-support'
import { beforeAll, describe, expect, it } from 'vitest'
import { catalogVersionsStatements } from '../src/catalog-versions.ts'
import { quoteIdentifier } from '../src/clickhouse-identifiers.ts'
import { catalogSchemaStatements, clickHouseTablesOf } from '../src/clickhouse-schema.ts'

type Manifest = Parameters<typeof clickHouseTablesOf>[0]
let manifest: Manifest

beforeAll(async () => {
  const read = await readCatalogManifest(await sharedSampleCatalog())
  if (!read.ok) throw new Error(read.message)
  manifest = read.manifest
}, 240_000)

/** The statements of the README's ```sql blocks, in order, without their closing semicolons. */
const guideStatements = (): string[] => {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8')
  return [...readme.matchAll(/^```sql\n([\s\S]*?)^```$/gm)].flatMap((match) =>
    (match[1] ?? '')
      .trim()
      .split(/;\n\n/)
      .map((statement) => statement.replace(/;$/, '').trim()),
  )
}

describe('the ClickHouse tables of a catalog', () => {
  it('has a table per entity, per entity of records, per link and per id file, with the manifest row counts', () => {
    const tables = clickHouseTablesOf(manifest)
    const names = tables.map((table) => table.name)
    expect(names).toContain('works')
    expect(names).toContain('works__records')
    expect(names).toContain('work_types')
    expect(names).toContain('link_works_authors')
    const catalogTables = names.filter((name) => !name.startsWith('search_'))
    expect(catalogTables.slice(-5)).toEqual([
      'external_ids',
      'merged_ids',
      'deleted_ids',
      'work_vectors',
      'catalog_files',
    ])
    const entities = Object.keys(manifest.entities).length
    expect(catalogTables).toHaveLength(2 * entities + Object.keys(manifest.links).length + 5)
    const works = tables.find((table) => table.name === 'works')!
    // The loader fits the entity tables' column types to their values once they are loaded. The sample is of
    // format 9: its tables are in the serving database alone, read from their exported files at the layout's
    // paths (`tableFiles`).
    expect(manifest.entities.works.files).toEqual([])
    expect(works.source).toEqual({
      kind: 'parquet',
      files: ['entities/works.parquet'],
      rows: manifest.entities.works.rowCount,
      inTableFiles: true,
      measureColumns: true,
    })
    // A link table: the file's (key, work_id), then its work's corpus and sort keys (typed as the works' own
    // columns), filled by the loader from the works.
    const authors = tables.find((table) => table.name === 'link_works_authors')!
    expect(authors.columns.map((column) => `${column.name} ${column.type}`)).toEqual([
      'key String',
      'work_id String',
      'work_is_xpac Bool',
      'work_cited_by_count Nullable(Int64)',
      'work_publication_date Nullable(Date32)',
      'work_publication_year Nullable(Int32)',
    ])
    expect(authors.source).toEqual({
      kind: 'parquet',
      files: ['links/works-authors.parquet'],
      rows: manifest.links['works-authors']!.rowCount,
      inTableFiles: true,
      withWorkCorpus: true,
    })
    // Every column of the Parquet file, sort keys not nullable, the rest as the catalog types them.
    expect(works.columns.map((column) => column.name)).toEqual(
      manifest.entities.works.columns.map((c) => c.name),
    )
    const typeOf = (name: string) => works.columns.find((column) => column.name === name)?.type
    expect(typeOf('id')).toBe('String')
    expect(typeOf('publication_year')).toBe('Nullable(Int32)')
    expect(typeOf('cited_by_count')).toBe('Nullable(Int64)')
    expect(typeOf('json__authorships__institutions__type')).toBe('Array(String)')
    expect(typeOf('updated_date')).toBe("Nullable(DateTime64(6, 'UTC'))")
    expect(tables.find((table) => table.name === 'works__records')?.source).toEqual({
      kind: 'records',
      entity: 'works',
      rows: manifest.entities.works.rowCount,
    })
  })

  it('reads every entity, link and id table of a format-9 catalog from the exported files, and a format-8 one from its own', () => {
    const sources = (of: Manifest) =>
      new Map(
        clickHouseTablesOf(of).flatMap((table) =>
          table.source.kind === 'parquet' && !table.name.startsWith('search_')
            ? [[table.name, table.source]]
            : [],
        ),
      )
    const exported = sources(manifest)
    expect(exported.get('work_types')).toMatchObject({
      files: ['entities/work-types.parquet'],
      inTableFiles: true,
    })
    expect(exported.get('external_ids')).toMatchObject({
      files: ['ids/external-ids.parquet'],
      inTableFiles: true,
    })
    expect(exported.get('merged_ids')).toMatchObject({
      files: ['ids/merged-ids.parquet'],
      inTableFiles: true,
    })
    expect(exported.get('deleted_ids')).toMatchObject({
      files: ['ids/deleted-ids.parquet'],
      inTableFiles: true,
    })
    expect(exported.size).toBe(Object.keys(manifest.entities).length + Object.keys(manifest.links).length + 3)
    for (const source of exported.values()) expect(source).toMatchObject({ inTableFiles: true })
    // Format 8: each table lists its file in the catalog folder, read there as it is.
    const listed = <T extends { readonly files: readonly string[] }>(table: T, file: string): T => ({
      ...table,
      files: [file],
    })
    const format8: Manifest = {
      ...manifest,
      formatVersion: 8,
      entities: Object.fromEntries(
        Object.entries(manifest.entities).map(([entity, table]) => [
          entity,
          listed(table, `entities/${entity}.parquet`),
        ]),
      ) as Manifest['entities'],
      links: Object.fromEntries(
        Object.entries(manifest.links).map(([name, table]) => [name, listed(table, `links/${name}.parquet`)]),
      ),
      externalIds: listed(manifest.externalIds, 'ids/external-ids.parquet'),
      mergedIds: listed(manifest.mergedIds, 'ids/merged-ids.parquet'),
      deletedIds: listed(manifest.deletedIds, 'ids/deleted-ids.parquet'),
    }
    const own = sources(format8)
    expect(own.get('works')).toEqual({
      kind: 'parquet',
      files: ['entities/works.parquet'],
      rows: manifest.entities.works.rowCount,
      measureColumns: true,
    })
    expect(own.get('link_works_authors')).toEqual({
      kind: 'parquet',
      files: ['links/works-authors.parquet'],
      rows: manifest.links['works-authors']!.rowCount,
      withWorkCorpus: true,
    })
    for (const source of own.values()) expect(source).not.toHaveProperty('inTableFiles')
  })

  it('writes single-server DDL with MergeTree and no cluster clause', () => {
    const statements = catalogSchemaStatements(manifest, { database: 'oqlkit__v1' })
    expect(statements[0]).toBe('CREATE DATABASE `oqlkit__v1`')
    expect(statements).toHaveLength(1 + clickHouseTablesOf(manifest).length)
    for (const statement of statements.slice(1)) {
      expect(statement).toMatch(/^CREATE TABLE `oqlkit__v1`\.`\w+`\n\(\n/)
      expect(statement).toMatch(/\nENGINE = MergeTree\nORDER BY \(/)
      expect(statement).not.toContain('ON CLUSTER')
    }
  })

  it('writes the cluster DDL the deployment guide shows, statement for statement', () => {
    const statements = catalogSchemaStatements(manifest, {
      database: 'oqlkit__v20261125_120000_ab12',
      cluster: 'oqlkit',
    })
    // Two statements a table on a cluster: the replicated local table, then the Distributed one over it; one
    // for a table whole on every node.
    const tables = clickHouseTablesOf(manifest)
    expect(statements).toHaveLength(
      1 + tables.reduce((count, table) => count + (table.wholeOnEveryNode === true ? 1 : 2), 0),
    )
    const shown = ['works__records', 'link_works_authors', 'merged_ids']
    const generated = statements.filter((statement) =>
      shown.some((table) => statement.includes(`\`${table}_local\``)),
    )
    const pointer = catalogVersionsStatements('oqlkit', 'oqlkit')
    expect(guideStatements()).toEqual([...generated, ...pointer])
  })

  it('spreads a work, its record and its links over the same shard', () => {
    const statements = catalogSchemaStatements(manifest, { database: 'db', cluster: 'c' })
    const distributed = (table: string) =>
      statements.find((statement) => statement.startsWith(`CREATE TABLE \`db\`.\`${table}\` ON CLUSTER`))
    expect(distributed('works')).toContain('cityHash64(`id`)')
    expect(distributed('works__records')).toContain('cityHash64(`id`)')
    for (const relation of Object.keys(manifest.links))
      expect(distributed(`link_${relation.replaceAll('-', '_')}`)).toContain('cityHash64(`work_id`)')
  })

  it('keeps the works’ vectors sharded by work and the model files whole on every node', () => {
    const tables = clickHouseTablesOf(manifest)
    const vectors = tables.find((table) => table.name === 'work_vectors')!
    const extension = manifest.extensions.vectors as {
      file: string
      matrixFile: string
      dimensions: number
      count: number
      lsa: { vocabularyFile: string; projectionFile: string }
    }
    expect(vectors.source).toEqual({
      kind: 'vectors',
      idsFile: extension.file,
      matrixFile: extension.matrixFile,
      dimensions: extension.dimensions,
      rows: extension.count,
      // The sample catalog is of format 8: its vectors are in id order, letter ids by number.
      order: 'by-number',
    })
    expect(vectors.columns.map((column) => `${column.name} ${column.type}`)).toEqual([
      'id String',
      'vector Array(Int8)',
      'norm Float32',
    ])
    const files = tables.find((table) => table.name === 'catalog_files')!
    expect(files.source).toEqual({
      kind: 'files',
      files: [
        'catalog.json',
        extension.lsa.vocabularyFile,
        extension.lsa.projectionFile,
        (manifest.extensions.textTagger as { file: string }).file,
      ],
      rows: 4,
    })
    const statements = catalogSchemaStatements(manifest, { database: 'db', cluster: 'c' })
    expect(
      statements.find((statement) => statement.startsWith('CREATE TABLE `db`.`work_vectors` ON CLUSTER')),
    ).toContain('cityHash64(`id`)')
    const whole = statements.filter((statement) => statement.includes('`catalog_files'))
    expect(whole).toEqual([
      "CREATE TABLE `db`.`catalog_files` ON CLUSTER `c`\n(\n  `path` String,\n  `content` String CODEC(ZSTD(3))\n)\nENGINE = ReplicatedMergeTree('/clickhouse/tables/all/db/catalog_files', '{shard}_{replica}')\nORDER BY (`path`)",
    ])
  })

  it('spreads the search index of works by the work a posting is of, and keeps whole what every shard reads', () => {
    const tables = clickHouseTablesOf(manifest)
    const index = searchIndexOf(manifest)!
    const works = index.entities.works!
    const rowsOf = (paths: readonly string[]) =>
      paths.reduce((sum, path) => sum + (index.files.find((file) => file.path === path)?.rows ?? 0), 0)
    const postings = tables.find((table) => table.name === 'search_works__exact_postings')!
    expect(postings.source).toEqual({
      kind: 'parquet',
      files: works.files.exact.postings,
      rows: rowsOf(works.files.exact.postings),
    })
    expect(postings.source.rows).toBeGreaterThan(10_000)
    expect(postings.orderBy).toEqual(['term', 'field', 'doc'])
    // Every indexed entity has its documents, and both modes' postings and dictionaries.
    for (const entity of Object.keys(index.entities)) {
      const name = entity.replaceAll('-', '_')
      for (const kind of ['docs', 'exact_postings', 'stemmed_postings', 'exact_terms', 'stemmed_terms'])
        expect(tables.map((table) => table.name)).toContain(`search_${name}__${kind}`)
    }
    const statements = catalogSchemaStatements(manifest, { database: 'db', cluster: 'c' })
    const distributed = (table: string) =>
      statements.find((statement) => statement.startsWith(`CREATE TABLE \`db\`.\`${table}\` ON CLUSTER`))
    // The hash of `concat('W', toString(doc))` is the hash of the work's id: the posting lives with its work.
    expect(distributed('search_works__stemmed_postings')).toContain(
      "cityHash64(concat('W', toString(`doc`)))",
    )
    expect(distributed('search_works__docs')).toContain("cityHash64(concat('W', toString(`doc`)))")
    // Numbered by rank (work types) or a dictionary: one replicated table on every node, no Distributed one.
    for (const whole of ['search_work_types__exact_postings', 'search_works__exact_terms']) {
      expect(distributed(whole)).toContain(`ReplicatedMergeTree('/clickhouse/tables/all/db/${whole}'`)
      expect(statements.some((statement) => statement.includes(`\`${whole}_local\``))).toBe(false)
    }
  })

  it('refuses names that are not plain, rather than escaping them', () => {
    for (const hostile of ['a`b', 'a b', 'db; DROP TABLE x', '', '1abc', 'é', 'a.b', 'x'.repeat(201)])
      expect(() => quoteIdentifier(hostile), hostile).toThrow(/letters, digits and underscores/)
    expect(() => catalogSchemaStatements(manifest, { database: 'x`; DROP DATABASE y; --' })).toThrow()
    expect(() => catalogSchemaStatements(manifest, { database: 'db', cluster: "c') --" })).toThrow()
    expect(quoteIdentifier('_ok_9')).toBe('`_ok_9`')
  })
})
