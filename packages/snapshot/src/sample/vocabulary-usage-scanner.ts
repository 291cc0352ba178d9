// The vocabulary values a work uses anywhere, as full ids: its type, language, OA status and indexes, the
// countries and institution types of its authorships, and the source type and license of every location.
// The builder compares them with the vocabularies to report the values the lists do not have.
import {
  isJsonObject,
  type JsonObject,
  type JsonValue,
  jsonArray as list,
  jsonObjects as objects,
  vocabularyUrl,
} from './openalex-id-classifier.ts'

export function vocabularyIdsUsedBy(work: JsonObject): Set<string> {
  const ids = new Set<string>()
  const addCode = (segment: string, value: JsonValue | undefined): void => {
    if (typeof value === 'string' && value !== '') ids.add(vocabularyUrl(`${segment}/${value}`))
  }
  addCode('types', work.type)
  addCode('languages', work.language)
  if (isJsonObject(work.open_access)) addCode('oa-statuses', work.open_access.oa_status)
  for (const index of list(work.indexed_in)) addCode('indexes', index)
  for (const authorship of objects(work.authorships)) {
    for (const country of list(authorship.countries)) addCode('countries', country)
    for (const institution of objects(authorship.institutions)) addCode('institution-types', institution.type)
  }
  const locations = [work.primary_location, work.best_oa_location, ...list(work.locations)].filter(
    isJsonObject,
  )
  for (const location of locations) {
    if (isJsonObject(location.source)) addCode('source-types', location.source.type)
    if (typeof location.license_id === 'string') ids.add(location.license_id)
    else addCode('licenses', location.license)
  }
  for (const goal of objects(work.sustainable_development_goals)) {
    const match = typeof goal.id === 'string' ? /\/sdg\/(\d+)$/.exec(goal.id) : null
    if (match) addCode('sdgs', match[1])
  }
  return ids
}
