// What an entity's page shows, worked out from its record without the DOM (entity-page-view.ts draws it): its
// title, the facts people look for first, its abstract written out from the inverted index, the entities it
// names (each opened as a page of its own) and the queries that follow from it ("works citing this").
import { shortId } from './value-summary-format.ts'

type EntityRecord = Readonly<Record<string, unknown>>

/** Another entity the page links to: its page path (`authors/A123`) and name. */
export interface EntityLink {
  readonly path: string
  readonly name: string
}

export interface EntityFact {
  readonly label: string
  readonly text?: string
  readonly links?: readonly EntityLink[]
  readonly url?: string
}

export interface EntityPageModel {
  readonly title: string
  readonly facts: readonly EntityFact[]
  readonly abstract: string | undefined
  /** Queries that follow from the entity, as OQL, with what each finds. */
  readonly queries: readonly { readonly label: string; readonly oql: string }[]
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== ''
    ? value
    : typeof value === 'number'
      ? value.toLocaleString('en-US')
      : undefined

/** A number as it is written (a year is 2020, not 2,020). */
const plain = (value: unknown): string | undefined =>
  typeof value === 'number' ? String(value) : text(value)

const record = (value: unknown): EntityRecord | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as EntityRecord) : undefined

/** The entity path of an OpenAlex id by its letter (`A123` → authors). */
const PATH_OF_LETTER: Readonly<Record<string, string>> = {
  W: 'works',
  A: 'authors',
  S: 'sources',
  I: 'institutions',
  T: 'topics',
  P: 'publishers',
  F: 'funders',
}

/** A link to the page of the entity `value` names (`{id, display_name}`), when its id says which kind it is. */
const linkOf = (value: unknown): EntityLink | undefined => {
  const named = record(value)
  const id = typeof named?.id === 'string' ? shortId(named.id) : undefined
  const path = id === undefined ? undefined : PATH_OF_LETTER[id.charAt(0).toUpperCase()]
  if (id === undefined || path === undefined) return undefined
  return { path: `${path}/${id}`, name: text(named?.display_name) ?? id }
}

const links = (values: readonly unknown[]): EntityLink[] =>
  values.map(linkOf).filter((link): link is EntityLink => link !== undefined)

/** The abstract from OpenAlex's inverted index (each word with its positions), in reading order. */
export const abstractOf = (inverted: unknown): string | undefined => {
  const index = record(inverted)
  if (index === undefined) return undefined
  // Positions are sorted, not used as array indexes: a record's position of 4e9 must not make a sparse array.
  const placed: [number, string][] = []
  for (const [word, positions] of Object.entries(index))
    if (Array.isArray(positions))
      for (const position of positions)
        if (Number.isSafeInteger(position) && position >= 0) placed.push([position, word])
  placed.sort((a, b) => a[0] - b[0])
  const written = placed.map(([, word]) => word).join(' ')
  return written === '' ? undefined : written
}

/** The works queries that follow from an entity: what cites a work and what it cites, or the works of the rest. */
export const worksQueriesOf = (entityPath: string, id: string): { label: string; oql: string }[] => {
  switch (entityPath) {
    case 'works':
      return [
        { label: 'Works citing this', oql: `works where it cites (${id})` },
        { label: 'Works this cites', oql: `works where it's cited by (${id})` },
      ]
    case 'authors':
      return [{ label: 'Works by this author', oql: `works where author is (${id})` }]
    case 'institutions':
      return [{ label: 'Works of this institution', oql: `works where institution is (${id})` }]
    case 'sources':
      return [{ label: 'Works in this source', oql: `works where source is (${id})` }]
    case 'topics':
      return [{ label: 'Works on this topic', oql: `works where topic is (${id})` }]
    case 'publishers':
      return [{ label: 'Works of this publisher', oql: `works where publisher is (${id})` }]
    case 'funders':
      return [{ label: 'Works this funder funded', oql: `works where funder is (${id})` }]
    default:
      return []
  }
}

const fact = (label: string, value: string | undefined): EntityFact[] =>
  value === undefined ? [] : [{ label, text: value }]

const linkFact = (label: string, found: readonly EntityLink[]): EntityFact[] =>
  found.length === 0 ? [] : [{ label, links: found }]

/** A DOI as OpenAlex writes it: the resolver's https address. */
const DOI_URL = /^https:\/\/doi\.org\//

const workFacts = (work: EntityRecord): EntityFact[] => {
  const authorships = Array.isArray(work.authorships) ? work.authorships : []
  const primary = record(work.primary_location)
  const openAccess = record(work.open_access)
  const doi = text(work.doi)
  return [
    ...fact('Year', plain(work.publication_year)),
    ...fact('Type', text(work.type)),
    ...linkFact('Authors', links(authorships.map((authorship) => record(authorship)?.author))),
    ...linkFact('Source', links([primary?.source])),
    ...fact('Cited by', text(work.cited_by_count)),
    ...fact('Open access', text(openAccess?.oa_status)),
    ...linkFact('Topic', links([work.primary_topic])),
    // Linked only as the DOI resolver's address: a record's text never becomes another kind of link.
    ...(doi === undefined
      ? []
      : DOI_URL.test(doi)
        ? [{ label: 'DOI', text: doi.replace(DOI_URL, ''), url: doi }]
        : [{ label: 'DOI', text: doi }]),
  ]
}

const otherFacts = (entity: EntityRecord): EntityFact[] => {
  const geo = record(entity.geo)
  const institutions = Array.isArray(entity.last_known_institutions) ? entity.last_known_institutions : []
  return [
    ...fact('Type', text(entity.type)),
    ...fact('Country', text(entity.country_code) ?? text(geo?.country)),
    ...linkFact('Institutions', links(institutions)),
    ...fact('Works', text(entity.works_count)),
    ...fact('Cited by', text(entity.cited_by_count)),
    ...fact('Description', text(entity.description)),
  ]
}

export const entityPageModel = (entityPath: string, entity: EntityRecord): EntityPageModel => {
  const id = typeof entity.id === 'string' ? shortId(entity.id) : ''
  return {
    title: text(entity.display_name) ?? text(entity.title) ?? id,
    facts: entityPath === 'works' ? workFacts(entity) : otherFacts(entity),
    abstract: entityPath === 'works' ? abstractOf(entity.abstract_inverted_index) : undefined,
    queries: id === '' ? [] : worksQueriesOf(entityPath, id),
  }
}
