// The full-text search index of a catalog (`@oqlkit/catalog`'s `search/` layout: its README) as
// ClickHouse tables, one per kind of index file and entity, so a server without the folder searches as the
// DuckDB adapter does, with the same BM25 scores:
//
//   search_<entity>__docs               (doc, id)                                    ordered by doc
//   search_<entity>__<mode>_postings    (term, field, doc, tf, len, positions)        ordered by term, field, doc
//   search_<entity>__<mode>_terms       (term, field, df, cf)                         ordered by term, field
//
// with <mode> `exact` or `stemmed`; a mode's postings buckets all go into its one table, whose primary key on
// `term` finds a term's granules as the buckets' bounds do for DuckDB. After an update, the table holds the
// postings that count: the buckets' rows of documents not masked, and the delta's.
//
// On a cluster, the postings and documents of an entity whose ids are a letter and a number (works, authors,
// …) are spread by the id a document number stands for (`concat(<letter>, toString(doc))`), the very hash
// that places the record, so each shard scores its own records alone. The scores need no other shard: the
// collection statistics they use are the whole catalog's, from the manifest, and the term dictionaries, which
// give every word its document frequency, are whole on every node, as is every table of an entity numbered
// by rank (small vocabularies such as work types).
import type { CatalogEntity, CatalogManifest, SearchEntityIndex, SearchMode } from '@oqlkit/catalog'
import { SEARCH_MODES, searchIndexOf } from '@oqlkit/catalog'
import { quoteIdentifier } from './clickhouse-identifiers.ts'
import type { ClickHouseTable } from './clickhouse-table.ts'

export type SearchTableKind = 'docs' | `${SearchMode}_postings` | `${SearchMode}_terms`

/** The table of one kind of index file of an entity. */
export const searchTableName = (entity: CatalogEntity, kind: SearchTableKind): string =>
  `search_${entity.replaceAll('-', '_')}__${kind}`

// An id letter goes into a shard expression as a literal: it must be one capital letter, as catalogs write it.
const ID_LETTER = /^[A-Z]$/

const POSTINGS_COLUMNS = [
  { name: 'term', type: 'String' },
  { name: 'field', type: 'UInt8' },
  { name: 'doc', type: 'UInt64' },
  { name: 'tf', type: 'UInt32' },
  { name: 'len', type: 'UInt32' },
  { name: 'positions', type: 'Array(Int32)' },
] as const

const TERMS_COLUMNS = [
  { name: 'term', type: 'String' },
  { name: 'field', type: 'UInt8' },
  { name: 'df', type: 'UInt32' },
  { name: 'cf', type: 'UInt64' },
] as const

/** Every search table of a catalog with a search index (none without one). */
export const searchTablesOf = (manifest: CatalogManifest): readonly ClickHouseTable[] => {
  const index = searchIndexOf(manifest)
  if (index === undefined) return []
  const rowsOf = new Map(index.files.map((file) => [file.path, file.rows]))
  const rows = (paths: readonly string[]): number =>
    paths.reduce((total, path) => total + (rowsOf.get(path) ?? 0), 0)
  const tables: ClickHouseTable[] = []
  for (const [entity, entityIndex] of Object.entries(index.entities) as [
    CatalogEntity,
    SearchEntityIndex,
  ][]) {
    const letter = entityIndex.idPrefix
    if (letter !== null && !ID_LETTER.test(letter))
      throw new Error(
        `catalog.json gives the search index of ${entity} the id letter ${JSON.stringify(letter)}`,
      )
    // The id a document stands for, as the works' tables are sharded by it; null: whole on every node.
    const placed =
      letter === null
        ? { shardBy: quoteIdentifier('doc'), wholeOnEveryNode: true }
        : { shardBy: `concat('${letter}', toString(${quoteIdentifier('doc')}))` }
    const files = entityIndex.files
    tables.push({
      name: searchTableName(entity, 'docs'),
      columns: [
        { name: 'doc', type: 'UInt64' },
        { name: 'id', type: 'String' },
      ],
      orderBy: ['doc'],
      ...placed,
      source: { kind: 'parquet', files: [files.docs], rows: rows([files.docs]) },
    })
    const delta = entityIndex.delta
    for (const mode of SEARCH_MODES) {
      tables.push({
        name: searchTableName(entity, `${mode}_postings`),
        columns: POSTINGS_COLUMNS,
        orderBy: ['term', 'field', 'doc'],
        ...placed,
        source:
          delta === undefined
            ? { kind: 'parquet', files: files[mode].postings, rows: rows(files[mode].postings) }
            : {
                kind: 'parquet',
                files: files[mode].postings,
                rows: delta.postings[mode],
                postingsDelta: { masked: delta.masked, delta: delta[mode] },
              },
      })
      tables.push({
        name: searchTableName(entity, `${mode}_terms`),
        columns: TERMS_COLUMNS,
        orderBy: ['term', 'field'],
        shardBy: quoteIdentifier('term'),
        wholeOnEveryNode: true,
        source: { kind: 'parquet', files: [files[mode].terms], rows: rows([files[mode].terms]) },
      })
    }
  }
  return tables
}
