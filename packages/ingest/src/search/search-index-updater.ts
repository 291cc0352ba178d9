// `updateSearchIndex`: the search index of an updated catalog, from the index of the catalog it updates,
// without indexing again the records the update kept as they were. An entity's buckets stay as they were
// (linked into the new catalog, not copied); only the records the update added or revised are tokenized,
// into the entity's delta, and the documents it revised, merged or deleted are masked in the buckets. The
// dictionaries, document lengths and statistics are rewritten whole, so every score is the one a full build
// of the same records gives (the query side computes BM25 from them: `search-index-layout.ts`).
//
// An entity is built whole instead (`buildSearchIndex`) when its documents are not numbered by their id
// (their ranks would move), when the catalog being updated has no index of it, or when its delta and masked
// documents would pass `MERGE_SHARE` of its documents: that rebuild is the delta's merge.
import { copyFile, link, mkdir, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { DuckDBValue } from '@duckdb/node-api'
import {
  type CatalogEntity,
  type CatalogFile,
  SEARCH_DIR,
  SEARCH_MODES,
  SEARCHABLE_ENTITIES,
  type SearchEntityIndex,
  type SearchIndexFileKind,
  type SearchIndexManifest,
  type SearchMode,
  searchFilePath,
  searchIndexManifest,
  storedFieldsOf,
} from '@oqlkit/catalog'
import { withSettings } from '../texts/build-session.ts'
import type { RecordTextsFiles } from '../texts/record-texts-file.ts'
import {
  COPY_UPDATED_TERMS_SQL,
  COUNT_REMOVED_SQL,
  CREATE_REMOVED_DOCS_SQL,
  changedRecordsSql,
  copyAddedPostingsSql,
  copyDeltaSql,
  copyMaskedSql,
  copyUpdatedDocStatsSql,
  createKeptDocsSql,
  createLostPostingsSql,
  DELTA_DOCS_SQL,
  LOST_POSTINGS_SQL,
  UPDATE_WORK_TABLES,
} from './search-delta-sql.ts'
import {
  type BuildSearchIndexOptions,
  buildSearchIndex,
  defaultSegmentDocs,
  fieldStats,
  frequentTermsOf,
  idPrefixOf,
  listOf,
  memoryLimitOf,
  type SearchBuildSession,
  sessionOf,
  threadsSettingFor,
  tokenizeTexts,
} from './search-index-builder.ts'
import {
  COPY_DOCS_SQL,
  copyEmptyBucketSql,
  copyFieldStatsSql,
  createDocsSql,
  dropWorkTablesSql,
} from './search-index-sql.ts'

/**
 * The most an entity's delta documents and masked documents together may be, as a share of its documents,
 * before the update builds its index whole. Every search reads the delta beside the buckets and filters the
 * masked documents out of them, and every update rewrites the delta: past a tenth, a rebuild costs less than
 * carrying it (and a full build's cost, spread over the updates that led to it, stays a small share of each).
 */
export const MERGE_SHARE = 0.1

export interface UpdateSearchIndexOptions extends Omit<BuildSearchIndexOptions, 'texts' | 'onEntity'> {
  /** The updated catalog's texts files: the changed records' are read (`changedOf`), and all for a rebuild. */
  readonly texts: RecordTextsFiles
  /** The catalog being updated: its folder and its index. */
  readonly previous: { readonly catalogDir: string; readonly index: SearchIndexManifest }
  /**
   * Per entity, the size its record store had in the catalog being updated: the updated store begins with
   * it, so the records below that offset are those the update kept as they were.
   */
  readonly keptBelow: ReadonlyMap<CatalogEntity, number>
  /** Called before each entity is updated or built, with how (`delta`, `unchanged`, `rebuilt`). */
  readonly onEntity?: (entity: CatalogEntity, how: EntityUpdate, done: number, total: number) => void
}

export type EntityUpdate = 'delta' | 'unchanged' | 'rebuilt'

/** Updates the index of each entity; returns the manifest for `catalog.json` `extensions.search`. */
export async function updateSearchIndex(options: UpdateSearchIndexOptions): Promise<SearchIndexManifest> {
  const { catalogDir, previous } = options
  const outDir = options.outDir ?? catalogDir
  const workDir = options.workDir ?? join(outDir, SEARCH_DIR, '.update')
  const session = sessionOf(options.connection)
  const entities = options.entities ?? SEARCHABLE_ENTITIES
  const files: CatalogFile[] = []
  const indexed: Partial<Record<CatalogEntity, SearchEntityIndex>> = {}
  const rebuilt: CatalogEntity[] = []
  const memoryLimit = await memoryLimitOf(session)
  try {
    await withSettings(session, await threadsSettingFor(session, memoryLimit), async () => {
      for (const [position, entity] of entities.entries()) {
        const before = previous.index.entities[entity]
        const keptBelow = options.keptBelow.get(entity)
        const plan =
          before === undefined || keptBelow === undefined
            ? undefined
            : await planEntity(
                session,
                options.texts.rowsOf(entity),
                join(previous.catalogDir, ...before.files.docs.split('/')),
                before,
                keptBelow,
              )
        if (before === undefined || plan === undefined) {
          rebuilt.push(entity)
          continue
        }
        const how = plan.changed === 0 && plan.removed === 0 ? 'unchanged' : 'delta'
        options.onEntity?.(entity, how, position, entities.length)
        indexed[entity] = await updateEntity(session, {
          entity,
          before,
          plan,
          previousDir: previous.catalogDir,
          previousFiles: previous.index.files,
          catalogDir,
          outDir,
          workDir: join(workDir, entity),
          texts: options.texts,
          memoryLimit,
          files,
          ...(options.segmentDocs === undefined ? {} : { segmentDocs: options.segmentDocs }),
        })
      }
    })
  } finally {
    for (const sql of [...dropWorkTablesSql(), ...UPDATE_WORK_TABLES.map((t) => `DROP TABLE IF EXISTS ${t}`)])
      await session.run(sql).catch(() => undefined)
    await rm(workDir, { recursive: true, force: true })
  }
  if (rebuilt.length > 0) {
    const { onEntity, previous: _previous, keptBelow: _keptBelow, ...build } = options
    const built = await buildSearchIndex({
      ...build,
      entities: rebuilt,
      onEntity: (entity, done, total) => onEntity?.(entity, 'rebuilt', done, total),
    })
    Object.assign(indexed, built.entities)
    files.push(...built.files)
  }
  // In the order of `entities`, as a full build lists them.
  const ordered = Object.fromEntries(
    entities.flatMap((entity) => (indexed[entity] === undefined ? [] : [[entity, indexed[entity]]])),
  )
  return searchIndexManifest(ordered, files, new Date())
}

/** What an update does to one entity's index. */
interface EntityPlan {
  readonly keptBelow: number
  /** Records the update added or revised: tokenized into the delta. */
  readonly changed: number
  /** Documents of the previous index the update did not keep: masked, their postings no longer counted. */
  readonly removed: number
}

/**
 * How the entity's index is updated by a delta, with its kept and removed documents staged
 * (`search_update_kept`, `search_update_removed`); undefined when it must be built whole.
 */
async function planEntity(
  session: SearchBuildSession,
  entityRows: string,
  previousDocs: string,
  before: SearchEntityIndex,
  keptBelow: number,
): Promise<EntityPlan | undefined> {
  const [counted] = await session.rows(changedRecordsSql(entityRows), [keptBelow])
  const changed = Number(counted?.changed ?? 0)
  const records = Number(counted?.records ?? 0)
  // Every record kept, and as many as the index had: none removed either, whatever the numbering.
  if (changed === 0 && records === before.docs) return { keptBelow, changed: 0, removed: 0 }
  if (before.idPrefix === null || (await idPrefixOf(session, entityRows)) !== before.idPrefix)
    return undefined
  await session.run(createKeptDocsSql(entityRows), [keptBelow])
  await session.run(CREATE_REMOVED_DOCS_SQL, [previousDocs])
  const [gone] = await session.rows(COUNT_REMOVED_SQL)
  const removed = Number(gone?.n ?? 0)
  // At most what the delta and the mask will hold (an earlier delta's documents may be among those removed).
  const carried = (before.delta?.docs ?? 0) + changed + (before.delta?.maskedDocs ?? 0) + removed
  return carried > MERGE_SHARE * records ? undefined : { keptBelow, changed, removed }
}

interface UpdateEntityContext {
  readonly entity: CatalogEntity
  readonly before: SearchEntityIndex
  readonly plan: EntityPlan
  readonly previousDir: string
  /** The previous index's files, for the rows of those carried over. */
  readonly previousFiles: readonly CatalogFile[]
  readonly catalogDir: string
  readonly outDir: string
  readonly workDir: string
  readonly texts: RecordTextsFiles
  readonly memoryLimit: number
  readonly segmentDocs?: number
  /** Every file written or carried over is added here. */
  readonly files: CatalogFile[]
}

async function updateEntity(
  session: SearchBuildSession,
  context: UpdateEntityContext,
): Promise<SearchEntityIndex> {
  const { entity, before, plan, files } = context
  const path = (kind: SearchIndexFileKind, mode?: SearchMode) => searchFilePath(entity, kind, mode)
  const previous = (relative: string) => join(context.previousDir, ...relative.split('/'))
  const output = (relative: string) => join(context.outDir, ...relative.split('/'))
  const write = async (relative: string, sql: string, params: readonly DuckDBValue[]): Promise<number> => {
    await mkdir(dirname(output(relative)), { recursive: true })
    const rows = await session.run(sql, params)
    files.push({ path: relative, bytes: (await stat(output(relative))).size, rows })
    return rows
  }
  // The buckets stay as they are: the same files, linked into the new catalog.
  const rowsOf = new Map(context.previousFiles.map((file) => [file.path, file.rows]))
  const carry = async (relative: string): Promise<void> => {
    await mkdir(dirname(output(relative)), { recursive: true })
    await linkOrCopy(previous(relative), output(relative))
    files.push({
      path: relative,
      bytes: (await stat(output(relative))).size,
      rows: rowsOf.get(relative) ?? 0,
    })
  }
  for (const mode of SEARCH_MODES) for (const bucket of before.files[mode].postings) await carry(bucket)

  if (plan.changed === 0 && plan.removed === 0) {
    // Nothing of this entity changed: every file as it was.
    for (const relative of unchangedFiles(before)) await carry(relative)
    return before
  }

  await mkdir(context.workDir, { recursive: true })
  const work = (name: string) => join(context.workDir, name)
  const fields = storedFieldsOf(entity)
  const source = await context.texts.changedOf(entity, plan.keptBelow)
  const tokenized = await tokenizeTexts(session, {
    source,
    fields,
    numbered: true,
    segmentDocs: context.segmentDocs ?? (await defaultSegmentDocs(source, plan.changed, context.memoryLimit)),
    work,
  })
  const hasDelta = before.delta !== undefined
  const earlier = (mode: SearchMode): string[] =>
    before.delta === undefined ? [] : [previous(before.delta.masked), previous(before.delta[mode])]

  const terms = { exact: 0, stemmed: 0 }
  const postings = { exact: 0, stemmed: 0 }
  const frequent: Record<SearchMode, Record<string, number>> = { exact: {}, stemmed: {} }
  for (const mode of SEARCH_MODES) {
    const added = work(`${mode}-added.parquet`)
    const addedRows =
      tokenized.exactParts.length > 0
        ? await session.run(copyAddedPostingsSql(mode === 'stemmed'), [listOf(tokenized.exactParts), added])
        : await session.run(copyEmptyBucketSql(true), [added])
    const buckets = listOf(before.files[mode].postings.map(previous))
    await session.run(createLostPostingsSql(hasDelta), [buckets, ...earlier(mode)])
    const [lost] = await session.rows(LOST_POSTINGS_SQL)
    const counted =
      before.delta?.postings[mode] ??
      before.files[mode].postings.reduce((sum, bucket) => sum + (rowsOf.get(bucket) ?? 0), 0)
    postings[mode] = counted - Number(lost?.n ?? 0) + addedRows
    await write(path('delta', mode), copyDeltaSql(hasDelta), [
      added,
      output(path('delta', mode)),
      ...(before.delta === undefined ? [] : [previous(before.delta[mode])]),
    ])
    terms[mode] = await withSettings(session, { preserve_insertion_order: true }, () =>
      write(path('terms', mode), COPY_UPDATED_TERMS_SQL, [
        previous(before.files[mode].terms),
        added,
        output(path('terms', mode)),
      ]),
    )
    frequent[mode] = await frequentTermsOf(session, output(path('terms', mode)))
  }
  const maskedDocs = await write(path('masked'), copyMaskedSql(hasDelta), [
    output(path('masked')),
    ...(before.delta === undefined ? [] : [previous(before.delta.masked)]),
  ])
  const [deltaDocs] = await session.rows(DELTA_DOCS_SQL, [output(path('delta', 'exact'))])

  // The documents, their lengths and the fields' statistics, as they now are.
  await session.run(createDocsSql(true, context.texts.rowsOf(entity)))
  const docs = await write(path('docs'), COPY_DOCS_SQL, [output(path('docs'))])
  const addedStats = tokenized.docStatsParts.length > 0
  await write(path('docStats'), copyUpdatedDocStatsSql(addedStats), [
    previous(before.files.docStats),
    output(path('docStats')),
    ...(addedStats ? [listOf(tokenized.docStatsParts)] : []),
  ])
  await write(path('fieldStats'), copyFieldStatsSql(fields), [
    output(path('docStats')),
    output(path('fieldStats')),
  ])
  const stats = await fieldStats(session, fields, output(path('docStats')))
  for (const sql of dropWorkTablesSql()) await session.run(sql)
  await rm(context.workDir, { recursive: true, force: true })

  const modeFiles = (mode: SearchMode) => ({
    ...before.files[mode],
    terms: path('terms', mode),
    frequent: frequent[mode],
  })
  return {
    docs,
    idPrefix: before.idPrefix,
    fields: stats,
    files: {
      docs: path('docs'),
      docStats: path('docStats'),
      fieldStats: path('fieldStats'),
      exact: modeFiles('exact'),
      stemmed: modeFiles('stemmed'),
    },
    terms,
    delta: {
      docs: Number(deltaDocs?.n ?? 0),
      masked: path('masked'),
      maskedDocs,
      exact: path('delta', 'exact'),
      stemmed: path('delta', 'stemmed'),
      postings,
    },
  }
}

/** The files of an entity's index other than its buckets. */
function unchangedFiles(index: SearchEntityIndex): string[] {
  const { files, delta } = index
  return [
    files.docs,
    files.docStats,
    files.fieldStats,
    files.exact.terms,
    files.stemmed.terms,
    ...(delta === undefined ? [] : [delta.masked, delta.exact, delta.stemmed]),
  ]
}

/**
 * A hard link to a file of the catalog being updated (the index's files are written once and never changed
 * in place, and the swap removes the old folder by name), or a copy where links cannot be made.
 */
async function linkOrCopy(from: string, to: string): Promise<void> {
  // A run resumed in the same build folder may find the link its stopped predecessor made.
  await rm(to, { force: true })
  try {
    await link(from, to)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw error
    await copyFile(from, to)
  }
}
