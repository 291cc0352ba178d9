// Builds the JSON line of one generated work, in the key order of the 2026 API's work records (the newest
// real records of the sample), with `grants` kept beside `awards` and `funders` as the records of late 2025
// have them. Every draw comes from the work's own random stream, so a work is a function of (seed, index)
// plus the citation graph. The line is written as UTF-8 straight into the batch's buffer (json-byte-writer.ts),
// with the embedded objects the pools serialise once (sources, institutions, topics, terms) encoded once per
// builder: JSON.stringify of whole records, or one string per record encoded afterwards, would dominate the
// run time.
import { vocabularyOf } from '@oqlkit/oqo-schema/registry'
import { vocabularyUrl } from '../sample/openalex-id-classifier.ts'
import { AUTHOR_AFFILIATIONS } from './author-pool.ts'
import { WeightedPicker } from './distribution-samplers.ts'
import { forgeWorkDoi } from './external-id-forge.ts'
import { COUNTS_FIRST_YEAR, GENERATED_ID_BASE, LAST_YEAR } from './generation-plan.ts'
import type { JsonByteWriter } from './json-byte-writer.ts'
import { SAMPLE_PROFILE, type Share } from './sample-profile.ts'
import { RandomStream, SeededRandom } from './seeded-random.ts'
import type { WorkBuildContext, WorkLinks } from './work-build-context.ts'
import {
  clockTime,
  EncodedByIndex,
  ScratchWriters,
  writeJoined,
  writeLocation,
  writeTerms,
} from './work-json-pieces.ts'

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
const COMMA = 0x2c
const QUOTE = 0x22
const CLOSE_BRACE = 0x7d

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
  readonly #scratch = new ScratchWriters()
  readonly #institutionJson: EncodedByIndex
  readonly #institutionNameJson: EncodedByIndex
  readonly #affiliation: EncodedByIndex
  readonly #sourceJson: EncodedByIndex
  readonly #funderJson: EncodedByIndex
  readonly #topicHead: EncodedByIndex
  readonly #topicTail: EncodedByIndex
  readonly #keywordHead: EncodedByIndex
  readonly #conceptHead: EncodedByIndex

  constructor(context: WorkBuildContext) {
    this.#c = context
    const { institutions, sources, funders } = context.orgs
    const { topics } = context.topics
    const { keywords, concepts } = context.terms
    this.#institutionJson = new EncodedByIndex(institutions.length, (k) => institutions[k]!.json)
    this.#institutionNameJson = new EncodedByIndex(institutions.length, (k) => json(institutions[k]!.name))
    // An authorship's affiliation with institution k.
    this.#affiliation = new EncodedByIndex(
      institutions.length,
      (k) =>
        `{"raw_affiliation_string":${json(institutions[k]!.name)},"institution_ids":[${json(institutions[k]!.id)}]}`,
    )
    this.#sourceJson = new EncodedByIndex(sources.length, (k) => sources[k]!.json)
    this.#funderJson = new EncodedByIndex(funders.length, (k) => funders[k]!.json)
    this.#topicHead = new EncodedByIndex(topics.length, (k) => topics[k]!.head)
    this.#topicTail = new EncodedByIndex(topics.length, (k) => topics[k]!.tail)
    this.#keywordHead = new EncodedByIndex(keywords.length, (k) => keywords[k]!.head)
    this.#conceptHead = new EncodedByIndex(concepts.length, (k) => concepts[k]!.head)
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

  /**
   * Writes the JSON line of work `index` (without its newline) into `out` and returns its partition date.
   * The pieces that come out of the draws in another order than the record's keys (authorships, topics,
   * locations, …) go to scratch writers first and are copied into place at the end.
   */
  build(index: number, links: WorkLinks, out: JsonByteWriter): string {
    const c = this.#c
    const r = this.#random.at(c.seed, RandomStream.work, index)
    const w = this.#scratch
    links.reset()
    const idNumber = this.idNumber(index)
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
    // The locations, primary first, each after a comma but the first; the primary one and the best open
    // one are ranges of the scratch writer.
    const locations = w.locations
    locations.reset()
    let locationCount = 1
    let bestOaStart = -1
    let bestOaEnd = -1
    let repositoryOpen = false
    writeLocation(
      locations,
      doi === null ? `oqlkit:W${idNumber}` : `doi:${doi.slice('https://doi.org/'.length)}`,
      openAtPublisher,
      landing,
      openAtPublisher ? `${PAGES}W${idNumber}.pdf` : null,
      source ? this.#sourceJson.get(source.index) : null,
      license,
      source ? 'publishedVersion' : null,
      source?.name ?? null,
      source ? (RAW_TYPES[type] ?? type) : null,
    )
    const primaryEnd = locations.length
    if (openAtPublisher) {
      bestOaStart = 0
      bestOaEnd = primaryEnd
    }
    const extra = Math.max(this.#locationCounts.pick(r), oaStatus === 'green' ? 2 : 1) - 1
    for (let k = 0; k < extra; k++) {
      const repository = c.orgs.pickSource(REPOSITORY, r)
      if (repository === null) break
      const host = c.orgs.sources[repository]!
      // A green work is open only through its repository copies; other works' copies follow their status.
      const open = oaStatus === 'green' ? k === 0 || r.chance(0.5) : oaStatus !== 'closed' && r.chance(0.5)
      locations.byte(COMMA)
      const start = locations.length
      writeLocation(
        locations,
        `pmh:oai:oqlkit.example:W${idNumber}/${k + 1}`,
        open,
        `${PAGES}W${idNumber}/copy/${k + 1}`,
        open ? `${PAGES}W${idNumber}/copy/${k + 1}.pdf` : null,
        this.#sourceJson.get(repository),
        open && r.chance(0.5) ? 'cc-by' : null,
        r.chance(0.8) ? 'submittedVersion' : 'acceptedVersion',
        host.name,
        REPOSITORY_RAW_TYPE,
      )
      locationCount++
      if (open) {
        repositoryOpen = true
        if (bestOaStart === -1) {
          bestOaStart = start
          bestOaEnd = locations.length
        }
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
    const authorships = w.authorships
    authorships.reset()
    const correspondingAuthors: string[] = []
    const correspondingInstitutions: string[] = []
    const countries = new Set<string>()
    const mine: number[] = []
    const authorCountries: string[] = []
    for (let position = 0; position < authorCount; position++) {
      let pick = c.authors.pick(primaryTopic, r)
      for (let attempt = 1; attempt < 12 && links.authors.includes(pick); attempt++)
        pick = c.authors.pick(primaryTopic, r, attempt)
      if (links.authors.includes(pick)) continue
      links.authors.push(pick)
      const author = c.authors.author(pick)
      const wanted = Math.min(this.#institutionsPerAuthorship.pick(r), AUTHOR_AFFILIATIONS)
      mine.length = 0
      for (const institution of author.institutions) {
        if (mine.length === wanted) break
        if (!mine.includes(institution)) mine.push(institution)
      }
      const corresponding = r.chance(this.#shares.correspondingAuthorship)
      authorCountries.length = 0
      for (const k of mine) {
        const institution = c.orgs.institutions[k]!
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
      const name = json(author.name)
      if (authorships.length > 0) authorships.byte(COMMA)
      authorships.ascii('{"author_position":"')
      authorships.ascii(role)
      authorships.ascii('","author":{"id":')
      authorships.quotedAscii(author.id)
      authorships.ascii(',"display_name":')
      authorships.text(name)
      authorships.ascii(',"orcid":')
      if (author.orcid === null) authorships.ascii('null')
      else authorships.quotedAscii(author.orcid)
      authorships.ascii('},"institutions":[')
      writeJoined(authorships, mine, this.#institutionJson)
      authorships.ascii('],"countries":[')
      authorCountries.forEach((country, at) => {
        if (at > 0) authorships.byte(COMMA)
        authorships.string(country)
      })
      authorships.ascii('],"is_corresponding":')
      authorships.boolean(corresponding)
      authorships.ascii(',"raw_author_name":')
      authorships.text(name)
      authorships.ascii(',"raw_affiliation_strings":[')
      writeJoined(authorships, mine, this.#institutionNameJson)
      authorships.ascii('],"affiliations":[')
      writeJoined(authorships, mine, this.#affiliation)
      authorships.ascii(']}')
    }

    // ---- topics, keywords, concepts, MeSH, SDGs ----
    const topics = w.topics
    topics.reset()
    let primaryTopicEnd = -1
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
        if (k > 0) topics.byte(COMMA)
        topics.bytesOf(this.#topicHead.get(t))
        topics.ascii(',"score":')
        topics.number(score)
        topics.bytesOf(this.#topicTail.get(t))
        if (k === 0) primaryTopicEnd = topics.length
        links.vocabulary.push(topic.subfield.id, topic.field.id, topic.domain.id)
        score = round4(r.between(0.04, score))
      })
    }
    writeTerms(
      w.keywords,
      r,
      this.#keywordCounts.pick(r),
      links.keywords,
      this.#keywordHead,
      c.terms.keywordPopularity,
    )
    writeTerms(
      w.concepts,
      r,
      this.#conceptCounts.pick(r),
      links.concepts,
      this.#conceptHead,
      c.terms.conceptPopularity,
    )
    const mesh = w.mesh
    mesh.reset()
    if (pubmed) {
      const count = this.#meshCounts.pick(r)
      for (let k = 0; k < count; k++) {
        const descriptor = SAMPLE_PROFILE.mesh[r.int(SAMPLE_PROFILE.mesh.length)]!
        mesh.text(
          `${k === 0 ? '' : ','}{"descriptor_ui":${json(descriptor.ui)},"descriptor_name":${json(descriptor.name)},` +
            `"qualifier_ui":null,"qualifier_name":null,"is_major_topic":${r.chance(MAJOR_MESH_SHARE)}}`,
        )
      }
    }
    const goals: string[] = []
    const sdgs = w.sdgs
    sdgs.reset()
    for (let k = this.#sdgCounts.pick(r); k > 0; k--) {
      const goal = this.#sdgs.pick(r)
      if (goals.includes(goal)) continue
      goals.push(goal)
      vocab(`sdgs/${goal}`)
      sdgs.text(
        `${sdgs.length === 0 ? '' : ','}{"id":"https://metadata.un.org/sdg/${goal}",` +
          `"display_name":${json(SDG_NAMES.get(goal))},"score":${round4(r.between(0.4, 0.95))}}`,
      )
    }

    // ---- funding ----
    const grants = w.grants
    const funders = w.funders
    grants.reset()
    funders.reset()
    for (let k = this.#funderCounts.pick(r); k > 0; k--) {
      const f = c.orgs.funderPicker.pick(r)
      if (links.funders.includes(f)) continue
      links.funders.push(f)
      const funder = c.orgs.funders[f]!
      const sep = funders.length === 0 ? '' : ','
      funders.ascii(sep)
      funders.bytesOf(this.#funderJson.get(f))
      grants.text(
        `${sep}{"funder":${json(funder.id)},"funder_display_name":${json(funder.name)},` +
          `"award_id":${r.chance(0.7) ? json(`OQL-${idNumber}-${links.funders.length}`) : 'null'}}`,
      )
    }

    // ---- citations, text ----
    const referenceCount = c.references.next()
    const referenced = w.referenced
    referenced.reset()
    for (let k = 0; k < referenceCount; k++) {
      if (k > 0) referenced.byte(COMMA)
      this.#workId(referenced, c.references.next())
    }
    const related: number[] = []
    const relatedWanted = Math.min(this.#relatedCounts.pick(r), c.works - 1)
    for (let attempt = 0; related.length < relatedWanted && attempt < relatedWanted * 3; attempt++) {
      const other = r.int(c.works)
      if (other !== index && !related.includes(other)) related.push(other)
    }
    const abstract = w.abstract
    abstract.reset()
    if (r.chance(this.#shares.abstract)) c.text.invertedIndex(r, this.#abstractLengths.pick(r), abstract)
    else abstract.ascii('null')

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
    const partition = this.#partition(r, publicationDate)
    const updated = `${partition}T${clockTime(r)}`
    const created = `${publicationDate < '2016-06-24' ? '2016-06-24' : publicationDate > partition ? partition : publicationDate}T00:00:00`

    // ---- the record, in its keys' order (three draws come last, in this order: has_fulltext,
    // is_retracted, is_xpac) ----
    out.ascii('{"id":"https://openalex.org/W')
    out.natural(idNumber)
    out.ascii('","doi":')
    out.string(doi)
    const titleJson = title === null ? 'null' : json(title)
    out.ascii(',"title":')
    out.text(titleJson)
    out.ascii(',"display_name":')
    out.text(titleJson)
    out.ascii(',"publication_year":')
    out.natural(year)
    out.ascii(',"publication_date":"')
    out.ascii(publicationDate)
    out.ascii('","ids":{"openalex":"https://openalex.org/W')
    out.natural(idNumber)
    out.byte(QUOTE)
    if (doi !== null) {
      out.ascii(',"doi":')
      out.string(doi)
    }
    if (pubmed) {
      out.ascii(',"pmid":"https://pubmed.ncbi.nlm.nih.gov/')
      out.natural(900_000_000 + index)
      out.byte(QUOTE)
    }
    out.ascii('},"language":')
    out.string(language)
    out.ascii(',"primary_location":')
    out.range(locations, 0, primaryEnd)
    out.ascii(',"type":')
    out.string(type)
    out.ascii(',"indexed_in":')
    out.text(json(indexedIn))
    out.ascii(',"open_access":{"is_oa":')
    out.boolean(isOa)
    out.ascii(',"oa_status":')
    out.string(oaStatus)
    out.ascii(',"oa_url":')
    out.string(oaUrl)
    out.ascii(',"any_repository_has_fulltext":')
    out.boolean(repositoryOpen)
    out.ascii('},"authorships":[')
    out.writer(authorships)
    out.ascii('],"institutions":[],"countries_distinct_count":')
    out.natural(countries.size)
    out.ascii(',"institutions_distinct_count":')
    out.natural(links.institutions.length)
    out.ascii(',"corresponding_author_ids":')
    out.text(json(correspondingAuthors))
    out.ascii(',"corresponding_institution_ids":')
    out.text(json([...new Set(correspondingInstitutions)]))
    out.ascii(',"apc_list":')
    out.ascii(apc)
    out.ascii(',"apc_paid":')
    out.ascii(apcPaid)
    out.ascii(',"fwci":')
    out.number(fwci)
    out.ascii(',"has_fulltext":')
    out.boolean(r.chance(this.#shares.hasFulltext))
    out.ascii(',"cited_by_count":')
    out.natural(cited)
    out.ascii(',"citation_normalized_percentile":')
    if (percentile === null) out.ascii('null')
    else
      out.ascii(
        `{"value":${percentile.value},"is_in_top_1_percent":${percentile.top1},"is_in_top_10_percent":${percentile.top10}}`,
      )
    out.ascii(
      `,"cited_by_percentile_year":{"min":${yearPercentile.min},"max":${yearPercentile.max}},"biblio":`,
    )
    out.ascii(biblio)
    out.ascii(',"is_retracted":')
    out.boolean(r.chance(this.#shares.retracted))
    out.ascii(',"is_paratext":')
    out.boolean(type === 'paratext')
    out.ascii(',"is_xpac":')
    out.boolean(r.chance(XPAC_SHARE))
    out.ascii(',"primary_topic":')
    if (primaryTopicEnd === -1) out.ascii('null')
    else out.range(topics, 0, primaryTopicEnd)
    out.ascii(',"topics":[')
    out.writer(topics)
    out.ascii('],"keywords":[')
    out.writer(w.keywords)
    out.ascii('],"concepts":[')
    out.writer(w.concepts)
    out.ascii('],"mesh":[')
    out.writer(mesh)
    out.ascii('],"locations_count":')
    out.natural(locationCount)
    out.ascii(',"locations":[')
    out.writer(locations)
    out.ascii('],"best_oa_location":')
    if (bestOaStart === -1) out.ascii('null')
    else out.range(locations, bestOaStart, bestOaEnd)
    out.ascii(',"sustainable_development_goals":[')
    out.writer(sdgs)
    out.ascii('],"grants":[')
    out.writer(grants)
    out.ascii('],"awards":[],"funders":[')
    out.writer(funders)
    out.ascii('],"has_content":{"grobid_xml":')
    out.boolean(grobid)
    out.ascii(',"pdf":')
    out.boolean(pdf)
    out.ascii('},"content_urls":')
    if (pdf) {
      out.ascii('{"pdf":"https://content.openalex.org/works/W')
      out.natural(idNumber)
      out.ascii('.pdf"')
      if (grobid) {
        out.ascii(',"grobid_xml":"https://content.openalex.org/works/W')
        out.natural(idNumber)
        out.ascii('.grobid-xml"')
      }
      out.byte(CLOSE_BRACE)
    } else out.ascii('null')
    out.ascii(',"referenced_works_count":')
    out.natural(referenceCount)
    out.ascii(',"referenced_works":[')
    out.writer(referenced)
    out.ascii('],"related_works":[')
    related.forEach((other, k) => {
      if (k > 0) out.byte(COMMA)
      this.#workId(out, other)
    })
    out.ascii('],"abstract_inverted_index":')
    out.writer(abstract)
    out.ascii(',"counts_by_year":[')
    let firstCount = true
    for (let y = LAST_YEAR; y >= Math.max(year, COUNTS_FIRST_YEAR); y--) {
      const count = c.citationsByYear.get(index, y)
      if (count === 0) continue
      out.ascii(firstCount ? '{"year":' : ',{"year":')
      firstCount = false
      out.natural(y)
      out.ascii(',"cited_by_count":')
      out.natural(count)
      out.byte(CLOSE_BRACE)
    }
    out.ascii('],"updated_date":"')
    out.ascii(updated)
    out.ascii('","created_date":"')
    out.ascii(created)
    out.ascii('"}')
    return partition
  }

  /** `"https://openalex.org/W<id number>"` of work `index`. */
  #workId(out: JsonByteWriter, index: number): void {
    out.ascii('"https://openalex.org/W')
    out.natural(this.idNumber(index))
    out.byte(QUOTE)
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

  #vocabularyId(shortId: string): string {
    let id = this.#vocabularyIds.get(shortId)
    if (id === undefined) {
      id = vocabularyUrl(shortId)
      this.#vocabularyIds.set(shortId, id)
    }
    return id
  }
}
