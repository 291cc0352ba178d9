// Builds the JSON line of one generated work, in the key order of the 2026 API's work records (the newest
// real records of the sample), with `grants` kept beside `awards` and `funders` as the records of late 2025
// have them. Every draw comes from the work's own random stream, so a work is a function of (seed, index)
// plus the citation graph. The line is assembled from pre-serialised fragments (sources, institutions,
// topics, terms) because JSON.stringify of whole records would dominate the run time.
import { vocabularyOf } from '@oqlkit/oqo-schema'
import { vocabularyUrl } from '../sample/openalex-id-classifier.ts'
import { AUTHOR_AFFILIATIONS, type AuthorPool } from './author-pool.ts'
import type { CitationYearCounts } from './citation-graph-builder.ts'
import type { CitationNormalizer } from './citation-normalizer.ts'
import { type AffinePermutation, WeightedPicker, type ZipfSampler } from './distribution-samplers.ts'
import { forgeWorkDoi } from './external-id-forge.ts'
import { COUNTS_FIRST_YEAR, GENERATED_ID_BASE, LAST_YEAR, type YearLayout } from './generation-plan.ts'
import type { OrganizationPools } from './organization-pools.ts'
import { SAMPLE_PROFILE, type Share } from './sample-profile.ts'
import { RandomStream, SeededRandom } from './seeded-random.ts'
import type { GeneratedTerm, TermPools } from './term-pools.ts'
import type { TextGenerator } from './text-generator.ts'
import type { TopicPool } from './topic-pool.ts'
import type { Uint32SpoolReader } from './uint32-spool.ts'

const OPENALEX = 'https://openalex.org/'
const PAGES = 'https://oqlkit.example/works/'

/** Modelling choices the sample cannot measure (it has no xpac work, too few retractions, ...). */
const XPAC_SHARE = 0.02
const SAME_SUBFIELD_TOPIC_SHARE = 0.7
const CONTENT_PDF_SHARE = 0.1
const MAJOR_MESH_SHARE = 0.25
/** The sample's longest abstracts run to 4,600 tokens; a few very long ones are kept, not more. */
const MAX_ABSTRACT_TOKENS = 2_000
const REPOSITORY = 'repository'
/** `raw_type` of a location: what the source calls the work (Crossref types for publisher copies). */
const RAW_TYPES: Readonly<Record<string, string>> = {
  article: 'journal-article',
  review: 'journal-article',
  letter: 'journal-article',
  editorial: 'journal-article',
  erratum: 'journal-article',
  preprint: 'posted-content',
  'reference-entry': 'reference-entry',
}
const REPOSITORY_RAW_TYPE = 'text'
const OPEN_STATUSES_AT_PUBLISHER = new Set(['gold', 'diamond', 'hybrid', 'bronze'])

const vocabularyCodes = (entity: Parameters<typeof vocabularyOf>[0]): Set<string> =>
  new Set((vocabularyOf(entity) ?? []).map((entry) => entry.code))
const SDG_NAMES = new Map((vocabularyOf('sdgs') ?? []).map((entry) => [entry.code, entry.displayName]))
const share = ([matching, of]: Share): number => (of === 0 ? 0 : matching / of)
const round4 = (value: number): number => Math.round(value * 10_000) / 10_000
const json = JSON.stringify

/** What a work links to, for the entity and vocabulary counts (reused between works). */
export class WorkLinks {
  authors: number[] = []
  institutions: number[] = []
  source = -1
  publisher = -1
  funders: number[] = []
  topics: number[] = []
  keywords: number[] = []
  concepts: number[] = []
  /** Full ids of the vocabulary values the work links to (may repeat). */
  vocabulary: string[] = []
  primaryTopic = -1
  isOa = false

  reset(): void {
    this.authors.length = 0
    this.institutions.length = 0
    this.source = -1
    this.publisher = -1
    this.funders.length = 0
    this.topics.length = 0
    this.keywords.length = 0
    this.concepts.length = 0
    this.vocabulary.length = 0
    this.primaryTopic = -1
    this.isOa = false
  }
}

/** The topics a work has: how many, and its primary one (drawn on a stream of their own, see pass 1). */
export class WorkTopicChooser {
  readonly #seed: number
  readonly #topics: TopicPool
  readonly #random = new SeededRandom()
  readonly #counts = WeightedPicker.fromHistogram(SAMPLE_PROFILE.topicsPerWork)

  constructor(seed: number, topics: TopicPool) {
    this.#seed = seed
    this.#topics = topics
  }

  /** Writes the topic count then the primary topic into `into`. */
  choose(work: number, into: [number, number]): void {
    const random = this.#random.at(this.#seed, RandomStream.workTopic, work)
    into[0] = this.#counts.pick(random)
    into[1] = this.#topics.popularity.sample(random)
  }
}

export interface WorkBuildContext {
  readonly seed: number
  readonly works: number
  readonly layout: YearLayout
  readonly ids: AffinePermutation
  readonly topics: TopicPool
  readonly topicChooser: WorkTopicChooser
  readonly orgs: OrganizationPools
  readonly authors: AuthorPool
  readonly terms: TermPools
  readonly text: TextGenerator
  readonly cited: Uint32Array
  readonly citationsByYear: CitationYearCounts
  readonly normalizer: CitationNormalizer
  readonly references: Uint32SpoolReader
  /** Partition dates works may go to, with weights. */
  readonly partitions: ReadonlyArray<readonly [string, number]>
}

export interface BuiltWork {
  readonly line: string
  readonly partition: string
}

export class WorkRecordBuilder {
  readonly #c: WorkBuildContext
  readonly #random = new SeededRandom()
  readonly #topicPair: [number, number] = [0, 0]
  readonly #authorsPerWork = WeightedPicker.fromHistogram(SAMPLE_PROFILE.authorsPerWork)
  readonly #institutionsPerAuthorship = WeightedPicker.fromHistogram(SAMPLE_PROFILE.institutionsPerAuthorship)
  readonly #types: WeightedPicker<string>
  readonly #oaStatuses: WeightedPicker<string>
  readonly #languages: WeightedPicker<string | null>
  readonly #sourceTypes: WeightedPicker<string | null>
  readonly #licenses: WeightedPicker<string>
  readonly #keywordCounts = WeightedPicker.fromHistogram(SAMPLE_PROFILE.keywordsPerWork)
  readonly #conceptCounts = WeightedPicker.fromHistogram(SAMPLE_PROFILE.conceptsPerWork)
  readonly #locationCounts = WeightedPicker.fromHistogram(SAMPLE_PROFILE.locationsPerWork)
  readonly #sdgCounts = WeightedPicker.fromHistogram(SAMPLE_PROFILE.sdgsPerWork)
  readonly #sdgs: WeightedPicker<string>
  readonly #funderCounts = WeightedPicker.fromHistogram(SAMPLE_PROFILE.fundersPerWork)
  readonly #meshCounts = WeightedPicker.fromHistogram(SAMPLE_PROFILE.meshPerPubmedWork, (count) => count > 0)
  readonly #relatedCounts = WeightedPicker.fromHistogram(SAMPLE_PROFILE.relatedWorksPerWork)
  readonly #abstractLengths = WeightedPicker.fromHistogram(
    SAMPLE_PROFILE.abstractLengths,
    (length) => length > 0 && length <= MAX_ABSTRACT_TOKENS,
  )
  readonly #titleLengths = WeightedPicker.fromHistogram(SAMPLE_PROFILE.titleWords)
  readonly #shares: Readonly<Record<keyof typeof SAMPLE_PROFILE.shares, number>>
  readonly #vocabularyIds = new Map<string, string>()

  constructor(context: WorkBuildContext) {
    this.#c = context
    const types = vocabularyCodes('types')
    const statuses = vocabularyCodes('oa-statuses')
    const languages = vocabularyCodes('languages')
    const sourceTypes = vocabularyCodes('source-types')
    const licenses = vocabularyCodes('licenses')
    // Values the vocabularies do not list (the sample has works typed `grant`, a language `ng`) are left
    // out, so every value a generated work uses has a vocabulary record.
    this.#types = WeightedPicker.fromHistogram(
      SAMPLE_PROFILE.types,
      (t): t is string => t !== null && types.has(t),
    )
    this.#oaStatuses = WeightedPicker.fromHistogram(
      SAMPLE_PROFILE.oaStatuses,
      (s): s is string => s !== null && statuses.has(s),
    )
    this.#languages = WeightedPicker.fromHistogram(
      SAMPLE_PROFILE.languages,
      (l) => l === null || languages.has(l),
    )
    this.#sourceTypes = WeightedPicker.fromHistogram(
      SAMPLE_PROFILE.primarySourceTypes,
      (t) => t === null || sourceTypes.has(t),
    )
    this.#licenses = WeightedPicker.fromHistogram(
      SAMPLE_PROFILE.oaLicenses,
      (l): l is string => l !== null && licenses.has(l),
    )
    const goals = SAMPLE_PROFILE.sdgs.flatMap(([id, count]) => {
      const code = id === null ? undefined : /\/sdg\/(\d+)$/.exec(id)?.[1]
      return code !== undefined && SDG_NAMES.has(code) ? [[code, count] as const] : []
    })
    this.#sdgs = new WeightedPicker(goals)
    const shares = {} as Record<keyof typeof SAMPLE_PROFILE.shares, number>
    for (const key of Object.keys(SAMPLE_PROFILE.shares) as Array<keyof typeof SAMPLE_PROFILE.shares>) {
      shares[key] = share(SAMPLE_PROFILE.shares[key])
    }
    this.#shares = shares
  }

  /** The OpenAlex id number of work `index`: ids are scattered over the index order, which is time order. */
  idNumber(index: number): number {
    return GENERATED_ID_BASE + this.#c.ids.apply(index)
  }

  build(index: number, links: WorkLinks): BuiltWork {
    const c = this.#c
    const r = this.#random.at(c.seed, RandomStream.work, index)
    links.reset()
    const idNumber = this.idNumber(index)
    const id = `${OPENALEX}W${idNumber}`
    const year = c.layout.yearOf(index)
    const cited = c.cited[index]!
    const vocab = (shortId: string) => links.vocabulary.push(this.#vocabularyId(shortId))

    const type = this.#types.pick(r)
    vocab(`types/${type}`)
    const hasDoi = r.chance(this.#shares.doi)
    const doi = hasDoi ? forgeWorkDoi(idNumber) : null
    const title = r.chance(this.#shares.title) ? c.text.title(r, this.#titleLengths.pick(r)) : null
    const publicationDate = this.#publicationDate(r, year)
    const language = this.#languages.pick(r)
    if (language !== null) vocab(`languages/${language}`)

    // ---- where it was published, and open access ----
    let sourceType = this.#sourceTypes.pick(r)
    if (type === 'preprint' || type === 'dataset' || type === 'dissertation') sourceType = REPOSITORY
    else if (
      (type === 'book' || type === 'book-chapter') &&
      (sourceType === 'journal' || sourceType === 'conference')
    )
      sourceType = 'ebook platform'
    const sourceIndex = sourceType === null ? null : c.orgs.pickSource(sourceType, r)
    const source = sourceIndex === null ? undefined : c.orgs.sources[sourceIndex]
    if (source) {
      links.source = source.index
      links.vocabulary.push(source.typeVocabularyId)
      if (source.publisher !== null) links.publisher = source.publisher
    }
    const oaStatus = this.#oaStatuses.pick(r)
    vocab(`oa-statuses/${oaStatus}`)
    const openAtPublisher = OPEN_STATUSES_AT_PUBLISHER.has(oaStatus)
    const license = openAtPublisher && oaStatus !== 'bronze' ? this.#licenses.pick(r) : null
    if (license !== null) vocab(`licenses/${license}`)
    const landing = doi ?? `${PAGES}W${idNumber}`
    const locations: string[] = []
    let bestOa: string | null = null
    let repositoryOpen = false
    const primary = this.#location(
      doi === null ? `oqlkit:W${idNumber}` : `doi:${doi.slice('https://doi.org/'.length)}`,
      openAtPublisher,
      landing,
      openAtPublisher ? `${PAGES}W${idNumber}.pdf` : null,
      source?.json ?? null,
      license,
      source ? 'publishedVersion' : null,
      source?.name ?? null,
      source ? (RAW_TYPES[type] ?? type) : null,
    )
    locations.push(primary)
    if (openAtPublisher) bestOa = primary
    const extra = Math.max(this.#locationCounts.pick(r), oaStatus === 'green' ? 2 : 1) - 1
    for (let k = 0; k < extra; k++) {
      const repository = c.orgs.pickSource(REPOSITORY, r)
      if (repository === null) break
      const host = c.orgs.sources[repository]!
      // A green work is open only through its repository copies; other works' copies follow their status.
      const open = oaStatus === 'green' ? k === 0 || r.chance(0.5) : oaStatus !== 'closed' && r.chance(0.5)
      const location = this.#location(
        `pmh:oai:oqlkit.example:W${idNumber}/${k + 1}`,
        open,
        `${PAGES}W${idNumber}/copy/${k + 1}`,
        open ? `${PAGES}W${idNumber}/copy/${k + 1}.pdf` : null,
        host.json,
        open && r.chance(0.5) ? 'cc-by' : null,
        r.chance(0.8) ? 'submittedVersion' : 'acceptedVersion',
        host.name,
        REPOSITORY_RAW_TYPE,
      )
      locations.push(location)
      if (open) {
        repositoryOpen = true
        bestOa ??= location
      }
    }
    const isOa = oaStatus !== 'closed'
    links.isOa = isOa
    const oaUrl = isOa
      ? openAtPublisher
        ? `${PAGES}W${idNumber}.pdf`
        : `${PAGES}W${idNumber}/copy/1.pdf`
      : null

    const indexedIn: string[] = []
    const pubmed = r.chance(this.#shares.pubmed)
    if (doi !== null && sourceType !== REPOSITORY) indexedIn.push('crossref')
    if (doi !== null && sourceType === REPOSITORY) indexedIn.push('datacite')
    if (source?.isInDoaj && isOa) indexedIn.push('doaj')
    if (pubmed) indexedIn.push('pubmed')
    for (const index of indexedIn) vocab(`indexes/${index}`)

    // ---- authors ----
    const authorCount = this.#authorsPerWork.pick(r)
    c.topicChooser.choose(index, this.#topicPair)
    const [topicCount, primaryTopic] = this.#topicPair
    let authorships = ''
    const correspondingAuthors: string[] = []
    const correspondingInstitutions: string[] = []
    const countries = new Set<string>()
    for (let position = 0; position < authorCount; position++) {
      let pick = c.authors.pick(primaryTopic, r)
      for (let attempt = 1; attempt < 12 && links.authors.includes(pick); attempt++)
        pick = c.authors.pick(primaryTopic, r, attempt)
      if (links.authors.includes(pick)) continue
      links.authors.push(pick)
      const author = c.authors.author(pick)
      const wanted = Math.min(this.#institutionsPerAuthorship.pick(r), AUTHOR_AFFILIATIONS)
      const mine: number[] = []
      for (const institution of author.institutions) {
        if (mine.length === wanted) break
        if (!mine.includes(institution)) mine.push(institution)
      }
      const corresponding = r.chance(this.#shares.correspondingAuthorship)
      let institutions = ''
      let raw = ''
      let affiliations = ''
      const authorCountries: string[] = []
      for (const k of mine) {
        const institution = c.orgs.institutions[k]!
        const sep = institutions === '' ? '' : ','
        institutions += sep + institution.json
        const name = json(institution.name)
        raw += sep + name
        affiliations += `${sep}{"raw_affiliation_string":${name},"institution_ids":[${json(institution.id)}]}`
        if (!authorCountries.includes(institution.countryCode)) authorCountries.push(institution.countryCode)
        if (!links.institutions.includes(k)) links.institutions.push(k)
        links.vocabulary.push(institution.typeVocabularyId)
        if (corresponding) correspondingInstitutions.push(institution.id)
      }
      for (const country of authorCountries) {
        countries.add(country)
        vocab(`countries/${country}`)
      }
      if (corresponding) correspondingAuthors.push(author.id)
      const role = position === 0 ? 'first' : position === authorCount - 1 ? 'last' : 'middle'
      authorships +=
        `${authorships === '' ? '' : ','}{"author_position":"${role}","author":{"id":${json(author.id)},` +
        `"display_name":${json(author.name)},"orcid":${author.orcid === null ? 'null' : json(author.orcid)}},` +
        `"institutions":[${institutions}],"countries":${json(authorCountries)},"is_corresponding":${corresponding},` +
        `"raw_author_name":${json(author.name)},"raw_affiliation_strings":[${raw}],"affiliations":[${affiliations}]}`
    }

    // ---- topics, keywords, concepts, MeSH, SDGs ----
    let topicsJson = ''
    let primaryTopicJson = 'null'
    if (topicCount > 0) {
      links.topics.push(primaryTopic)
      links.primaryTopic = primaryTopic
      const siblings = c.topics.bySubfield.get(c.topics.topics[primaryTopic]!.subfield.id) ?? []
      for (let attempt = 0; links.topics.length < topicCount && attempt < 4 * topicCount; attempt++) {
        const next =
          siblings.length > 1 && r.chance(SAME_SUBFIELD_TOPIC_SHARE)
            ? siblings[r.int(siblings.length)]!
            : c.topics.popularity.sample(r)
        if (!links.topics.includes(next)) links.topics.push(next)
      }
      let score = round4(r.between(0.95, 1))
      links.topics.forEach((t, k) => {
        const topic = c.topics.topics[t]!
        const entry = `${topic.head},"score":${score}${topic.tail}`
        if (k === 0) primaryTopicJson = entry
        topicsJson += (k === 0 ? '' : ',') + entry
        links.vocabulary.push(topic.subfield.id, topic.field.id, topic.domain.id)
        score = round4(r.between(0.04, score))
      })
    }
    const keywordsJson = this.#terms(
      r,
      this.#keywordCounts.pick(r),
      links.keywords,
      c.terms.keywords,
      c.terms.keywordPopularity,
    )
    const conceptsJson = this.#terms(
      r,
      this.#conceptCounts.pick(r),
      links.concepts,
      c.terms.concepts,
      c.terms.conceptPopularity,
    )
    let mesh = ''
    if (pubmed) {
      const count = this.#meshCounts.pick(r)
      for (let k = 0; k < count; k++) {
        const descriptor = SAMPLE_PROFILE.mesh[r.int(SAMPLE_PROFILE.mesh.length)]!
        mesh +=
          `${k === 0 ? '' : ','}{"descriptor_ui":${json(descriptor.ui)},"descriptor_name":${json(descriptor.name)},` +
          `"qualifier_ui":null,"qualifier_name":null,"is_major_topic":${r.chance(MAJOR_MESH_SHARE)}}`
      }
    }
    const goals: string[] = []
    let sdgsJson = ''
    for (let k = this.#sdgCounts.pick(r); k > 0; k--) {
      const goal = this.#sdgs.pick(r)
      if (goals.includes(goal)) continue
      goals.push(goal)
      vocab(`sdgs/${goal}`)
      sdgsJson +=
        `${sdgsJson === '' ? '' : ','}{"id":"https://metadata.un.org/sdg/${goal}",` +
        `"display_name":${json(SDG_NAMES.get(goal))},"score":${round4(r.between(0.4, 0.95))}}`
    }

    // ---- funding ----
    let grants = ''
    let funders = ''
    for (let k = this.#funderCounts.pick(r); k > 0; k--) {
      const f = c.orgs.funderPicker.pick(r)
      if (links.funders.includes(f)) continue
      links.funders.push(f)
      const funder = c.orgs.funders[f]!
      const sep = funders === '' ? '' : ','
      funders += sep + funder.json
      grants +=
        `${sep}{"funder":${json(funder.id)},"funder_display_name":${json(funder.name)},` +
        `"award_id":${r.chance(0.7) ? json(`OQL-${idNumber}-${links.funders.length}`) : 'null'}}`
    }

    // ---- citations, text ----
    const referenceCount = c.references.next()
    let referenced = ''
    for (let k = 0; k < referenceCount; k++) {
      referenced += `${k === 0 ? '' : ','}"${OPENALEX}W${this.idNumber(c.references.next())}"`
    }
    const related: number[] = []
    const relatedWanted = Math.min(this.#relatedCounts.pick(r), c.works - 1)
    for (let attempt = 0; related.length < relatedWanted && attempt < relatedWanted * 3; attempt++) {
      const other = r.int(c.works)
      if (other !== index && !related.includes(other)) related.push(other)
    }
    const abstract = r.chance(this.#shares.abstract)
      ? c.text.invertedIndex(r, this.#abstractLengths.pick(r))
      : 'null'
    let countsByYear = ''
    for (let y = LAST_YEAR; y >= Math.max(year, COUNTS_FIRST_YEAR); y--) {
      const count = c.citationsByYear.get(index, y)
      if (count > 0)
        countsByYear += `${countsByYear === '' ? '' : ','}{"year":${y},"cited_by_count":${count}}`
    }

    // ---- the rest ----
    const apc =
      source?.apcUsd != null
        ? `{"value":${source.apcUsd},"currency":"USD","value_usd":${source.apcUsd}}`
        : 'null'
    const apcPaid = apc !== 'null' && (oaStatus === 'gold' || oaStatus === 'hybrid') ? apc : 'null'
    const percentile = c.normalizer.normalizedPercentile(index)
    const yearPercentile = c.normalizer.yearPercentile(index)
    const fwci = c.normalizer.fwci(index)
    const journal = source?.type === 'journal'
    const firstPage = 1 + r.int(3000)
    const biblio = journal
      ? `{"volume":"${Math.max(1, year - 1950)}","issue":"${1 + r.int(12)}","first_page":"${firstPage}","last_page":"${firstPage + 4 + r.int(26)}"}`
      : '{"volume":null,"issue":null,"first_page":null,"last_page":null}'
    const pdf = isOa && r.chance(CONTENT_PDF_SHARE)
    const grobid = pdf && r.chance(0.8)
    const contentUrls = pdf
      ? `{"pdf":"https://content.openalex.org/works/W${idNumber}.pdf"${grobid ? `,"grobid_xml":"https://content.openalex.org/works/W${idNumber}.grobid-xml"` : ''}}`
      : 'null'
    const partition = this.#partition(r, publicationDate)
    const updated = `${partition}T${this.#clock(r)}`
    const created = `${publicationDate < '2016-06-24' ? '2016-06-24' : publicationDate > partition ? partition : publicationDate}T00:00:00`
    const titleJson = title === null ? 'null' : json(title)
    const doiJson = doi === null ? 'null' : json(doi)
    const ids =
      `{"openalex":${json(id)}${doi === null ? '' : `,"doi":${doiJson}`}` +
      `${pubmed ? `,"pmid":"https://pubmed.ncbi.nlm.nih.gov/${900_000_000 + index}"` : ''}}`

    const line =
      `{"id":${json(id)},"doi":${doiJson},"title":${titleJson},"display_name":${titleJson},` +
      `"publication_year":${year},"publication_date":"${publicationDate}","ids":${ids},` +
      `"language":${language === null ? 'null' : json(language)},"primary_location":${primary},"type":${json(type)},` +
      `"indexed_in":${json(indexedIn)},"open_access":{"is_oa":${isOa},"oa_status":${json(oaStatus)},` +
      `"oa_url":${oaUrl === null ? 'null' : json(oaUrl)},"any_repository_has_fulltext":${repositoryOpen}},` +
      `"authorships":[${authorships}],"institutions":[],"countries_distinct_count":${countries.size},` +
      `"institutions_distinct_count":${links.institutions.length},` +
      `"corresponding_author_ids":${json(correspondingAuthors)},` +
      `"corresponding_institution_ids":${json([...new Set(correspondingInstitutions)])},` +
      `"apc_list":${apc},"apc_paid":${apcPaid},"fwci":${fwci === null ? 'null' : fwci},` +
      `"has_fulltext":${r.chance(this.#shares.hasFulltext)},"cited_by_count":${cited},` +
      `"citation_normalized_percentile":${percentile === null ? 'null' : `{"value":${percentile.value},"is_in_top_1_percent":${percentile.top1},"is_in_top_10_percent":${percentile.top10}}`},` +
      `"cited_by_percentile_year":{"min":${yearPercentile.min},"max":${yearPercentile.max}},"biblio":${biblio},` +
      `"is_retracted":${r.chance(this.#shares.retracted)},"is_paratext":${type === 'paratext'},` +
      `"is_xpac":${r.chance(XPAC_SHARE)},"primary_topic":${primaryTopicJson},"topics":[${topicsJson}],` +
      `"keywords":[${keywordsJson}],"concepts":[${conceptsJson}],"mesh":[${mesh}],` +
      `"locations_count":${locations.length},"locations":[${locations.join(',')}],"best_oa_location":${bestOa ?? 'null'},` +
      `"sustainable_development_goals":[${sdgsJson}],"grants":[${grants}],"awards":[],"funders":[${funders}],` +
      `"has_content":{"grobid_xml":${grobid},"pdf":${pdf}},"content_urls":${contentUrls},` +
      `"referenced_works_count":${referenceCount},"referenced_works":[${referenced}],` +
      `"related_works":[${related.map((other) => `"${OPENALEX}W${this.idNumber(other)}"`).join(',')}],` +
      `"abstract_inverted_index":${abstract},"counts_by_year":[${countsByYear}],` +
      `"updated_date":"${updated}","created_date":"${created}"}`
    return { line, partition }
  }

  /** `count` distinct Zipf-popular terms with descending scores, as embedded objects. */
  /** The `count` terms a work embeds (beyond those `chosen` already), drawn by `popularity`, with scores. */
  #terms(
    r: SeededRandom,
    count: number,
    chosen: number[],
    terms: readonly GeneratedTerm[],
    popularity: ZipfSampler,
  ): string {
    const wanted = Math.min(count, popularity.size)
    for (let attempt = 0; chosen.length < wanted && attempt < wanted * 4; attempt++) {
      const term = popularity.sample(r)
      if (!chosen.includes(term)) chosen.push(term)
    }
    let out = ''
    let score = r.between(0.5, 0.95)
    chosen.forEach((term, k) => {
      out += `${k === 0 ? '' : ','}${terms[term]!.head}${round4(score)}}`
      score = r.between(0.15, score)
    })
    return out
  }

  #location(
    id: string,
    isOa: boolean,
    landing: string,
    pdf: string | null,
    source: string | null,
    license: string | null,
    version: string | null,
    rawSourceName: string | null,
    rawType: string | null,
  ): string {
    return (
      `{"id":${json(id)},"is_oa":${isOa},"landing_page_url":${json(landing)},"pdf_url":${pdf === null ? 'null' : json(pdf)},` +
      `"source":${source ?? 'null'},"license":${license === null ? 'null' : json(license)},` +
      `"license_id":${license === null ? 'null' : json(`${OPENALEX}licenses/${license}`)},` +
      `"version":${version === null ? 'null' : json(version)},"is_accepted":${version !== null && version !== 'submittedVersion'},` +
      `"is_published":${version === 'publishedVersion'},"raw_source_name":${rawSourceName === null ? 'null' : json(rawSourceName)},` +
      `"raw_type":${rawType === null ? 'null' : json(rawType)}}`
    )
  }

  #publicationDate(r: SeededRandom, year: number): string {
    if (r.chance(this.#shares.yearOnlyDate)) return `${year}-01-01`
    const days = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 366 : 365
    return new Date(Date.UTC(year, 0, 1 + r.int(days))).toISOString().slice(0, 10)
  }

  /** A partition on or after the publication date (the newest when none is), by the sample's weights. */
  #partition(r: SeededRandom, publicationDate: string): string {
    const partitions = this.#c.partitions
    let total = 0
    for (const [date, weight] of partitions) if (date >= publicationDate) total += weight
    if (total === 0) return partitions[partitions.length - 1]![0]
    let target = r.float() * total
    for (const [date, weight] of partitions) {
      if (date < publicationDate) continue
      target -= weight
      if (target < 0) return date
    }
    return partitions[partitions.length - 1]![0]
  }

  #clock(r: SeededRandom): string {
    const pad = (value: number, width: number) => String(value).padStart(width, '0')
    return `${pad(r.int(24), 2)}:${pad(r.int(60), 2)}:${pad(r.int(60), 2)}.${pad(r.int(1_000_000), 6)}`
  }

  #vocabularyId(shortId: string): string {
    let id = this.#vocabularyIds.get(shortId)
    if (id === undefined) {
      id = vocabularyUrl(shortId)
      this.#vocabularyIds.set(shortId, id)
    }
    return id
  }
}
