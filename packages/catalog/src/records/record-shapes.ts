// Which fields of the stored records hold lists, per entity. A registry column id is a dotted path into the
// record (`authorships.institutions.id`); where a step of that path is a list, its JSON path needs a `[*]`
// (`$.authorships[*].institutions[*].id`) and the column is multi-valued. A test checks this table against
// every record of the bundled sample, so a list the table misses fails there rather than silently matching
// nothing.
import type { CatalogEntity } from '../layout/catalog-entities.ts'

const COMMON = ['counts_by_year', 'x_concepts', 'topics', 'topic_share', 'display_name_alternatives', 'roles']

const LISTS: Readonly<Partial<Record<CatalogEntity, readonly string[]>>> = {
  works: [
    'indexed_in',
    'authorships',
    'authorships.institutions',
    'authorships.institutions.lineage',
    'authorships.countries',
    'authorships.raw_affiliation_strings',
    'authorships.affiliations',
    'authorships.affiliations.institution_ids',
    'institutions',
    'institutions.lineage',
    'corresponding_author_ids',
    'corresponding_institution_ids',
    'keywords',
    'concepts',
    'mesh',
    'locations',
    'sustainable_development_goals',
    'awards',
    'funders',
    'grants',
    'referenced_works',
    'related_works',
    'datasets',
    'versions',
    'institution_assertions',
    'institution_assertions.lineage',
    'primary_location.source.issn',
    'primary_location.source.host_organization_lineage',
    'primary_location.source.host_organization_lineage_names',
    'locations.source.issn',
    'locations.source.host_organization_lineage',
    'locations.source.host_organization_lineage_names',
    'best_oa_location.source.issn',
    'best_oa_location.source.host_organization_lineage',
    'best_oa_location.source.host_organization_lineage_names',
  ],
  authors: [
    'affiliations',
    'affiliations.institution.lineage',
    'affiliations.years',
    'last_known_institutions',
    'last_known_institutions.lineage',
  ],
  sources: [
    'issn',
    'ids.issn',
    'host_organization_lineage',
    'host_organization_lineage_names',
    'host_institution_lineage',
    'host_institution_lineage_names',
    'publisher_lineage',
    'publisher_lineage_names',
    'apc_prices',
    'societies',
    'alternate_titles',
  ],
  institutions: [
    'lineage',
    'display_name_acronyms',
    'repositories',
    'repositories.host_organization_lineage',
    'repositories.host_organization_lineage_names',
    'repositories.host_institution_lineage',
    'repositories.host_institution_lineage_names',
    'repositories.publisher_lineage',
    'repositories.publisher_lineage_names',
    'associated_institutions',
    'associated_institutions.lineage',
  ],
  topics: ['keywords', 'siblings'],
  publishers: ['lineage', 'alternate_titles', 'country_codes'],
  funders: ['alternate_titles'],
  concepts: ['ancestors', 'related_concepts', 'ids.umls_cui', 'ids.umls_aui'],
  awards: ['funded_outputs', 'keywords', 'investigators'],
  domains: ['fields', 'siblings'],
  fields: ['subfields', 'siblings'],
  subfields: ['topics', 'siblings'],
}

const BY_ENTITY: ReadonlyMap<CatalogEntity, ReadonlySet<string>> = new Map(
  (Object.keys(LISTS) as CatalogEntity[]).map((entity) => [entity, new Set([...COMMON, ...LISTS[entity]!])]),
)
const COMMON_SET: ReadonlySet<string> = new Set(COMMON)

/** The dotted paths of an entity's records that hold lists (`authorships`, `authorships.institutions`). */
export const listPathsOf = (entity: CatalogEntity): ReadonlySet<string> => BY_ENTITY.get(entity) ?? COMMON_SET

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/

export interface RecordJsonPath {
  /** The JSON path, `[*]` after every list step (`$.authorships[*].author.id`). */
  readonly path: string
  /** True when some step is a list, so the path yields a list of values. */
  readonly list: boolean
}

/** The JSON path of a dotted record path (a registry column id) in an entity's records. */
export const recordJsonPath = (entity: CatalogEntity, dotted: string): RecordJsonPath => {
  const lists = listPathsOf(entity)
  const segments = dotted.split('.')
  let path = '$'
  let list = false
  segments.forEach((segment, index) => {
    path += PLAIN_KEY.test(segment) ? `.${segment}` : `."${segment}"`
    if (lists.has(segments.slice(0, index + 1).join('.'))) {
      path += '[*]'
      list = true
    }
  })
  return { path, list }
}
