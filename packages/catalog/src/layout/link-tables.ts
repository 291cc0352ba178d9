// Side tables for the multi-valued ids of works: one `(key, work_id)` Parquet file per relation, sorted by
// key, so a filter such as `authorships.author.id:A1` reads a few row groups instead of every work.
import type { CatalogEntity } from './catalog-entities.ts'

/**
 * How a JSON value becomes a key: `letter-id` the short OpenAlex id (`A123`); `path-id` the last segment of
 * a vocabulary id (`keywords/deep-learning` gives `deep-learning`, `https://metadata.un.org/sdg/3` gives `3`);
 * `country` an upper-case country code.
 */
export type LinkKeyTransform = 'letter-id' | 'path-id' | 'country'

export interface LinkKeySource {
  /** The top-level field of the work the path reads from (extracted once per work). */
  readonly field: string
  /** A JSON path into that field; `[*]` wildcards flatten lists. */
  readonly path: string
  /** True when the path yields one value rather than a list. */
  readonly scalar: boolean
}

export interface LinkTableSpec {
  /** File stem and catalog key: `works-authors`. */
  readonly name: string
  /** The entity the key is an id of. */
  readonly keyEntity: CatalogEntity
  readonly transform: LinkKeyTransform
  readonly sources: readonly LinkKeySource[]
  readonly description: string
}

const list = (field: string, path: string): LinkKeySource => ({ field, path, scalar: false })
const one = (field: string, path: string): LinkKeySource => ({ field, path, scalar: true })

export const LINK_TABLES: readonly LinkTableSpec[] = [
  {
    name: 'works-authors',
    keyEntity: 'authors',
    transform: 'letter-id',
    sources: [list('authorships', '$[*].author.id')],
    description: 'authorships[].author.id',
  },
  {
    name: 'works-institutions',
    keyEntity: 'institutions',
    transform: 'letter-id',
    sources: [list('authorships', '$[*].institutions[*].id'), list('institutions', '$[*].id')],
    description: 'authorships[].institutions[].id and institutions[].id (the institutions as stated)',
  },
  {
    name: 'works-institution-lineage',
    keyEntity: 'institutions',
    transform: 'letter-id',
    sources: [
      list('authorships', '$[*].institutions[*].id'),
      list('authorships', '$[*].institutions[*].lineage[*]'),
      list('institutions', '$[*].id'),
      list('institutions', '$[*].lineage[*]'),
    ],
    description:
      'the institutions and all their ancestors (lineage): a parent institution finds its children’s works',
  },
  {
    name: 'works-topics',
    keyEntity: 'topics',
    transform: 'letter-id',
    sources: [list('topics', '$[*].id'), one('primary_topic', '$.id')],
    description: 'topics[].id and primary_topic.id',
  },
  {
    name: 'works-referenced-works',
    keyEntity: 'works',
    transform: 'letter-id',
    sources: [list('referenced_works', '$[*]')],
    description: 'referenced_works[] (key = the cited work, work_id = the citing work)',
  },
  {
    name: 'works-funders',
    keyEntity: 'funders',
    transform: 'letter-id',
    sources: [
      list('funders', '$[*].id'),
      list('grants', '$[*].funder'),
      list('awards', '$[*].funder_id'),
      list('awards', '$[*].funder.id'),
    ],
    description: 'funders[].id, grants[].funder (older records) and awards[].funder',
  },
  {
    name: 'works-countries',
    keyEntity: 'countries',
    transform: 'country',
    sources: [
      list('authorships', '$[*].countries[*]'),
      list('authorships', '$[*].institutions[*].country_code'),
    ],
    description: 'authorships[].countries[] and the country_code of the authorships’ institutions',
  },
  {
    // Apart from works-countries: an authorship's countries can come without an institution (raw affiliation
    // strings), so grouping by institution country must count the institutions' codes alone.
    name: 'works-institution-countries',
    keyEntity: 'countries',
    transform: 'country',
    sources: [list('authorships', '$[*].institutions[*].country_code')],
    description: 'the country_code of the authorships’ institutions',
  },
  {
    name: 'works-sdgs',
    keyEntity: 'sdgs',
    transform: 'path-id',
    sources: [list('sustainable_development_goals', '$[*].id')],
    description: 'sustainable_development_goals[].id (the goal number)',
  },
  {
    name: 'works-keywords',
    keyEntity: 'keywords',
    transform: 'path-id',
    sources: [list('keywords', '$[*].id')],
    description: 'keywords[].id',
  },
  {
    name: 'works-concepts',
    keyEntity: 'concepts',
    transform: 'letter-id',
    sources: [list('concepts', '$[*].id')],
    description: 'concepts[].id',
  },
  {
    name: 'works-sources',
    keyEntity: 'sources',
    transform: 'letter-id',
    sources: [list('locations', '$[*].source.id'), one('primary_location', '$.source.id')],
    description: 'locations[].source.id and primary_location.source.id',
  },
  {
    name: 'works-awards',
    keyEntity: 'awards',
    transform: 'letter-id',
    sources: [list('awards', '$[*].id')],
    description: 'awards[].id',
  },
]

/** The top-level work fields the link tables read, in a fixed order. */
export function linkSourceFields(): readonly string[] {
  return [...new Set(LINK_TABLES.flatMap((spec) => spec.sources.map((source) => source.field)))]
}
