// Streams the works of a catalog as training examples: title, the abstract rebuilt from its inverted
// index, and the keywords, concepts and topics with their scores. DuckDB extracts just those parts of each
// work's texts (`../catalog/record-texts-file.ts`), in id order so training sees the same sequence every time.
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { createDuckDbInstance } from '@oqlkit/adapter-duckdb'
import { readCatalogManifest } from '@oqlkit/catalog'
import { readTrainingLabels, type TrainingWork, textFromInvertedIndex } from '@oqlkit/text-models'
import { connectionSession } from '../texts/build-session.ts'
import { RecordTextsFiles } from '../texts/record-texts-file.ts'
import { pickTrainingSample } from '../texts/training-sample.ts'

/** With `sample`, only the rows that table names (`../texts/training-sample.ts`) are read and parsed. */
const trainingWorksSql = (sample?: string) => `SELECT id,
  coalesce(json_extract_string(texts, '$.title'), json_extract_string(texts, '$.display_name'), '') AS title,
  json_extract(texts, '$.abstract_inverted_index')::VARCHAR AS abstract,
  json_extract(texts, '$.keywords')::VARCHAR AS keywords,
  json_extract(texts, '$.concepts')::VARCHAR AS concepts,
  json_extract(texts, '$.topics')::VARCHAR AS topics
FROM read_parquet($1, file_row_number = true)${
  sample === undefined ? '' : ` WHERE file_row_number IN (SELECT "row" FROM ${sample})`
} ORDER BY id_num, id`

const SAMPLE_TABLE = 'tagger_training_rows'

/** Which works are read: the `max` of lowest key (`keyOf` of the id; `NaN` never), as `pickTrainingSample` picks. */
export interface TrainingWorksSample {
  readonly keyOf: (id: string) => number
  readonly max: number
}

/** The prefix of the work folder inside the catalog when the works' texts must be written first. */
const TEXTS_WORK_PREFIX = '.tagger-texts-'

const parsed = (text: unknown): unknown => {
  if (typeof text !== 'string') return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * The number of works of a catalog folder: the rows of its works' texts file when one is given (an ingest's,
 * before its `catalog.json` is written), else the count its `catalog.json` gives.
 */
export async function countCatalogWorks(catalogDir: string, worksTexts?: string): Promise<number> {
  if (worksTexts === undefined) {
    const read = await readCatalogManifest(catalogDir)
    if (!read.ok) throw new Error(`Cannot count the works of the catalog in ${catalogDir}: ${read.message}`)
    return read.manifest.entities.works.rowCount
  }
  const instance = await createDuckDbInstance()
  const connection = await instance.connect()
  try {
    const reader = await connection.runAndReadAll('SELECT count(*) AS n FROM read_parquet($1)', [worksTexts])
    return Number(reader.getRowObjectsJson()[0]?.n ?? 0)
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

/**
 * Every work of a catalog folder, as a training example, in id order; with `sample`, only the works it picks
 * (their ids read first, so the others' texts are never read). From `worksTexts`, the works' texts file, when
 * an ingest has written it already; else it is written first, into a work folder of the catalog.
 */
export async function* readCatalogTrainingWorks(
  catalogDir: string,
  options: {
    readonly threads?: number
    readonly worksTexts?: string
    readonly sample?: TrainingWorksSample
  } = {},
): AsyncGenerator<TrainingWork> {
  const instance = await createDuckDbInstance(':memory:', { threads: options.threads ?? 1 })
  const connection = await instance.connect()
  let workDir: string | undefined
  try {
    if (options.worksTexts === undefined) workDir = await mkdtemp(join(catalogDir, TEXTS_WORK_PREFIX))
    const worksTexts =
      options.worksTexts ??
      (await (
        await RecordTextsFiles.ofCatalog(connectionSession(connection), catalogDir, workDir!)
      ).of('works'))
    const session = connectionSession(connection)
    const sample =
      options.sample === undefined
        ? undefined
        : await pickTrainingSample(
            session,
            worksTexts,
            SAMPLE_TABLE,
            options.sample.keyOf,
            options.sample.max,
          )
    const result = await connection.stream(trainingWorksSql(sample?.table), [worksTexts])
    for await (const rows of result.yieldRows()) {
      for (const [id, title, abstract, keywords, concepts, topics] of rows) {
        yield {
          id: String(id),
          title: typeof title === 'string' ? title : '',
          abstract: textFromInvertedIndex(parsed(abstract)),
          labels: {
            keywords: readTrainingLabels(parsed(keywords)),
            concepts: readTrainingLabels(parsed(concepts)),
            topics: readTrainingLabels(parsed(topics)),
          },
        }
      }
    }
  } finally {
    connection.closeSync()
    instance.closeSync()
    if (workDir !== undefined) await rm(workDir, { recursive: true, force: true })
  }
}
