// Which continent each country is on, and which countries count as the Global South: the facts behind the
// API's `continent` and `is_global_south` filters. Country records of a snapshot do not carry them, so the
// catalog holds them as data. Continents are OpenAlex's continent ids (Wikidata items); a transcontinental
// country is on the continent of its capital (Russia and Turkey in Europe, Egypt in Africa, Kazakhstan in
// Asia), as ISO 3166 regional groupings place them. The Global South is the Group of 77 and China (the
// list the UN Office for South-South Cooperation uses), as of 2025.

export const CONTINENT_IDS = {
  africa: 'Q15',
  antarctica: 'Q51',
  asia: 'Q48',
  europe: 'Q46',
  northAmerica: 'Q49',
  oceania: 'Q55643',
  southAmerica: 'Q18',
} as const

const codes = (text: string): readonly string[] => text.trim().split(/\s+/)

/** Country codes (ISO 3166-1 alpha-2, plus XK for Kosovo) by continent id. */
export const COUNTRIES_BY_CONTINENT: Readonly<Record<string, readonly string[]>> = {
  [CONTINENT_IDS.africa]: codes(`
    AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ML MR MU MW
    MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW`),
  [CONTINENT_IDS.antarctica]: codes('AQ BV GS HM TF'),
  [CONTINENT_IDS.asia]: codes(`
    AE AF AM AZ BD BH BN BT CC CN CX GE HK ID IL IN IO IQ IR JO JP KG KH KP KR KW KZ LA LB LK MM MN MO
    MV MY NP OM PH PK PS QA SA SG SY TH TJ TL TM TW UZ VN YE`),
  [CONTINENT_IDS.europe]: codes(`
    AD AL AT AX BA BE BG BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV
    MC MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM TR UA VA XK`),
  [CONTINENT_IDS.northAmerica]: codes(`
    AG AI AW BB BL BM BQ BS BZ CA CR CU CW DM DO GD GL GP GT HN HT JM KN KY LC MF MQ MS MX NI PA PM PR
    SV SX TC TT US VC VG VI`),
  [CONTINENT_IDS.oceania]: codes(`
    AS AU CK FJ FM GU KI MH MP NC NF NR NU NZ PF PG PN PW SB TK TO TV UM VU WF WS`),
  [CONTINENT_IDS.southAmerica]: codes('AR BO BR CL CO EC FK GF GY PE PY SR UY VE'),
}

/** The Group of 77 and China, by country code. */
export const GLOBAL_SOUTH_COUNTRIES: readonly string[] = codes(`
  AE AF AG AO AR BB BD BF BH BI BJ BN BO BR BS BT BW BZ CD CF CG CI CL CM CN CO CR CU CV DJ DM DO DZ EC
  EG ER ET FJ FM GA GD GH GM GN GQ GT GW GY HN HT ID IN IQ IR JM JO KE KH KI KM KN KP KW LA LB LC LK LR
  LS LY MA MG MH ML MM MN MR MU MV MW MY MZ NA NE NG NI NP NR OM PA PE PG PH PK PS PY QA RW SA SB SC SD
  SG SL SN SO SR SS ST SV SY SZ TD TG TH TL TN TO TT TZ UG UY VC VE VN VU WS YE ZA ZM ZW`)

const CONTINENT_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(COUNTRIES_BY_CONTINENT).flatMap(([continent, countries]) =>
    countries.map((country) => [country, continent] as const),
  ),
)
const GLOBAL_SOUTH: ReadonlySet<string> = new Set(GLOBAL_SOUTH_COUNTRIES)

/** The continent id of a country code (`US` → `Q49`), or undefined for a code we do not know. */
export const continentOfCountry = (countryCode: string): string | undefined =>
  CONTINENT_OF.get(countryCode.toUpperCase())

export const isGlobalSouthCountry = (countryCode: string): boolean =>
  GLOBAL_SOUTH.has(countryCode.toUpperCase())
