// `buildTextTagger`: trains the tag model from a catalog folder's works and writes it under `text-tagger/`.
// Ingest runs it on the build folder before the swap. Past `maxTrainingWorks`, the works of lowest seeded key
// are used (the same seed picks the same works; only their texts are read), which bounds time and memory at
// any catalog size.
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  type CatalogManifest,
  isCatalogRelativePath,
  TEXT_TAGGER_FORMAT,
  TEXT_TAGGER_FORMAT_VERSION,
  TEXT_TAGGER_MODEL_FILE,
  type TextTaggerManifest,
  textTaggerOf,
} from '@oqlkit/catalog'
import type { TagModelSettings, TermVocabularyOptions, TextTagModel } from '@oqlkit/text-models'
import { seededIdFraction, TextTagModelTrainer } from '@oqlkit/text-models'
import type { UnchangedWorks } from '../build/unchanged-works.ts'
import { modelReuse } from '../texts/model-reuse-policy.ts'
import { countCatalogWorks, readCatalogTrainingWorks } from './catalog-training-works.ts'

export const DEFAULT_TEXT_TAGGER_SEED = 1
/** Reading and parsing a work's texts is most of the cost: bounded, training takes the same at 100k as at 10M. */
export const DEFAULT_MAX_TRAINING_WORKS = 50_000

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
  const catalogWorks = await countCatalogWorks(options.catalogDir, options.worksTexts)
  const { include } = options
  const max = options.maxTrainingWorks ?? DEFAULT_MAX_TRAINING_WORKS
  const trainer = new TextTagModelTrainer()
  let read = 0
  for await (const work of readCatalogTrainingWorks(options.catalogDir, {
    ...(options.worksTexts === undefined ? {} : { worksTexts: options.worksTexts }),
    sample: {
      keyOf: (id) => (include === undefined || include(id) ? seededIdFraction(id, seed) : Number.NaN),
      max,
    },
  })) {
    read++
    if (options.onProgress !== undefined && read % 10_000 === 0)
      options.onProgress(read, Math.min(max, catalogWorks))
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

/**
 * An update's tag model: the updated catalog's, copied into the build folder, when it was trained with the
 * same seed and few enough works have changed since (`modelReuse`); undefined when it must be trained again.
 */
export async function keepTextTagger(
  previous: { readonly outDir: string; readonly manifest: CatalogManifest },
  buildDir: string,
  options: { readonly seed: number; readonly unchanged: UnchangedWorks; readonly retrain: boolean },
): Promise<TextTaggerManifest | undefined> {
  const tagger = textTaggerOf(previous.manifest)
  if (tagger === undefined || tagger.seed !== options.seed || !isCatalogRelativePath(tagger.file))
    return undefined
  const { changed, works } = options.unchanged
  const reuse = modelReuse(tagger.worksChangedSince, changed, works, options.retrain)
  if (reuse === undefined) return undefined
  const path = join(buildDir, ...TEXT_TAGGER_MODEL_FILE.split('/'))
  await mkdir(dirname(path), { recursive: true })
  await copyFile(join(previous.outDir, ...tagger.file.split('/')), path)
  return { ...tagger, file: TEXT_TAGGER_MODEL_FILE, worksChangedSince: reuse.worksChangedSince }
}
