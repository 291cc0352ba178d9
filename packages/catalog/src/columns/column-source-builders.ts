// The building blocks of the column map in one dialect's SQL: typed derived columns, a registry column read
// from its record-path column, link tables, computed booleans, continents and the Global South. The sources
// of each entity (entity-column-sources.ts) are made of these.
import type { ColumnRef } from '@oqlkit/engine'
import type { CatalogEntity } from '../layout/catalog-entities.ts'
import { type DerivedColumn, derivedColumnsOf } from '../layout/entity-columns.ts'
import type { ExternalIdScheme } from '../layout/external-id-schemes.ts'
import { LINK_TABLES } from '../layout/link-tables.ts'
import { recordJsonPath } from '../records/record-shapes.ts'
import type { ColumnDialect } from './column-dialect.ts'
import type { GroupKeyKind, LinkSource, ListSource, ScalarSource } from './column-source-shapes.ts'
import { continentOfSql, continentUrlSql, isGlobalSouthSql } from './country-geography-sql.ts'
import {
  linkExtremeColumnsOf,
  linkViewOf,
  narrowLinkKeyLetter,
  narrowLinkTableOf,
} from './link-view-names.ts'
import type { RecordPaths } from './record-path-collector.ts'
import { type ValueCodec, valueCodecsFor } from './value-codecs.ts'

type ValueKind = ColumnRef['kind']

export const VALUE_KEY: GroupKeyKind = { kind: 'value' }
export const CODE_KEY: GroupKeyKind = { kind: 'code' }
export const entityKey = (entity: CatalogEntity | null): GroupKeyKind => ({ kind: 'entity', entity })

const derivedColumn = (entity: CatalogEntity, name: string): DerivedColumn => {
  const column = derivedColumnsOf(entity).find((candidate) => candidate.name === name)
  if (column === undefined) throw new Error(`The catalog has no derived column ${entity}.${name}`)
  return column
}

export const scalar = (
  expr: string,
  codec: ValueCodec,
  groupKey: GroupKeyKind,
  groupExpr = expr,
  origin: ScalarSource['origin'] = 'column',
): ScalarSource => ({ kind: 'scalar', expr, codec, groupExpr, groupKey, origin })

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

export const asText = (text: string): string => text

export const ANY_ID_KEY: GroupKeyKind = { kind: 'entity', entity: null }

/** The building blocks of the column map in `dialect`'s SQL (`createColumnMap` makes them once per map). */
export const createColumnSourceBuilders = (dialect: ColumnDialect) => {
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

  return {
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
  }
}

export type ColumnSourceBuilders = ReturnType<typeof createColumnSourceBuilders>
