// Measures the bundled sample snapshot (packages/snapshot/sample-snapshot) for the scale generator: the shapes and skews
// of its works (authors per work, institutions per authorship, years, types, OA statuses, ...) as histograms,
// and the real names and words the generated records reuse (abstract and title words ranked by frequency,
// author name parts, institution, source, publisher and funder names, topics with their subfields, keywords,
// concepts, MeSH descriptors). The result is committed as `sample-profile.json`; a test checks it is still
// what this function measures, so the figures in the generator always trace back to the sample.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import type { CountHistogram, SampleProfile, Share } from './sample-profile.ts'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonRecord = { [key: string]: Json }

const OPENALEX = 'https://openalex.org/'
/** Words that occur at least this often across the abstracts and titles are kept. */
const MIN_WORD_COUNT = 2
const MAX_WORDS = 12_000
const WORD = /^\p{L}[\p{L}'-]{0,29}$/u
const NAME_PART = /^\p{Lu}[\p{L}'-]+$/u

/** Reads every record of one entity of a legacy-layout snapshot, in path order. */
function readEntity(snapshotDir: string, entity: string): JsonRecord[] {
  const entityDir = join(snapshotDir, entity)
  const records: JsonRecord[] = []
  for (const partition of readdirSync(entityDir).sort()) {
    if (!partition.startsWith('updated_date=')) continue
    for (const part of readdirSync(join(entityDir, partition)).sort()) {
      const text = gunzipSync(readFileSync(join(entityDir, partition, part))).toString('utf8')
      for (const line of text.split('\n')) if (line !== '') records.push(JSON.parse(line) as JsonRecord)
    }
  }
  return records
}

const asObject = (value: Json | undefined): JsonRecord | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined
const asList = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : [])
const asObjects = (value: Json | undefined): JsonRecord[] =>
  asList(value).flatMap((item) => {
    const object = asObject(item)
    return object ? [object] : []
  })
const asText = (value: Json | undefined): string | null => (typeof value === 'string' ? value : null)
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Counts of numbers, sorted by value. */
function numberHistogram(values: Iterable<number>): CountHistogram<number> {
  const counts = new Map<number, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts.entries()].sort((a, b) => a[0] - b[0])
}

/** Counts of labels (null included), most frequent first, ties by label. */
function labelHistogram(values: Iterable<string | null>): CountHistogram<string | null> {
  const counts = new Map<string | null, number>()
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1)
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || compareText(String(a[0]), String(b[0])))
}

/** Items ranked by how often they occur, most frequent first, ties by text. */
function ranked(counts: ReadonlyMap<string, number>, minCount = 1): string[] {
  return [...counts.entries()]
    .filter(([, count]) => count >= minCount)
    .sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]))
    .map(([text]) => text)
}

const bump = (counts: Map<string, number>, key: string, by = 1): void => {
  counts.set(key, (counts.get(key) ?? 0) + by)
}

const shortVocabularyId = (id: string): string => id.slice(OPENALEX.length)

export function harvestSampleProfile(snapshotDir: string): SampleProfile {
  const works = readEntity(snapshotDir, 'works')
  const authorships = works.flatMap((work) => asObjects(work.authorships))
  const authorshipInstitutions = authorships.flatMap((authorship) => asObjects(authorship.institutions))

  const words = new Map<string, number>()
  const abstractLengths: number[] = []
  for (const work of works) {
    const index = asObject(work.abstract_inverted_index)
    if (index) {
      let length = 0
      for (const [word, positions] of Object.entries(index)) {
        const count = asList(positions).length
        length += count
        if (WORD.test(word)) bump(words, word, count)
      }
      abstractLengths.push(length)
    }
    const title = asText(work.title)
    if (title) for (const word of title.split(/\s+/)) if (WORD.test(word)) bump(words, word)
  }

  const firstNames = new Map<string, number>()
  const lastNames = new Map<string, number>()
  for (const author of readEntity(snapshotDir, 'authors')) {
    const parts = (asText(author.display_name) ?? '').split(/\s+/)
    if (parts.length < 2) continue
    const first = parts[0]!
    const last = parts[parts.length - 1]!
    if (NAME_PART.test(first) && first.length > 1) bump(firstNames, first)
    if (NAME_PART.test(last) && last.length > 1) bump(lastNames, last)
  }

  const topicUse = new Map<string, number>()
  const keywordUse = new Map<string, number>()
  const conceptUse = new Map<string, number>()
  const fieldDomains = new Map<string, string>()
  for (const work of works) {
    for (const topic of asObjects(work.topics)) {
      bump(topicUse, asText(topic.id) ?? '')
      const field = asText(asObject(topic.field)?.id)
      const domain = asText(asObject(topic.domain)?.id)
      if (field && domain && !fieldDomains.has(field)) fieldDomains.set(field, domain)
    }
    for (const keyword of asObjects(work.keywords)) bump(keywordUse, asText(keyword.id) ?? '')
    for (const concept of asObjects(work.concepts)) bump(conceptUse, asText(concept.id) ?? '')
  }
  const byUse = (use: ReadonlyMap<string, number>) => (a: JsonRecord, b: JsonRecord) =>
    (use.get(asText(b.id) ?? '') ?? 0) - (use.get(asText(a.id) ?? '') ?? 0) ||
    compareText(asText(a.id) ?? '', asText(b.id) ?? '')

  const topics = readEntity(snapshotDir, 'topics')
    .filter((topic) => asText(topic.display_name) && asText(asObject(topic.subfield)?.id))
    .sort(byUse(topicUse))
  for (const topic of topics) {
    const field = asText(asObject(topic.field)?.id)
    const domain = asText(asObject(topic.domain)?.id)
    if (field && domain && !fieldDomains.has(field)) fieldDomains.set(field, domain)
  }

  const mesh = new Map<string, string>()
  for (const work of works) {
    for (const entry of asObjects(work.mesh)) {
      const ui = asText(entry.descriptor_ui)
      const name = asText(entry.descriptor_name)
      if (ui && name) mesh.set(ui, name)
    }
  }

  const institutions = readEntity(snapshotDir, 'institutions').flatMap((record) => {
    const name = asText(record.display_name)
    const country = asText(record.country_code)
    return name && country ? [{ name, country_code: country }] : []
  })
  const uniqueBy = <T>(items: readonly T[], key: (item: T) => string): T[] => {
    const byKey = new Map<string, T>()
    for (const item of items) if (!byKey.has(key(item))) byKey.set(key(item), item)
    return [...byKey.values()]
  }

  const sources = readEntity(snapshotDir, 'sources')
  const hasKey = (key: string) => (record: JsonRecord) => Object.hasOwn(record, key)
  const isTrue = (key: string) => (record: JsonRecord) => record[key] === true
  const shareAmong = (records: readonly JsonRecord[], key: string): Share => {
    const stated = records.filter((record) => typeof record[key] === 'boolean')
    return [stated.filter(isTrue(key)).length, stated.length]
  }
  const openWorks = works.filter((work) => asObject(work.open_access)?.is_oa === true)
  const shareOf = (predicate: (work: JsonRecord) => boolean, among: readonly JsonRecord[] = works): Share => [
    among.filter(predicate).length,
    among.length,
  ]

  return {
    source:
      'Measured from the bundled sample of real OpenAlex records (packages/snapshot/sample-snapshot) by sample-profile-harvester.ts',
    works: works.length,
    authorsPerWork: numberHistogram(works.map((work) => asList(work.authorships).length)),
    institutionsPerAuthorship: numberHistogram(
      authorships.map((authorship) => asList(authorship.institutions).length),
    ),
    institutionCountries: labelHistogram(
      authorshipInstitutions.map((institution) => asText(institution.country_code)),
    ),
    institutionTypes: labelHistogram(authorshipInstitutions.map((institution) => asText(institution.type))),
    publicationYears: numberHistogram(
      works.flatMap((work) => (typeof work.publication_year === 'number' ? [work.publication_year] : [])),
    ),
    types: labelHistogram(works.map((work) => asText(work.type))),
    oaStatuses: labelHistogram(works.map((work) => asText(asObject(work.open_access)?.oa_status))),
    oaLicenses: labelHistogram(openWorks.map((work) => asText(asObject(work.primary_location)?.license))),
    languages: labelHistogram(works.map((work) => asText(work.language))),
    primarySourceTypes: labelHistogram(
      works.map((work) => asText(asObject(asObject(work.primary_location)?.source)?.type)),
    ),
    topicsPerWork: numberHistogram(works.map((work) => asList(work.topics).length)),
    keywordsPerWork: numberHistogram(
      works.filter(hasKey('keywords')).map((work) => asList(work.keywords).length),
    ),
    conceptsPerWork: numberHistogram(works.map((work) => asList(work.concepts).length)),
    conceptLevels: numberHistogram(
      works.flatMap((work) =>
        asObjects(work.concepts).flatMap((concept) =>
          typeof concept.level === 'number' ? [concept.level] : [],
        ),
      ),
    ),
    referencedWorksPerWork: numberHistogram(works.map((work) => asList(work.referenced_works).length)),
    relatedWorksPerWork: numberHistogram(works.map((work) => asList(work.related_works).length)),
    locationsPerWork: numberHistogram(works.map((work) => asList(work.locations).length)),
    sdgsPerWork: numberHistogram(works.map((work) => asList(work.sustainable_development_goals).length)),
    sdgs: labelHistogram(
      works.flatMap((work) => asObjects(work.sustainable_development_goals).map((goal) => asText(goal.id))),
    ),
    fundersPerWork: numberHistogram(
      works.filter(hasKey('funders')).map((work) => asList(work.funders).length),
    ),
    meshPerPubmedWork: numberHistogram(
      works
        .filter((work) => asList(work.indexed_in).includes('pubmed'))
        .map((work) => asList(work.mesh).length),
    ),
    abstractLengths: numberHistogram(abstractLengths),
    titleWords: numberHistogram(
      works.flatMap((work) => {
        const title = asText(work.title)
        return title ? [title.split(/\s+/).length] : []
      }),
    ),
    citedByCount: numberHistogram(
      works.map((work) => (typeof work.cited_by_count === 'number' ? work.cited_by_count : 0)),
    ),
    updatedMonths: labelHistogram(works.map((work) => (asText(work.updated_date) ?? '').slice(0, 7))),
    shares: {
      abstract: shareOf((work) => asObject(work.abstract_inverted_index) !== undefined),
      doi: shareOf((work) => asText(work.doi) !== null),
      title: shareOf((work) => asText(work.title) !== null),
      yearOnlyDate: shareOf((work) => (asText(work.publication_date) ?? '').endsWith('-01-01')),
      pubmed: shareOf((work) => asList(work.indexed_in).includes('pubmed')),
      hasFulltext: shareOf((work) => work.has_fulltext === true, works.filter(hasKey('has_fulltext'))),
      retracted: shareOf((work) => work.is_retracted === true),
      apcList: shareOf((work) => asObject(work.apc_list) !== undefined),
      apcPaid: shareOf((work) => asObject(work.apc_paid) !== undefined),
      correspondingAuthorship: shareOf((authorship) => authorship.is_corresponding === true, authorships),
      orcidAuthorship: shareOf(
        (authorship) => asText(asObject(authorship.author)?.orcid) !== null,
        authorships,
      ),
      xpac: shareOf((work) => work.is_xpac === true, works.filter(hasKey('is_xpac'))),
    },
    words: ranked(words, MIN_WORD_COUNT).slice(0, MAX_WORDS),
    firstNames: ranked(firstNames),
    lastNames: ranked(lastNames),
    institutions: uniqueBy(institutions, (item) => item.name).sort(
      (a, b) => compareText(a.country_code, b.country_code) || compareText(a.name, b.name),
    ),
    sourceTypes: labelHistogram(sources.map((record) => asText(record.type))),
    sourceShares: {
      oa: shareAmong(sources, 'is_oa'),
      doaj: shareAmong(sources, 'is_in_doaj'),
      core: shareAmong(sources, 'is_core'),
      scopus: shareAmong(sources, 'is_indexed_in_scopus'),
    },
    sources: uniqueBy(
      sources.flatMap((record) => {
        const name = asText(record.display_name)
        const type = asText(record.type)
        return name && type ? [{ name, type }] : []
      }),
      (item) => item.name,
    ).sort((a, b) => compareText(a.type, b.type) || compareText(a.name, b.name)),
    publishers: [
      ...new Set(
        readEntity(snapshotDir, 'publishers').flatMap((record) => asText(record.display_name) ?? []),
      ),
    ].sort(compareText),
    funders: [
      ...new Set(readEntity(snapshotDir, 'funders').flatMap((record) => asText(record.display_name) ?? [])),
    ].sort(compareText),
    topics: topics.map((topic) => ({
      name: asText(topic.display_name)!,
      subfield: shortVocabularyId(asText(asObject(topic.subfield)?.id)!),
    })),
    fieldDomains: Object.fromEntries(
      [...fieldDomains.entries()]
        .map(([field, domain]) => [shortVocabularyId(field), shortVocabularyId(domain)] as const)
        .sort((a, b) => compareText(a[0], b[0])),
    ),
    keywords: readEntity(snapshotDir, 'keywords')
      .filter((record) => asText(record.display_name))
      .sort(byUse(keywordUse))
      .map((record) => ({
        slug: asText(record.id)!.slice(`${OPENALEX}keywords/`.length),
        name: asText(record.display_name)!,
      })),
    concepts: readEntity(snapshotDir, 'concepts')
      .filter((record) => asText(record.display_name) && typeof record.level === 'number')
      .sort(byUse(conceptUse))
      .map((record) => ({
        name: asText(record.display_name)!,
        level: record.level as number,
        wikidata: asText(record.wikidata),
      })),
    mesh: [...mesh.entries()].sort((a, b) => compareText(a[0], b[0])).map(([ui, name]) => ({ ui, name })),
  }
}
