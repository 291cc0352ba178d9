// Institutions, sources, publishers and funders of a generated snapshot. Their pools are small (at most
// OpenAlex's totals), so every attribute is decided up front, from a stream of its own per entity, and the
// objects works embed are serialised once. Names are the sample's real names, reused with a number suffix
// once a list runs out ("Nature", …, "Nature 2").
import { vocabularyOf } from '@oqlkit/oqo-schema/registry'
import { vocabularyUrl } from '../sample/openalex-id-classifier.ts'
import { AffinePermutation, WeightedPicker, ZipfSampler } from './distribution-samplers.ts'
import { forgeIssn, forgeRor } from './external-id-forge.ts'
import { GENERATED_ID_BASE, type PoolSizes, ZIPF_EXPONENTS } from './generation-plan.ts'
import { SAMPLE_PROFILE, type Share } from './sample-profile.ts'
import { RandomStream, SeededRandom } from './seeded-random.ts'

const OPENALEX = 'https://openalex.org/'

const INSTITUTION_TYPES = new Set((vocabularyOf('institution-types') ?? []).map((entry) => entry.code))
const SOURCE_TYPES = new Set((vocabularyOf('source-types') ?? []).map((entry) => entry.code))
const COUNTRY_NAMES = new Map(
  (vocabularyOf('countries') ?? []).map((entry) => [entry.code, entry.displayName]),
)

/** Share of institutions that hang under a parent (lineage of two): a modelling choice, not measured. */
const CHILD_INSTITUTION_SHARE = 0.1
/** Share of open-access journals that charge an APC (the sample's sources carry too few prices to measure). */
const APC_SHARE = 0.6

/** What the name of an institution of each type ends with when the sample has no name for its country. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  education: 'University',
  healthcare: 'Hospital',
  company: 'Corporation',
  archive: 'Archive',
  nonprofit: 'Foundation',
  government: 'Ministry of Research',
  facility: 'Research Centre',
  other: 'Institute',
  funder: 'Research Council',
}

const share = ([matching, of]: Share): number => (of === 0 ? 0 : matching / of)

/** names[k], then names[k - L] + " 2", … : a real name for every index. */
export function cycledName(names: readonly string[], index: number): string {
  const round = Math.floor(index / names.length)
  const name = names[index % names.length]!
  return round === 0 ? name : `${name} ${round + 1}`
}

/** A Zipf-popular pick from a pool, with ranks scattered over the pool's ids. */
export class PopularityPicker {
  readonly #zipf: ZipfSampler
  readonly #scatter: AffinePermutation

  constructor(size: number, exponent: number, offset: number) {
    this.#zipf = new ZipfSampler(size, exponent)
    this.#scatter = new AffinePermutation(size, offset)
  }

  pick(random: SeededRandom): number {
    return this.#scatter.apply(this.#zipf.sample(random))
  }
}

export interface GeneratedPublisher {
  readonly id: string
  readonly name: string
  readonly countryCode: string
  readonly ror: string
}

export interface GeneratedFunder {
  readonly id: string
  readonly name: string
  readonly countryCode: string
  readonly ror: string
  /** The object works list in `funders`. */
  readonly json: string
}

export interface GeneratedInstitution {
  readonly index: number
  readonly id: string
  readonly name: string
  readonly countryCode: string
  readonly type: string
  readonly ror: string
  readonly parent: number | null
  readonly lineage: readonly string[]
  /** The full id of the institution type's vocabulary record. */
  readonly typeVocabularyId: string
  /** The object works embed in `authorships[].institutions` (and authors in their affiliations). */
  readonly json: string
}

export interface GeneratedSource {
  readonly index: number
  readonly id: string
  readonly name: string
  readonly type: string
  readonly issn: string | null
  readonly isOa: boolean
  readonly isInDoaj: boolean
  readonly isCore: boolean
  readonly isInScopus: boolean
  readonly apcUsd: number | null
  /** A publisher index, or null when an institution hosts the source (repositories). */
  readonly publisher: number | null
  readonly hostInstitution: number | null
  readonly hostId: string
  readonly hostName: string
  readonly countryCode: string
  /** The full id of the source type's vocabulary record (`…/source-types/ebook%20platform`). */
  readonly typeVocabularyId: string
  /** The object works embed as `locations[].source`. */
  readonly json: string
}

export class OrganizationPools {
  readonly publishers: readonly GeneratedPublisher[]
  readonly funders: readonly GeneratedFunder[]
  readonly institutions: readonly GeneratedInstitution[]
  readonly sources: readonly GeneratedSource[]
  /** Source indexes by type, for works that want a source of a given type. */
  readonly sourcesByType: ReadonlyMap<string, readonly number[]>
  readonly institutionPicker: PopularityPicker
  readonly funderPicker: PopularityPicker
  readonly #sourceZipf = new Map<string, ZipfSampler>()

  constructor(sizes: PoolSizes, seed: number) {
    const random = new SeededRandom()
    const countries = WeightedPicker.fromHistogram(
      SAMPLE_PROFILE.institutionCountries,
      (code): code is string => code !== null && COUNTRY_NAMES.has(code),
    )
    // `funder` is what the 2026 API calls many universities; it is not an institution type of the
    // vocabulary, so the measured types are used without it.
    const types = WeightedPicker.fromHistogram(
      SAMPLE_PROFILE.institutionTypes,
      (type): type is string => type !== null && INSTITUTION_TYPES.has(type),
    )

    this.publishers = Array.from({ length: sizes.publishers }, (_, k) => {
      random.at(seed, RandomStream.publisher, k)
      return {
        id: `${OPENALEX}P${GENERATED_ID_BASE + k}`,
        name: cycledName(SAMPLE_PROFILE.publishers, k),
        countryCode: countries.pick(random),
        ror: forgeRor(200_000 + k),
      }
    })

    this.funders = Array.from({ length: sizes.funders }, (_, k) => {
      random.at(seed, RandomStream.funder, k)
      const id = `${OPENALEX}F${GENERATED_ID_BASE + k}`
      const name = cycledName(SAMPLE_PROFILE.funders, k)
      const ror = forgeRor(400_000 + k)
      return {
        id,
        name,
        countryCode: countries.pick(random),
        ror,
        json: `{"id":${JSON.stringify(id)},"display_name":${JSON.stringify(name)},"ror":${JSON.stringify(ror)}}`,
      }
    })

    this.institutions = this.#buildInstitutions(sizes.institutions, seed, countries, types)
    this.institutionPicker = new PopularityPicker(sizes.institutions, ZIPF_EXPONENTS.institutions, 1)
    this.funderPicker = new PopularityPicker(sizes.funders, ZIPF_EXPONENTS.funders, 2)

    const sourceTypes = WeightedPicker.fromHistogram(
      SAMPLE_PROFILE.sourceTypes,
      (type): type is string => type !== null && SOURCE_TYPES.has(type),
    )
    const publisherPicker = new PopularityPicker(sizes.publishers, ZIPF_EXPONENTS.publishers, 3)
    const shares = SAMPLE_PROFILE.sourceShares
    const byType = new Map<string, number[]>()
    const namesByType = new Map<string, string[]>()
    for (const { name, type } of SAMPLE_PROFILE.sources)
      namesByType.set(type, [...(namesByType.get(type) ?? []), name])
    const allNames = SAMPLE_PROFILE.sources.map((source) => source.name)
    this.sources = Array.from({ length: sizes.sources }, (_, k) => {
      random.at(seed, RandomStream.source, k)
      // Every type gets at least one source, so a work asking for a type always finds one.
      const type = k < sourceTypes.values.length ? sourceTypes.values[k]! : sourceTypes.pick(random)
      const list = byType.get(type) ?? []
      byType.set(type, list)
      list.push(k)
      const hostedByInstitution = type === 'repository'
      const publisher = hostedByInstitution ? null : publisherPicker.pick(random)
      const hostInstitution = hostedByInstitution ? this.institutionPicker.pick(random) : null
      const host = publisher === null ? this.institutions[hostInstitution!]! : this.publishers[publisher]!
      const isOa = random.chance(share(shares.oa))
      const isInDoaj = isOa && random.chance(share(shares.doaj) / Math.max(share(shares.oa), 1e-9))
      const serial = type === 'journal' || type === 'book series'
      const issn = serial ? forgeIssn(k) : null
      const apcUsd =
        isOa && type === 'journal' && random.chance(APC_SHARE) ? 500 + 100 * random.int(31) : null
      const id = `${OPENALEX}S${GENERATED_ID_BASE + k}`
      // A journal gets a journal's name, a repository a repository's, ... (any name if the sample has none).
      const name = cycledName(namesByType.get(type) ?? allNames, list.length - 1)
      const source = {
        index: k,
        id,
        name,
        type,
        issn,
        isOa,
        isInDoaj,
        isCore: random.chance(share(shares.core)),
        isInScopus: random.chance(share(shares.scopus)),
        apcUsd,
        publisher,
        hostInstitution,
        hostId: host.id,
        hostName: host.name,
        countryCode: host.countryCode,
        typeVocabularyId: vocabularyUrl(`source-types/${type}`),
      }
      const issnJson = issn === null ? 'null' : JSON.stringify(issn)
      const json =
        `{"id":${JSON.stringify(id)},"display_name":${JSON.stringify(name)},"issn_l":${issnJson},` +
        `"issn":${issn === null ? 'null' : `[${issnJson}]`},"is_oa":${isOa},"is_in_doaj":${isInDoaj},` +
        `"is_core":${source.isCore},"host_organization":${JSON.stringify(host.id)},` +
        `"host_organization_name":${JSON.stringify(host.name)},"host_organization_lineage":[${JSON.stringify(host.id)}],` +
        `"host_organization_lineage_names":[${JSON.stringify(host.name)}],"type":${JSON.stringify(type)},"raw_type":null}`
      return { ...source, json }
    })
    this.sourcesByType = byType
  }

  /** A Zipf-popular source of the given type (ranks follow the order sources of that type were made). */
  pickSource(type: string, random: SeededRandom): number | null {
    const list = this.sourcesByType.get(type)
    if (list === undefined || list.length === 0) return null
    let zipf = this.#sourceZipf.get(type)
    if (zipf === undefined) {
      zipf = new ZipfSampler(list.length, ZIPF_EXPONENTS.sources)
      this.#sourceZipf.set(type, zipf)
    }
    return list[zipf.sample(random)]!
  }

  #buildInstitutions(
    size: number,
    seed: number,
    countries: WeightedPicker<string>,
    types: WeightedPicker<string>,
  ): GeneratedInstitution[] {
    const random = new SeededRandom()
    const namesByCountry = new Map<string, string[]>()
    for (const { name, country_code } of SAMPLE_PROFILE.institutions) {
      const list = namesByCountry.get(country_code)
      if (list) list.push(name)
      else namesByCountry.set(country_code, [name])
    }
    const seenInCountry = new Map<string, number>()
    const rootsByCountry = new Map<string, number[]>()
    const institutions: GeneratedInstitution[] = []
    for (let k = 0; k < size; k++) {
      random.at(seed, RandomStream.institution, k)
      const countryCode = countries.pick(random)
      const type = types.pick(random)
      const nth = seenInCountry.get(countryCode) ?? 0
      seenInCountry.set(countryCode, nth + 1)
      const names = namesByCountry.get(countryCode)
      const name = names
        ? cycledName(names, nth)
        : `${COUNTRY_NAMES.get(countryCode)} ${TYPE_WORDS[type] ?? 'Institute'}${nth === 0 ? '' : ` ${nth + 1}`}`
      let roots = rootsByCountry.get(countryCode)
      if (roots === undefined) {
        roots = []
        rootsByCountry.set(countryCode, roots)
      }
      const parent =
        roots.length > 0 && random.chance(CHILD_INSTITUTION_SHARE) ? roots[random.int(roots.length)]! : null
      if (parent === null) roots.push(k)
      const id = `${OPENALEX}I${GENERATED_ID_BASE + k}`
      const lineage = parent === null ? [id] : [id, institutions[parent]!.id]
      const ror = forgeRor(k)
      institutions.push({
        index: k,
        id,
        name,
        countryCode,
        type,
        ror,
        parent,
        lineage,
        typeVocabularyId: vocabularyUrl(`institution-types/${type}`),
        json:
          `{"id":${JSON.stringify(id)},"display_name":${JSON.stringify(name)},"ror":${JSON.stringify(ror)},` +
          `"country_code":${JSON.stringify(countryCode)},"type":${JSON.stringify(type)},"lineage":${JSON.stringify(lineage)}}`,
      })
    }
    return institutions
  }
}
