// The measured profile of the bundled sample snapshot: every distribution the scale generator draws from
// comes from here. The figures were measured from the bundled sample snapshot (packages/snapshot/sample-snapshot: 565 real OpenAlex works and the
// records they reference) by `harvestSampleProfile` (sample-profile-harvester.ts) and committed as
// sample-profile.json; test/generate-sample-profile.test.ts re-measures the sample and fails if they drift.
import profileData from './sample-profile.json' with { type: 'json' }

/** `[value, count]` pairs: how many sample records (works, authorships, ...) had each value. */
export type CountHistogram<T> = ReadonlyArray<readonly [T, number]>

/** `[matching, of]`: how many of the records counted matched. */
export type Share = readonly [number, number]

export interface SampleProfile {
  readonly source: string
  readonly works: number
  readonly authorsPerWork: CountHistogram<number>
  readonly institutionsPerAuthorship: CountHistogram<number>
  /** Country codes of the institutions of every authorship (one count per authorship institution). */
  readonly institutionCountries: CountHistogram<string | null>
  readonly institutionTypes: CountHistogram<string | null>
  readonly publicationYears: CountHistogram<number>
  readonly types: CountHistogram<string | null>
  readonly oaStatuses: CountHistogram<string | null>
  /** `primary_location.license` of the open-access works. */
  readonly oaLicenses: CountHistogram<string | null>
  readonly languages: CountHistogram<string | null>
  readonly primarySourceTypes: CountHistogram<string | null>
  readonly topicsPerWork: CountHistogram<number>
  /** Over the works whose record has a `keywords` key. */
  readonly keywordsPerWork: CountHistogram<number>
  readonly conceptsPerWork: CountHistogram<number>
  readonly conceptLevels: CountHistogram<number>
  readonly referencedWorksPerWork: CountHistogram<number>
  readonly relatedWorksPerWork: CountHistogram<number>
  readonly locationsPerWork: CountHistogram<number>
  readonly sdgsPerWork: CountHistogram<number>
  readonly sdgs: CountHistogram<string | null>
  /** Over the works whose record has a `funders` key. */
  readonly fundersPerWork: CountHistogram<number>
  readonly meshPerPubmedWork: CountHistogram<number>
  /** Tokens per abstract, over the works with an abstract. */
  readonly abstractLengths: CountHistogram<number>
  readonly titleWords: CountHistogram<number>
  /** The real counts (all of OpenAlex citing these works): reported, not reproduced. */
  readonly citedByCount: CountHistogram<number>
  readonly updatedMonths: CountHistogram<string | null>
  readonly shares: {
    readonly abstract: Share
    readonly doi: Share
    readonly title: Share
    /** `publication_date` on 1 January (a year-only date). */
    readonly yearOnlyDate: Share
    readonly pubmed: Share
    readonly hasFulltext: Share
    readonly retracted: Share
    readonly apcList: Share
    readonly apcPaid: Share
    readonly correspondingAuthorship: Share
    readonly orcidAuthorship: Share
    readonly xpac: Share
  }
  /** Abstract and title words, most frequent first (the rank the generator's Zipf law follows). */
  readonly words: readonly string[]
  readonly firstNames: readonly string[]
  readonly lastNames: readonly string[]
  readonly institutions: ReadonlyArray<{ readonly name: string; readonly country_code: string }>
  /** `type` of the sample's source records. */
  readonly sourceTypes: CountHistogram<string | null>
  /** Flags of the sample's source records, over the records that state them. */
  readonly sourceShares: {
    readonly oa: Share
    readonly doaj: Share
    readonly core: Share
    readonly scopus: Share
  }
  /** Source names with their types. */
  readonly sources: ReadonlyArray<{ readonly name: string; readonly type: string }>
  readonly publishers: readonly string[]
  readonly funders: readonly string[]
  /** Real topics, most used by the sample works first, with their subfield (`subfields/1702`). */
  readonly topics: ReadonlyArray<{ readonly name: string; readonly subfield: string }>
  /** `fields/17` → `domains/3`, as the sample's topic objects state it. */
  readonly fieldDomains: Readonly<Record<string, string>>
  readonly keywords: ReadonlyArray<{ readonly slug: string; readonly name: string }>
  readonly concepts: ReadonlyArray<{
    readonly name: string
    readonly level: number
    readonly wikidata: string | null
  }>
  readonly mesh: ReadonlyArray<{ readonly ui: string; readonly name: string }>
}

// The JSON's type is its declaration's (sample-profile.d.json.ts); test/generate-sample-profile.test.ts
// guarantees the file is exactly what the (typed) harvester returns.
export const SAMPLE_PROFILE: SampleProfile = profileData
