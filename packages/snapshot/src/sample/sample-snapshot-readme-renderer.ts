// The README of the bundled sample snapshot. Everything in it that is a number comes from the build summary,
// so the text and the data cannot drift apart; the snapshot test reads the table back.
import { DERIVABLE_ENTITIES, derivedRecordKeys } from './derived-record-builder.ts'
import { COUNT_FILTERS } from './sample-count-calculator.ts'
import type { SampleSnapshotSummary } from './sample-snapshot-summary.ts'

export const README_TABLE_HEADER =
  '| entity | real, referenced | real, not referenced | derived | from vocabularies | total | part files | bytes (gzip) |'

const PUBLISHER_NOTE =
  ' (the works list a publisher lineage in no consistent order, so no hierarchy is derived)'

export function renderSampleSnapshotReadme(summary: SampleSnapshotSummary): string {
  const rows = summary.entities.map(
    (e) =>
      `| ${e.entity} | ${e.realReferenced} | ${e.realUnreferenced} | ${e.derived} | ${e.vocabulary} | ${e.total} | ${e.parts} | ${e.bytes} |`,
  )
  const sum = (pick: (e: SampleSnapshotSummary['entities'][number]) => number): number =>
    summary.entities.reduce((total, e) => total + pick(e), 0)
  const totalRow = `| **all** | ${sum((e) => e.realReferenced)} | ${sum((e) => e.realUnreferenced)} | ${sum((e) => e.derived)} | ${sum((e) => e.vocabulary)} | ${summary.totalRecords} | ${sum((e) => e.parts)} | ${summary.totalBytes} |`
  const countRows = Object.entries(COUNT_FILTERS).map(([entity, filter]) => `| ${entity} | \`${filter}\` |`)
  const listCounts = (counts: Readonly<Partial<Record<string, number>>>): string => {
    const entries = Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1))
    return entries.length === 0 ? 'none' : entries.map(([entity, n]) => `${entity} ${n}`).join(', ')
  }
  const derivedLayouts = DERIVABLE_ENTITIES.map(
    (entity) =>
      `  * ${entity}: \`${derivedRecordKeys(entity).join(', ')}\`${entity === 'publishers' ? PUBLISHER_NOTE : ''};`,
  ).join('\n')
  const outOfVocabulary =
    summary.outOfVocabulary.length === 0
      ? 'none'
      : summary.outOfVocabulary
          .map((value) => `\`${value.id}\` (${value.works} ${value.works === 1 ? 'work' : 'works'})`)
          .join(', ')

  return `# Bundled sample snapshot

A small, closed OpenAlex snapshot in the legacy snapshot layout, committed so that a fresh clone serves real
records with no download. It holds every work of the shared OpenAlex sample, a record for every author,
institution, source, publisher, funder, topic, keyword and concept those works reference, and the vocabulary
entities (domains, fields, subfields, countries, continents, languages, work types, source types, institution
types, licenses, SDGs, OA statuses, indexes). It is generated: do not edit it by hand, rebuild it (below).

## Where the data comes from

* **Records**: the real OpenAlex entity records in the shared sample, \`data/openalex-sample/records/*.jsonl\`.
  OpenAlex data is CC0. Those records were collected from the test fixtures, API caches and sample snapshot files
  of four public repositories: rkrug/openalexPro, Mearman/Academic-Explorer,
  max-planck-innovation-competition/go-openalex and b-vitamins/openalex-python (see that directory's README and
  \`provenance.csv\` for the commit, path and request of every record).
* **Vocabularies**: \`data/openalex-sample/vocabularies/*.json\`, the \`values\` lists of \`config/*.yaml\` in
  ourresearch/openalex-elastic-api (the official API server) at commit 5a6505c.
* **Merged ids**: \`merged_ids/authors/*.csv\` are the real merged-ids files of the 2023 snapshot sample in
  max-planck-innovation-competition/go-openalex, copied byte for byte (header \`merge_date,id,merge_into_id\`).

## Layout

\`\`\`
<entity>/manifest                                  manifest of the entity's part files (JSON)
<entity>/updated_date=YYYY-MM-DD/part_NNN.gz       gzipped JSON Lines, one record per line
merged_ids/authors/YYYY-MM-DD.csv                  merged (retired) author ids
\`\`\`

* The manifests keep the real format: \`{"entries": [{"url", "meta": {"content_length", "record_count"}}, ...],
  "meta": {"content_length", "record_count"}}\`, with \`content_length\` the size of the part file in bytes.
  **The urls use the prefix \`s3://openalex/data/\`, which stands for this directory**: the entry
  \`s3://openalex/data/works/updated_date=2025-10-27/part_000.gz\` is the file
  \`works/updated_date=2025-10-27/part_000.gz\` here.
* A record lives in the partition of its \`updated_date\` (the date part). Inside a partition records are sorted
  by id (numerically for \`W123\`-style ids), at most ${summary.recordsPerPart} per part file.
* The real snapshot gzips the merged-ids files (\`.csv.gz\`); here they stay plain \`.csv\`, as in the shared
  sample.
* The build is deterministic: the same inputs give byte-identical files (fixed order, gzip level 9 with mtime 0
  and OS byte 3).

## What is real and what is derived

Sample as-of date: \`${summary.asOf}\` (the newest \`updated_date\` of any real record).

${README_TABLE_HEADER}
|---|---:|---:|---:|---:|---:|---:|---:|
${rows.join('\n')}
${totalRow}

* **Real** records are the lines of \`records/*.jsonl\` copied byte for byte: the full record as the API or the
  snapshot served it, in one of three schema eras (2023 snapshot, 2025 API, 2026 API), with its real counts
  and dates. Records that came from search result pages still carry \`relevance_score\`; an ingest should drop
  that key. "Referenced" means a work, or a derived record, points at it; the others are kept because they are
  real data too. Every real record has \`created_date\`.
* **Derived** records are built for ids the works reference that have no real record. They hold only what the
  objects embedded in the real records state (\`authorships[].author\`, \`authorships[].institutions[]\`,
  \`locations[].source\`, \`topics[]\`, \`keywords[]\`, \`concepts[]\`, \`funders[]\`, \`grants[]\`, id/name pairs such
  as \`host_organization\` + \`host_organization_name\`, and the same kinds of objects inside the real author,
  institution and source records); when observations differ, the one embedded in the most recently updated record
  wins, field by field. Keys and key order follow the 2025 API record of the entity; fields no embedded object
  states are left out, never filled in:
${derivedLayouts}

  A derived record has **no \`created_date\`** (nothing states it): that is how to tell it from a real one. Its
  \`updated_date\` is the sample as-of date, so all derived records sit in one partition per entity.
  Derived records whose \`display_name\` no embedded object states (ids known only from a \`lineage\` list) have
  \`display_name: null\`: ${listCounts(summary.derivedWithoutName)}.
* **Vocabulary** records are built from the lookup lists, with full ids \`https://openalex.org/<list id>\` (work
  types keep the lists' \`types/\` segment; a space in a code is written \`%20\`, e.g.
  \`https://openalex.org/source-types/ebook%20platform\`). They carry \`id\` and \`display_name\`; \`ids\` where
  the API's records of the entity have it (domains, fields, subfields, countries, continents, SDGs), with
  \`ids.wikidata\` for continents (their ids are Wikidata items); \`country_code\` for countries. All of them
  have \`works_count\`, \`cited_by_count\`, \`works_api_url\` (continents excepted, below) and \`updated_date\`
  (the as-of date). Domains,
  fields and subfields carry the hierarchy links that the topic objects in the records state (\`field\`, \`domain\`;
  children lists \`fields\`, \`subfields\`; a subfield's \`topics\` lists the snapshot's topics in it). No topic
  object names the parent of ${summary.subfieldsWithoutField} subfields and ${summary.fieldsWithoutDomain} fields,
  so those records have no parent link (${summary.hierarchyConflicts} conflicting links seen). Continents have
  no counts: nothing in the sample links a country to its continent. No vocabulary record has \`created_date\`.

### Counts over the sample

Derived and vocabulary records get \`works_count\` = the number of sample works linked to them through the filter
below (the same filter as their \`works_api_url\`), and \`cited_by_count\` = the sum of those works'
\`cited_by_count\`. Real records keep their real counts, which describe all of OpenAlex.

| entity | works filter |
|---|---|
${countRows.join('\n')}

Funders also count works that name them in \`grants[].funder\` (older works have no \`funders\`).

## How closed it is

* Every OpenAlex id a work mentions (authors, institutions and their lineage, sources, publishers, funders,
  topics, keywords, concepts, subfields, fields, domains, licenses) has a record here, and so does every id a
  derived record mentions. \`referenced_works\`, \`related_works\` and \`versions\` point mostly outside the
  sample and are left as they are.
* References made by real records other than works (their \`x_concepts\`, \`topics\`,
  \`associated_institutions\`, \`related_concepts\`, ...) are not followed. Ids referenced that way with no record
  here: ${listCounts(summary.danglingFromRealRecords)}.
* Values the works use that the vocabularies do not list (they get no record): ${outOfVocabulary}.

## Rebuild

\`\`\`
npm run build:sample -w @oqlkit/snapshot
\`\`\`

runs \`packages/snapshot/scripts/build-sample-snapshot.ts\`. It reads the shared sample (default
\`../shared/data/openalex-sample\` next to the repository; \`--source <dir>\` or \`OQLKIT_SAMPLE_SOURCE\`
overrides it), replaces this directory (\`--out <dir>\` writes elsewhere) and prints a summary per entity.
\`packages/snapshot/test/sample-snapshot.test.ts\` checks the closure, the manifests, the counts in the
table above and, when the shared sample is present, that a rebuild is byte-identical.
`
}
