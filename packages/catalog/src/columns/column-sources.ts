// Where each registry column's values live in a catalog, per entity. Three tiers, fastest first:
//   1. a derived typed column of the entity table (`publication_year`, `primary_source_id`, `doi`);
//   2. a link table for multi-valued ids of works (`authorships.author.id` → `links/works-authors`), or the
//      external-id table (`ids.pmid`), so a filter reads one key range instead of every record;
//   3. the column's path in the JSON record (`$.authorships[*].institutions[*].type`), as ingest extracted
//      it into a record-path column (`json__authorships__institutions__type`, text or a list of texts):
//      every filterable column works, typed at query time, correctly if more slowly.
// A few columns are computed (`has_orcid`, `best_open_version`, `cited_by`), from record-path columns too.
// No SQL written here reads the `record` column. Every SQL name used here is checked against the catalog's
// own lists (`derivedColumnsOf`, `LINK_TABLES`) when this module loads, and the record-path columns ingest
// writes are the ones this module reads (`recordPathColumnsOf`, collected when it loads).
import type { ColumnRef } from '@oqlkit/engine'
import { ENTITY_TYPES, type EntityType, entityPath, propertiesRegistry } from '@oqlkit/oqo-schema'
import { CATALOG_ENTITY_NAMES, type CatalogEntity, catalogEntityInfo } from '../layout/catalog-entities.ts'
import { type DerivedColumn, derivedColumnsOf } from '../layout/entity-columns.ts'
import type { ExternalIdScheme } from '../layout/external-id-schemes.ts'
import { LINK_TABLES, type LinkTableSpec } from '../layout/link-tables.ts'
import { fullOpenAlexId } from '../layout/openalex-id-normalizer.ts'
import {
  type RecordPathColumn,
  type RecordPathForm,
  recordPathColumn,
} from '../layout/record-path-columns.ts'
import { recordJsonPath } from '../records/record-shapes.ts'
import type { GroupKeyFormat } from '../sql/compiled-query.ts'
import { jsonPathLiteral, quoteIdentifier } from '../sql/sql-text.ts'
import type { ColumnDialect } from './column-dialect.ts'
import {
  anyGlobalSouthSql,
  continentOfSql,
  continentUrlSql,
  isGlobalSouthSql,
} from './country-geography-sql.ts'
import { type ValueCodec, valueCodecsFor } from './value-codecs.ts'

type ValueKind = ColumnRef['kind']

/**
 * How a group key read from SQL becomes the key of a bucket: `value` as read; `entity` an id made a full
 * OpenAlex id of `entity` (letter ids whatever the entity); `code` a vocabulary code as read.
 */
export type GroupKeyKind =
  | { readonly kind: 'value' }
  | { readonly kind: 'entity'; readonly entity: CatalogEntity | null }
  | { readonly kind: 'code' }

/** How a group key read from SQL becomes a bucket's key, by its kind (the same for every engine). */
export const formatGroupKey = (kind: GroupKeyKind): GroupKeyFormat => {
  if (kind.kind === 'entity') {
    const info = kind.entity === null ? undefined : catalogEntityInfo(kind.entity)
    return (value) => {
      if (value === null || value === undefined) return null
      const text = String(value)
      if (/^[A-Za-z][0-9]+$/.test(text)) return `https://openalex.org/${text.toUpperCase()}`
      return info !== undefined && info.idKind === 'path' ? fullOpenAlexId(info, text) : text
    }
  }
  return (value) => {
    if (value === null || value === undefined) return null
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'string') return value
    return String(value)
  }
}

/** One value per row: a typed SQL expression over the entity view's columns. */
export interface ScalarSource {
  readonly kind: 'scalar'
  /** Typed SQL (number, DATE, TIMESTAMP, BOOLEAN or text); what sorts use. */
  readonly expr: string
  readonly codec: ValueCodec
  /** SQL of the group key (normalised so equal ids in different forms share a bucket). */
  readonly groupExpr: string
  readonly groupKey: GroupKeyKind
  /** `column`: a catalog column; `record`: the column's record-path column; `computed`: SQL of several. */
  readonly origin: 'column' | 'record' | 'computed'
}

/** Several values per row: a `VARCHAR[]` without nulls, a record-path column or SQL over some. */
export interface ListSource {
  readonly kind: 'list'
  readonly expr: string
  /** The typed form of one element `x` (a lambda body). */
  readonly element: (x: string) => string
  readonly codec: ValueCodec
  readonly groupElement: (x: string) => string
  readonly groupKey: GroupKeyKind
}

/**
 * A link table of works: `(key, work_id)`. It is the column's only copy in the catalog: a sort reads a work's
 * smallest or largest key from it, as it would from a list (the record's list of the same ids, kept beside
 * it until format 7, was the widest part of the works table: 45 of its 83 MB in the serving database at 100k).
 */
export interface LinkSource {
  readonly kind: 'link'
  /** The view name of the link table. */
  readonly view: string
  /** Its in-memory copy in `narrow` mode, `(key, work_row)`: keys sorted, works by their narrow row. */
  readonly narrowTable: string
  /**
   * The letter of the ids whose number (`I123` → 123) the narrow copy holds as its key, or null where it holds
   * the key's text (see `narrowLinkKeyLetter`).
   */
  readonly narrowKeyLetter: string | null
  /**
   * The columns of the serving database's `works__narrow` holding each work's smallest and largest key of
   * the link table (`linkExtremeColumnsOf`), which sorts read in `narrow` mode.
   */
  readonly extremeColumns: LinkExtremeColumns
  readonly codec: ValueCodec
  readonly groupKey: GroupKeyKind
}

/** An external id held by the external-id table (`ids.pmid`); the record's value serves sorts and groups. */
export interface ExternalIdSource {
  readonly kind: 'external-id'
  readonly entity: CatalogEntity
  readonly scheme: ExternalIdScheme
  readonly codec: ValueCodec
  readonly scalar: ScalarSource
}

/** A value that picks one of a few fixed predicates (`best_open_version: published`). */
export interface ChoiceSource {
  readonly kind: 'choice'
  /** Lower-cased value → predicate SQL. */
  readonly choices: ReadonlyMap<string, string>
  readonly scalar: ScalarSource
}

/** `doi_starts_with`: a prefix of a normalised column. */
export interface PrefixSource {
  readonly kind: 'prefix'
  readonly scalar: ScalarSource
}

/**
 * `cited_by:W1`, the works W1 cites: the citing side of the referenced-works link table. A row's own values,
 * what it sorts by and is `missing` without, are its references (`references`, that same table).
 */
export interface CitedBySource {
  readonly kind: 'cited-by'
  /** How a given work id is compared (the filter reads the link table by its short id in upper case). */
  readonly codec: ValueCodec
  readonly references: LinkSource
}

/** `related_to:W1`, W1's related works: read from its `related_works` list, which is also a row's own values. */
export interface RelatedToSource {
  readonly kind: 'related-to'
  readonly list: ListSource
}

/** The values a row holds itself, for sorts, ranges and `missing`, of a source with several values. */
export const ownValuesOf = (
  source: ListSource | LinkSource | CitedBySource | RelatedToSource,
): ListSource | LinkSource =>
  source.kind === 'cited-by' ? source.references : source.kind === 'related-to' ? source.list : source

export interface UnsupportedSource {
  readonly kind: 'unsupported'
  readonly message: string
}

export type ColumnSource =
  | ScalarSource
  | ListSource
  | LinkSource
  | ExternalIdSource
  | ChoiceSource
  | PrefixSource
  | CitedBySource
  | RelatedToSource
  | UnsupportedSource

// ---- building blocks ----

const VALUE_KEY: GroupKeyKind = { kind: 'value' }
const CODE_KEY: GroupKeyKind = { kind: 'code' }
const entityKey = (entity: CatalogEntity | null): GroupKeyKind => ({ kind: 'entity', entity })

/** The catalog entity of a registry entity type (`types` is `work-types`; `locations` has no table). */
export const catalogEntityOf = (entity: EntityType): CatalogEntity | undefined =>
  catalogEntityInfo(entityPath(entity))?.entity

const derivedColumn = (entity: CatalogEntity, name: string): DerivedColumn => {
  const column = derivedColumnsOf(entity).find((candidate) => candidate.name === name)
  if (column === undefined) throw new Error(`The catalog has no derived column ${entity}.${name}`)
  return column
}

const scalar = (
  expr: string,
  codec: ValueCodec,
  groupKey: GroupKeyKind,
  groupExpr = expr,
  origin: ScalarSource['origin'] = 'column',
): ScalarSource => ({ kind: 'scalar', expr, codec, groupExpr, groupKey, origin })

/**
 * The record-path columns of one entity the sources below read. While this module loads, every source of
 * every registry column is built once and each path it reads is collected (`recordPathColumnsOf` is what
 * ingest writes); after that a path outside the collection fails loudly rather than naming a column the
 * catalog does not have.
 */
class RecordPaths {
  readonly #columns = new Map<string, RecordPathColumn>()
  #open = true

  constructor(
    readonly entity: CatalogEntity,
    readonly quote: (name: string) => string = quoteIdentifier,
  ) {}

  #use(path: string, form: RecordPathForm): string {
    jsonPathLiteral(path)
    const column = recordPathColumn(path, form)
    const known = this.#columns.get(column.name)
    if (known === undefined) {
      if (!this.#open)
        throw new Error(`The catalog has no record-path column for ${this.entity} ${path} (${form})`)
      this.#columns.set(column.name, column)
    } else if (known.path !== path || known.form !== form)
      throw new Error(
        `${this.entity}: ${path} (${form}) and ${known.path} (${known.form}) share ${column.name}`,
      )
    return this.quote(column.name)
  }

  /** The value at a path without wildcards, as `json_extract_string` gives it (VARCHAR). */
  text(path: string): string {
    return this.#use(path, 'text')
  }

  /** The values at a wildcard path (`VARCHAR[]` without nulls; empty when there are none). */
  list(path: string): string {
    return this.#use(path, 'list')
  }

  /** How many values a wildcard path has (`len(json_extract(record, path))`). */
  count(path: string): string {
    return this.#use(path, 'count')
  }

  /** The versions of the open-access elements of a wildcard path (`locations`). */
  oaVersions(path: string): string {
    return this.#use(path, 'oa-versions')
  }

  close(): readonly RecordPathColumn[] {
    this.#open = false
    return [...this.#columns.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  }
}

const EXTERNAL_ID_FIELDS: Readonly<Record<string, ExternalIdScheme>> = {
  doi: 'doi',
  orcid: 'orcid',
  raw_orcid: 'orcid',
  ror: 'ror',
  issn: 'issn',
  issn_l: 'issn',
  pmid: 'pmid',
  pmcid: 'pmcid',
  mag: 'mag',
  wikidata: 'wikidata',
  wikidata_id: 'wikidata',
}

interface ValueForm {
  readonly typed: (text: string) => string
  readonly codec: ValueCodec
  readonly groupKey: GroupKeyKind
  readonly group: (text: string) => string
}

const asText = (text: string): string => text

const ANY_ID_KEY: GroupKeyKind = { kind: 'entity', entity: null }

const LINK_VIEWS: ReadonlyMap<string, string> = new Map(
  LINK_TABLES.map((spec) => [spec.name, `link_${spec.name.replaceAll('-', '_')}`]),
)

/** The view name of a link table of the catalog. */
export const linkViewOf = (name: string): string => {
  const view = LINK_VIEWS.get(name)
  if (view === undefined) throw new Error(`The catalog has no link table ${name}`)
  return view
}

/**
 * The letter of a link table's keys when its narrow copy holds them as numbers: every key of a letter-id
 * table is that letter and digits (ingest writes them so). DuckDB keeps only the first 8 bytes of a string
 * in the min/max statistics a scan prunes by, and ids as alike as `I9000000410` share them: counting an
 * institution's 10,138 links read all 4.4M rows (11.6 ms) as text and one row group (1.4 ms) as numbers.
 */
export const narrowLinkKeyLetter = (spec: LinkTableSpec): string | null =>
  spec.transform === 'letter-id' ? (catalogEntityInfo(spec.keyEntity)?.letter ?? null) : null

/** The name of a link table's in-memory copy in `narrow` mode (catalog-views.ts creates it). */
export const narrowLinkTableOf = (name: string): string => `${linkViewOf(name)}__narrow`

export interface LinkExtremeColumns {
  readonly lo: string
  readonly hi: string
}

/**
 * The columns of `works__narrow` holding each work's smallest and largest key of a link table (in the keys'
 * text order, null for a work without links), which a sort by the link's column reads (catalog-views.ts).
 */
export const linkExtremeColumnsOf = (name: string): LinkExtremeColumns => {
  // `link_works_authors` gives `__lo_works_authors`.
  const link = linkViewOf(name).slice('link_'.length)
  return { lo: `__lo_${link}`, hi: `__hi_${link}` }
}

const ANY_OA_VERSION = ['submittedVersion', 'acceptedVersion', 'publishedVersion']
const ACCEPTED_OR_PUBLISHED = ['acceptedVersion', 'publishedVersion']
const PUBLISHED = ['publishedVersion']
const SUBMITTED = ['submittedVersion']

type SourceFactory = (column: ColumnRef) => ColumnSource

interface EntitySources {
  readonly paths: RecordPaths
  readonly special: ReadonlyMap<string, SourceFactory>
}

// `from_created_date` and `to_created_date` are bounds of `created_date`: the same values (the filter
// compiler turns `=` into `>=`/`<=`).
const DATE_BOUND = /^(?:from|to)_(.+_date)$/

/** The registry's value columns of the entity types a catalog entity stores (`types` for `work-types`). */
const registryColumnsOf = (entity: CatalogEntity): ColumnRef[] =>
  ENTITY_TYPES.filter((type) => catalogEntityOf(type) === entity).flatMap((type) =>
    propertiesRegistry
      .columnsOf(type)
      .flatMap((column) => (column.kind === null ? [] : [{ id: column.id, kind: column.kind }])),
  )

/** Where each registry column's values are, for each entity table, written in one engine's SQL. */
export interface ColumnMap {
  /** Where a registry column's values are, for an entity table. */
  columnSourceOf(entity: CatalogEntity, column: ColumnRef): ColumnSource
  /** The SQL of a record-path column of the entity's list values at `path` (it must be one ingest writes). */
  recordListColumn(entity: CatalogEntity, path: string): string
  /** The record-path columns of an entity table (the same for every dialect). */
  recordPathColumnsOf(entity: CatalogEntity): readonly RecordPathColumn[]
}

/** The column map in a dialect's SQL (DuckDB's below; ClickHouse's in @oqlkit/adapter-clickhouse). */
export const createColumnMap = (dialect: ColumnDialect): ColumnMap => {
  const codecs = valueCodecsFor(dialect)
  const NUMBER_CODEC = codecs.number
  const BOOLEAN_CODEC = codecs.boolean
  const DATE_CODEC = codecs.date
  const TIMESTAMP_CODEC = codecs.timestamp
  const TEXT_CODEC = codecs.text
  const ID_CODEC = codecs.id
  const LETTER_ID_CODEC = codecs.letterId
  const PATH_ID_CODEC = codecs.pathId
  const COUNTRY_CODEC = codecs.country
  const CODE_CODEC = codecs.code
  const externalIdCodec = codecs.externalId

  /** A derived column of the entity table, typed as the registry column's kind asks. */
  const derived = (
    entity: CatalogEntity,
    name: string,
    codec: ValueCodec,
    groupKey: GroupKeyKind = VALUE_KEY,
  ): ScalarSource => {
    const column = derivedColumn(entity, name)
    const expr = dialect.column(column.name)
    return scalar(expr, codec, groupKey)
  }

  const derivedNumber = (entity: CatalogEntity, name: string): ScalarSource =>
    derived(entity, name, NUMBER_CODEC)
  const derivedBoolean = (entity: CatalogEntity, name: string): ScalarSource =>
    derived(entity, name, BOOLEAN_CODEC)
  const derivedCode = (entity: CatalogEntity, name: string): ScalarSource =>
    derived(entity, name, CODE_CODEC, CODE_KEY)
  const derivedLetterId = (
    entity: CatalogEntity,
    name: string,
    keyEntity: CatalogEntity | null,
  ): ScalarSource => derived(entity, name, LETTER_ID_CODEC, entityKey(keyEntity))
  const derivedPathId = (entity: CatalogEntity, name: string, keyEntity: CatalogEntity): ScalarSource =>
    derived(entity, name, PATH_ID_CODEC, entityKey(keyEntity))
  const derivedExternal = (entity: CatalogEntity, name: string, scheme: ExternalIdScheme): ScalarSource =>
    derived(entity, name, externalIdCodec(scheme, true))

  /** `kind` decides how a date column compares: `date` by day, `datetime` to the instant. */
  const derivedTime = (entity: CatalogEntity, name: string, kind: ValueKind): ScalarSource => {
    const column = derivedColumn(entity, name)
    const expr = dialect.column(column.name)
    if (kind === 'datetime') return scalar(dialect.toTimestamp(expr), TIMESTAMP_CODEC, VALUE_KEY)
    return scalar(column.type === 'DATE' ? expr : dialect.toDate(expr), DATE_CODEC, VALUE_KEY)
  }

  /**
   * SQL: the group key of an id read from a record: the short form of a letter id (`https://openalex.org/w1`
   * and `W1` share the bucket `W1`), any other id as written (it is already the full id).
   */
  const recordIdGroupSql = dialect.letterIdGroup

  /** How values of a registry column read from JSON text are typed, compared and grouped. */
  const valueFormOf = (column: ColumnRef): ValueForm => {
    const segments = column.id.split('.')
    const last = segments[segments.length - 1]!
    const idLike = last === 'id' || last.endsWith('_ids') || last === 'lineage'
    switch (column.kind) {
      case 'number':
      case 'float':
        // A few number columns hold vocabulary ids (`fields.id` of domains: `https://openalex.org/fields/17`):
        // their number is the id's last segment.
        if (idLike)
          return {
            typed: (text) => dialect.tryNumber(dialect.idTail(text)),
            codec: NUMBER_CODEC,
            groupKey: VALUE_KEY,
            group: (text) => dialect.tryNumber(dialect.idTail(text)),
          }
        return {
          typed: dialect.tryNumber,
          codec: NUMBER_CODEC,
          groupKey: VALUE_KEY,
          group: dialect.tryNumber,
        }
      case 'date':
        return {
          typed: dialect.tryDate,
          codec: DATE_CODEC,
          groupKey: VALUE_KEY,
          group: dialect.tryDate,
        }
      case 'datetime':
        return {
          typed: dialect.tryTimestamp,
          codec: TIMESTAMP_CODEC,
          groupKey: VALUE_KEY,
          group: dialect.tryTimestamp,
        }
      case 'boolean':
        return {
          typed: dialect.tryBoolean,
          codec: BOOLEAN_CODEC,
          groupKey: VALUE_KEY,
          group: dialect.tryBoolean,
        }
      case 'entity_id':
        return { typed: asText, codec: ID_CODEC, groupKey: ANY_ID_KEY, group: recordIdGroupSql }
      case 'enum':
        return { typed: asText, codec: ID_CODEC, groupKey: CODE_KEY, group: dialect.idTail }
      default: {
        const scheme = EXTERNAL_ID_FIELDS[last]
        if (scheme !== undefined)
          return { typed: asText, codec: externalIdCodec(scheme, false), groupKey: VALUE_KEY, group: asText }
        if (idLike) return { typed: asText, codec: ID_CODEC, groupKey: ANY_ID_KEY, group: recordIdGroupSql }
        return { typed: asText, codec: TEXT_CODEC, groupKey: VALUE_KEY, group: asText }
      }
    }
  }

  /** The generic tier: the column's own path in the JSON record. */
  const fromRecord = (paths: RecordPaths, column: ColumnRef): ScalarSource | ListSource => {
    const { path, list } = recordJsonPath(paths.entity, column.id)
    const form = valueFormOf(column)
    if (list)
      return {
        kind: 'list',
        expr: paths.list(path),
        element: form.typed,
        codec: form.codec,
        groupElement: form.group,
        groupKey: form.groupKey,
      }
    const text = paths.text(path)
    return scalar(form.typed(text), form.codec, form.groupKey, form.group(text), 'record')
  }

  const link = (name: string, column: ColumnRef): LinkSource => {
    const spec = LINK_TABLES.find((candidate) => candidate.name === name)!
    const codec =
      spec.transform === 'letter-id'
        ? LETTER_ID_CODEC
        : spec.transform === 'country'
          ? COUNTRY_CODEC
          : PATH_ID_CODEC
    return {
      kind: 'link',
      view: linkViewOf(name),
      narrowTable: narrowLinkTableOf(name),
      extremeColumns: linkExtremeColumnsOf(name),
      narrowKeyLetter: narrowLinkKeyLetter(spec),
      codec,
      groupKey: column.kind === 'enum' ? CODE_KEY : entityKey(spec.keyEntity),
    }
  }

  const computedBoolean = (expr: string): ScalarSource => {
    const value = dialect.truth(`coalesce(${expr}, FALSE)`)
    return scalar(value, BOOLEAN_CODEC, VALUE_KEY, value, 'computed')
  }
  const nonEmpty = dialect.nonEmpty

  // Open-access versions of a work's locations (`best_open_version`, `has_oa_*_version`): some open-access
  // location has one of the versions.
  const oaLocationWithVersion = (paths: RecordPaths, versions: readonly string[]): string =>
    dialect.anyOf(paths.oaVersions('$.locations[*]'), versions)

  const SCOPUS_CODEC: ValueCodec = {
    stored: (expr) => expr,
    input: (value) => {
      const text = String(value).trim()
      return /authorID=([0-9]+)/i.exec(text)?.[1] ?? text.toLowerCase()
    },
    inputType: 'text',
    placeholder: '?',
  }

  // ---- continents and the Global South, from country codes (country-geography-sql.ts) ----

  const continentScalar = (code: string): ScalarSource => {
    const continent = continentOfSql(dialect, code)
    return scalar(continent, ID_CODEC, ANY_ID_KEY, continentUrlSql(dialect, continent), 'computed')
  }

  /** The distinct continents of a list of country codes. */
  const continentList = (codes: string): ListSource => ({
    kind: 'list',
    expr: dialect.distinctMapped(codes, (code) => continentOfSql(dialect, code)),
    element: asText,
    codec: ID_CODEC,
    groupElement: (continent) => continentUrlSql(dialect, continent),
    groupKey: ANY_ID_KEY,
  })

  const globalSouthScalar = (code: string): ScalarSource => {
    const value = dialect.truth(isGlobalSouthSql(dialect, code))
    return scalar(value, BOOLEAN_CODEC, VALUE_KEY, value, 'computed')
  }

  /** Columns with a faster or computed source than their record path, per entity. */
  const specialSources = (paths: RecordPaths): ReadonlyMap<string, SourceFactory> => {
    const entity = paths.entity
    const jsonText = (path: string) => paths.text(path)
    const jsonList = (path: string) => paths.list(path)
    const sources = new Map<string, SourceFactory>()
    const info = catalogEntityInfo(entity)!
    const selfId: SourceFactory = () =>
      info.idKind === 'letter'
        ? scalar(dialect.column('id'), LETTER_ID_CODEC, entityKey(entity))
        : scalar(dialect.column('id'), CODE_CODEC, entityKey(entity))
    sources.set('ids.openalex', selfId)
    sources.set('id', selfId)
    sources.set('display_name', () => derived(entity, 'display_name', TEXT_CODEC))
    sources.set('works_count', () => derivedNumber(entity, 'works_count'))
    sources.set('cited_by_count', () => derivedNumber(entity, 'cited_by_count'))
    sources.set('created_date', (column) => derivedTime(entity, 'created_date', column.kind))
    sources.set('updated_date', (column) =>
      scalar(
        column.kind === 'datetime'
          ? dialect.column('updated_date')
          : dialect.toDate(dialect.column('updated_date')),
        column.kind === 'datetime' ? TIMESTAMP_CODEC : DATE_CODEC,
        VALUE_KEY,
      ),
    )
    const names = new Set(derivedColumnsOf(entity).map((column) => column.name))
    if (names.has('h_index')) {
      sources.set('summary_stats.h_index', () => derivedNumber(entity, 'h_index'))
      sources.set('summary_stats.i10_index', () => derivedNumber(entity, 'i10_index'))
      sources.set('summary_stats.2yr_mean_citedness', () => derivedNumber(entity, 'two_yr_mean_citedness'))
    }
    if (names.has('country_code')) {
      sources.set('continent', () => continentScalar(dialect.column('country_code')))
      sources.set('is_global_south', () => globalSouthScalar(dialect.column('country_code')))
    } else if (entity === 'publishers') {
      const codes = () => jsonList('$.country_codes[*]')
      sources.set('continent', () => continentList(codes()))
      sources.set('is_global_south', () => computedBoolean(anyGlobalSouthSql(dialect, codes())))
    }

    const record = (id: string, kind: ValueKind) => fromRecord(paths, { id, kind })
    const recordList = (id: string, kind: ValueKind): ListSource => {
      const source = record(id, kind)
      if (source.kind !== 'list') throw new Error(`${entity}.${id} is not a list in the records`)
      return source
    }

    switch (entity) {
      case 'works': {
        sources.set('publication_year', () => derivedNumber(entity, 'publication_year'))
        sources.set('publication_date', (column) => derivedTime(entity, 'publication_date', column.kind))
        sources.set('type', () => derivedCode(entity, 'type'))
        sources.set('type_crossref', () => derived(entity, 'type_crossref', TEXT_CODEC))
        sources.set('language', () => derivedCode(entity, 'language'))
        sources.set('open_access.is_oa', () => derivedBoolean(entity, 'is_oa'))
        sources.set('open_access.oa_status', () => derivedCode(entity, 'oa_status'))
        for (const name of [
          'is_retracted',
          'is_paratext',
          'has_fulltext',
          'has_doi',
          'has_abstract',
          'is_xpac',
        ])
          sources.set(name, () => derivedBoolean(entity, name))
        sources.set('doi', () => derivedExternal(entity, 'doi', 'doi'))
        sources.set('doi_starts_with', () => ({
          kind: 'prefix',
          scalar: derivedExternal(entity, 'doi', 'doi'),
        }))
        for (const name of [
          'fwci',
          'authors_count',
          'referenced_works_count',
          'countries_distinct_count',
          'institutions_distinct_count',
        ])
          sources.set(name, () => derivedNumber(entity, name))
        sources.set('primary_location.source.id', () =>
          derivedLetterId(entity, 'primary_source_id', 'sources'),
        )
        sources.set('primary_topic.id', () => derivedLetterId(entity, 'primary_topic_id', 'topics'))
        sources.set('primary_topic.subfield.id', () =>
          derivedPathId(entity, 'primary_subfield_id', 'subfields'),
        )
        sources.set('primary_topic.field.id', () => derivedPathId(entity, 'primary_field_id', 'fields'))
        sources.set('primary_topic.domain.id', () => derivedPathId(entity, 'primary_domain_id', 'domains'))

        const linked = (columnId: string, table: string) =>
          sources.set(columnId, (column) => link(table, column))
        linked('authorships.author.id', 'works-authors')
        linked('authorships.institutions.id', 'works-institutions')
        linked('authorships.institutions.lineage', 'works-institution-lineage')
        linked('authorships.countries', 'works-countries')
        linked('authorships.institutions.country_code', 'works-institution-countries')
        linked('topics.id', 'works-topics')
        linked('keywords.id', 'works-keywords')
        linked('concepts.id', 'works-concepts')
        linked('funders.id', 'works-funders')
        linked('awards.id', 'works-awards')
        linked('sustainable_development_goals.id', 'works-sdgs')
        linked('locations.source.id', 'works-sources')
        linked('repository', 'works-sources')
        linked('referenced_works', 'works-referenced-works')
        sources.set('cited_by', (column) => ({
          kind: 'cited-by',
          codec: ID_CODEC,
          references: link('works-referenced-works', column),
        }))
        sources.set('related_to', () => ({
          kind: 'related-to',
          list: recordList('related_works', 'entity_id'),
        }))
        for (const [name, scheme] of [
          ['ids.pmid', 'pmid'],
          ['ids.pmcid', 'pmcid'],
          ['ids.mag', 'mag'],
        ] as const)
          sources.set(name, (column) => ({
            kind: 'external-id',
            entity,
            scheme,
            codec: externalIdCodec(scheme, true),
            scalar: record(column.id, 'string') as ScalarSource,
          }))
        sources.set('has_orcid', () => computedBoolean(nonEmpty(jsonList('$.authorships[*].author.orcid'))))
        sources.set('has_pmid', () => computedBoolean(`${jsonText('$.ids.pmid')} IS NOT NULL`))
        sources.set('has_pmcid', () => computedBoolean(`${jsonText('$.ids.pmcid')} IS NOT NULL`))
        sources.set('has_references', () =>
          computedBoolean(`${dialect.column('referenced_works_count')} > 0`),
        )
        // Fields the API derives: they are not paths of the record.
        sources.set('primary_location.source.has_issn', () =>
          computedBoolean(
            `${nonEmpty(jsonList('$.primary_location.source.issn[*]'))} OR ${jsonText('$.primary_location.source.issn_l')} IS NOT NULL`,
          ),
        )
        sources.set('locations.source.has_issn', () =>
          computedBoolean(
            `${nonEmpty(jsonList('$.locations[*].source.issn[*]'))} OR ${nonEmpty(jsonList('$.locations[*].source.issn_l'))}`,
          ),
        )
        sources.set('raw_affiliation_strings', () => ({
          kind: 'list',
          expr: jsonList('$.authorships[*].raw_affiliation_strings[*]'),
          element: asText,
          codec: TEXT_CODEC,
          groupElement: asText,
          groupKey: VALUE_KEY,
        }))
        sources.set('has_raw_affiliation_strings', () =>
          computedBoolean(nonEmpty(jsonList('$.authorships[*].raw_affiliation_strings[*]'))),
        )
        sources.set('has_pdf_url', () => computedBoolean(nonEmpty(jsonList('$.locations[*].pdf_url'))))
        sources.set('has_oa_accepted_or_published_version', () =>
          computedBoolean(oaLocationWithVersion(paths, ACCEPTED_OR_PUBLISHED)),
        )
        sources.set('has_oa_submitted_version', () =>
          computedBoolean(oaLocationWithVersion(paths, SUBMITTED)),
        )
        sources.set('best_open_version', () => ({
          kind: 'choice',
          choices: new Map([
            ['any', oaLocationWithVersion(paths, ANY_OA_VERSION)],
            ['acceptedorpublished', oaLocationWithVersion(paths, ACCEPTED_OR_PUBLISHED)],
            ['published', oaLocationWithVersion(paths, PUBLISHED)],
          ]),
          scalar: scalar(
            jsonText('$.best_oa_location.version'),
            TEXT_CODEC,
            VALUE_KEY,
            jsonText('$.best_oa_location.version'),
            'record',
          ),
        }))
        const countOf = (field: string, listPath: string) =>
          sources.set(field, () => {
            const count = `coalesce(${dialect.tryNumber(jsonText(`$.${field}`))}, ${dialect.toNumber(paths.count(listPath))})`
            return scalar(count, NUMBER_CODEC, VALUE_KEY, count, 'computed')
          })
        countOf('concepts_count', '$.concepts[*]')
        countOf('topics_count', '$.topics[*]')
        countOf('locations_count', '$.locations[*]')
        const institutionCountries = () => jsonList('$.authorships[*].institutions[*].country_code')
        for (const prefix of ['authorships.institutions', 'institutions']) {
          sources.set(`${prefix}.continent`, () => continentList(institutionCountries()))
          sources.set(`${prefix}.is_global_south`, () =>
            computedBoolean(anyGlobalSouthSql(dialect, institutionCountries())),
          )
        }
        break
      }
      case 'authors':
        sources.set('orcid', () => derivedExternal(entity, 'orcid', 'orcid'))
        // Scopus ids are stated as profile URLs (`…authorDetails.url?authorID=7004212771&…`): the author id
        // in them, or the whole text where there is none, matches the number or the URL.
        sources.set('scopus', () => {
          const stored = jsonText('$.ids.scopus')
          const key = `coalesce(nullif(${dialect.regexpExtract(stored, 'authorID=([0-9]+)')}, ''), lower(trim(${stored})))`
          return scalar(key, SCOPUS_CODEC, VALUE_KEY, stored, 'computed')
        })
        sources.set('has_orcid', () => computedBoolean(`${dialect.column('orcid')} IS NOT NULL`))
        {
          const countries = () => jsonList('$.last_known_institutions[*].country_code')
          sources.set('last_known_institutions.continent', () => continentList(countries()))
          sources.set('last_known_institutions.is_global_south', () =>
            computedBoolean(anyGlobalSouthSql(dialect, countries())),
          )
        }
        break
      case 'sources':
        sources.set('issn_l', () => derivedExternal(entity, 'issn_l', 'issn'))
        sources.set('type', () => derivedCode(entity, 'type'))
        for (const name of ['is_oa', 'is_in_doaj', 'is_core'])
          sources.set(name, () => derivedBoolean(entity, name))
        sources.set('host_organization', () => derivedLetterId(entity, 'host_organization_id', null))
        sources.set('host_organization.id', () => derivedLetterId(entity, 'host_organization_id', null))
        sources.set('country_code', () => derivedCode(entity, 'country_code'))
        sources.set('has_issn', () =>
          computedBoolean(`${dialect.column('issn_l')} IS NOT NULL OR ${nonEmpty(jsonList('$.issn[*]'))}`),
        )
        sources.set('ids.mag', () => ({
          kind: 'external-id',
          entity,
          scheme: 'mag',
          codec: externalIdCodec('mag', true),
          scalar: record('ids.mag', 'string') as ScalarSource,
        }))
        break
      case 'institutions':
        sources.set('ror', () => derivedExternal(entity, 'ror', 'ror'))
        sources.set('has_ror', () => computedBoolean(`${dialect.column('ror')} IS NOT NULL`))
        sources.set('country_code', () => derivedCode(entity, 'country_code'))
        sources.set('type', () => derivedCode(entity, 'type'))
        break
      case 'publishers':
        sources.set('hierarchy_level', () => derivedNumber(entity, 'hierarchy_level'))
        sources.set('parent_publisher', () => derivedLetterId(entity, 'parent_publisher_id', 'publishers'))
        sources.set('ids.ror', () => derivedExternal(entity, 'ror', 'ror'))
        break
      case 'funders':
        sources.set('country_code', () => derivedCode(entity, 'country_code'))
        sources.set('ids.ror', () => derivedExternal(entity, 'ror', 'ror'))
        break
      case 'awards':
        sources.set('funder.id', () => derivedLetterId(entity, 'funder_id', 'funders'))
        sources.set('funder_award_id', () => derived(entity, 'funder_award_id', TEXT_CODEC))
        break
      case 'topics':
        sources.set('subfield.id', () => derivedPathId(entity, 'subfield_id', 'subfields'))
        sources.set('field.id', () => derivedPathId(entity, 'field_id', 'fields'))
        sources.set('domain.id', () => derivedPathId(entity, 'domain_id', 'domains'))
        break
      case 'subfields':
        sources.set('field.id', () => derivedPathId(entity, 'field_id', 'fields'))
        sources.set('domain.id', () => derivedPathId(entity, 'domain_id', 'domains'))
        break
      case 'fields':
        sources.set('domain.id', () => derivedPathId(entity, 'domain_id', 'domains'))
        break
      case 'concepts':
        sources.set('level', () => derivedNumber(entity, 'level'))
        sources.set('wikidata_id', () => derivedExternal(entity, 'wikidata', 'wikidata'))
        sources.set('has_wikidata', () => computedBoolean(`${dialect.column('wikidata')} IS NOT NULL`))
        break
      default:
        break
    }
    return sources
  }

  const sourceIn = (sources: EntitySources, column: ColumnRef): ColumnSource => {
    if (column.kind === 'search' || column.kind === 'collection')
      return { kind: 'unsupported', message: `${column.id} is a ${column.kind} column, not a value column` }
    const bound = DATE_BOUND.exec(column.id)
    const ref = bound === null ? column : { id: bound[1]!, kind: column.kind }
    const special = sources.special.get(ref.id)
    if (special !== undefined) return special(ref)
    return fromRecord(sources.paths, ref)
  }

  const SOURCES: ReadonlyMap<CatalogEntity, EntitySources> = new Map(
    CATALOG_ENTITY_NAMES.map((entity) => {
      const paths = new RecordPaths(entity, dialect.column)
      return [entity, { paths, special: specialSources(paths) }]
    }),
  )

  // Every source once, so that every path a query can read is collected; then the collections close.
  const RECORD_PATH_COLUMNS: ReadonlyMap<CatalogEntity, readonly RecordPathColumn[]> = new Map(
    [...SOURCES].map(([entity, sources]) => {
      for (const column of registryColumnsOf(entity)) sourceIn(sources, column)
      for (const [id, factory] of sources.special) factory({ id, kind: 'string' })
      return [entity, sources.paths.close()]
    }),
  )

  /**
   * The record-path columns of an entity table: what ingest extracts from each record so that no query reads
   * the `record` column (see catalog/record-path-columns.ts).
   */
  const recordPathColumnsOf = (entity: CatalogEntity): readonly RecordPathColumn[] =>
    RECORD_PATH_COLUMNS.get(entity) ?? []

  /** The SQL of a record-path column of the entity's list values at `path` (it must be one ingest writes). */
  const recordListColumn = (entity: CatalogEntity, path: string): string =>
    SOURCES.get(entity)!.paths.list(path)

  /** Where a registry column's values are, for an entity table. */
  const columnSourceOf = (entity: CatalogEntity, column: ColumnRef): ColumnSource => {
    const sources = SOURCES.get(entity)
    if (sources === undefined) throw new Error(`Not a catalog entity: ${entity}`)
    return sourceIn(sources, column)
  }

  return { columnSourceOf, recordListColumn, recordPathColumnsOf }
}
