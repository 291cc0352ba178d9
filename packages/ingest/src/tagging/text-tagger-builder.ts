// `buildTextTagger`: trains the tag model from a catalog folder's works and writes it under `text-tagger/`.
// Ingest runs it on the build folder before the swap. Past `maxTrainingWorks` a seeded share of the works is
// used (the same seed picks the same works), which bounds time and memory on very large catalogs.
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  TEXT_TAGGER_FORMAT,
  TEXT_TAGGER_FORMAT_VERSION,
  TEXT_TAGGER_MODEL_FILE,
  type TextTaggerManifest,
} from '@oqlkit/catalog'
import type { TagModelSettings, TermVocabularyOptions, TextTagModel } from '@oqlkit/text-models'
import { seededIdFraction, TextTagModelTrainer } from '@oqlkit/text-models'
import { countCatalogWorks, readCatalogTrainingWorks } from './catalog-training-works.ts'

export const DEFAULT_TEXT_TAGGER_SEED = 1
/** About 1.5 GB of working memory and a few minutes of one core at most. */
export const DEFAULT_MAX_TRAINING_WORKS = 1_000_000

export interface BuildTextTaggerOptions {
  /** The catalog folder whose works are read. */
  readonly catalogDir: string
  /** The works' texts file, when an ingest has written it (`../catalog/record-texts-file.ts`). */
  readonly worksTexts?: string
  /** Where `text-tagger/` is written (default: the catalog folder). */
  readonly outDir?: string
  readonly seed?: number
  readonly maxTrainingWorks?: number
  /** Only works this accepts are trained on (a benchmark's held-out split); all by default. */
  readonly include?: (workId: string) => boolean
  readonly vocabulary?: Partial<TermVocabularyOptions>
  readonly settings?: Partial<TagModelSettings>
  readonly onProgress?: (worksRead: number, total: number) => void
}

export interface BuiltTextTagger {
  readonly manifest: TextTaggerManifest
  readonly model: TextTagModel
}

/** Trains the model without writing it (benchmarks). */
export async function trainTextTagModel(
  options: Omit<BuildTextTaggerOptions, 'outDir'>,
): Promise<{ model: TextTagModel; catalogWorks: number }> {
  const seed = options.seed ?? DEFAULT_TEXT_TAGGER_SEED
  const catalogWorks = await countCatalogWorks(options.catalogDir)
  const share = Math.min(
    1,
    (options.maxTrainingWorks ?? DEFAULT_MAX_TRAINING_WORKS) / Math.max(1, catalogWorks),
  )
  const trainer = new TextTagModelTrainer()
  let read = 0
  for await (const work of readCatalogTrainingWorks(options.catalogDir, {
    ...(options.worksTexts === undefined ? {} : { worksTexts: options.worksTexts }),
  })) {
    read++
    if (options.onProgress !== undefined && read % 10_000 === 0) options.onProgress(read, catalogWorks)
    if (share < 1 && seededIdFraction(work.id, seed) >= share) continue
    if (options.include !== undefined && !options.include(work.id)) continue
    trainer.addWork(work)
  }
  const model = trainer.build({
    ...(options.vocabulary === undefined ? {} : { vocabulary: options.vocabulary }),
    ...(options.settings === undefined ? {} : { settings: options.settings }),
  })
  return { model, catalogWorks }
}

export async function buildTextTagger(options: BuildTextTaggerOptions): Promise<BuiltTextTagger> {
  const { model, catalogWorks } = await trainTextTagModel(options)
  const bytes = model.serialize()
  const path = join(options.outDir ?? options.catalogDir, ...TEXT_TAGGER_MODEL_FILE.split('/'))
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, bytes)
  const labels: Record<string, number> = {}
  for (const kind of model.kinds) labels[kind] = model.labelSet(kind)?.ids.length ?? 0
  return {
    model,
    manifest: {
      format: TEXT_TAGGER_FORMAT,
      formatVersion: TEXT_TAGGER_FORMAT_VERSION,
      file: TEXT_TAGGER_MODEL_FILE,
      bytes: bytes.length,
      seed: options.seed ?? DEFAULT_TEXT_TAGGER_SEED,
      catalogWorks,
      trainedWorks: model.trainedWorks,
      vocabularySize: model.vectorizer.size,
      labels,
    },
  }
}
