// The search fields the index does not hold, and the record path of the strings a search of one scans (the
// raw affiliation strings of works' authorships): a fact of the catalog that every adapter's scan reads.
import type { SearchNode } from '@oqlkit/engine'
import type { CatalogEntity } from '../layout/catalog-entities.ts'

const UNINDEXED_TEXT: Readonly<Partial<Record<CatalogEntity, Readonly<Record<string, string>>>>> = {
  works: { 'raw_affiliation_strings.search': '$.authorships[*].raw_affiliation_strings[*]' },
}

/** The record path of the strings a search scans, when its field is not in the index. */
export const unindexedSearchPath = (entity: CatalogEntity, node: SearchNode): string | undefined =>
  UNINDEXED_TEXT[entity]?.[node.column.id]
