// The columns of each entity with a faster or computed source than their record path: derived columns of the
// entity table, link tables of works, the external-id table, and values the API computes (`has_orcid`,
// `best_open_version`, continents). Every other registry column is read from its record path.
import type { ColumnRef } from '@oqlkit/engine'
import { catalogEntityInfo } from '../layout/catalog-entities.ts'
import { derivedColumnsOf } from '../layout/entity-columns.ts'
import type { ColumnDialect } from './column-dialect.ts'
import { asText, type ColumnSourceBuilders, entityKey, scalar, VALUE_KEY } from './column-source-builders.ts'
import type { ColumnSource, ListSource, ScalarSource } from './column-source-shapes.ts'
import { anyGlobalSouthSql } from './country-geography-sql.ts'
import type { RecordPaths } from './record-path-collector.ts'

type ValueKind = ColumnRef['kind']

export type SourceFactory = (column: ColumnRef) => ColumnSource

const ANY_OA_VERSION = ['submittedVersion', 'acceptedVersion', 'publishedVersion']
const ACCEPTED_OR_PUBLISHED = ['acceptedVersion', 'publishedVersion']
const PUBLISHED = ['publishedVersion']
const SUBMITTED = ['submittedVersion']

/** Columns with a faster or computed source than their record path, for the entity of `paths`. */
export const specialSourcesOf = (
  dialect: ColumnDialect,
  builders: ColumnSourceBuilders,
  paths: RecordPaths,
): ReadonlyMap<string, SourceFactory> => {
  const {
    codecs,
    derived,
    derivedNumber,
    derivedBoolean,
    derivedCode,
    derivedLetterId,
    derivedPathId,
    derivedExternal,
    derivedTime,
    fromRecord,
    link,
    computedBoolean,
    nonEmpty,
    oaLocationWithVersion,
    SCOPUS_CODEC,
    continentScalar,
    continentList,
    globalSouthScalar,
  } = builders
  const NUMBER_CODEC = codecs.number
  const DATE_CODEC = codecs.date
  const TIMESTAMP_CODEC = codecs.timestamp
  const TEXT_CODEC = codecs.text
  const ID_CODEC = codecs.id
  const LETTER_ID_CODEC = codecs.letterId
  const CODE_CODEC = codecs.code
  const externalIdCodec = codecs.externalId
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
      sources.set('primary_location.source.id', () => derivedLetterId(entity, 'primary_source_id', 'sources'))
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
      sources.set('has_references', () => computedBoolean(`${dialect.column('referenced_works_count')} > 0`))
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
      sources.set('has_oa_submitted_version', () => computedBoolean(oaLocationWithVersion(paths, SUBMITTED)))
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
