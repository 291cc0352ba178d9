// The text-tagging model's place in a catalog: one file under `text-tagger/`, described in `catalog.json`
// `extensions.textTagger`. Like the search index it is built from the records and rebuilt by every ingest.
import type { CatalogManifest } from '../layout/catalog-layout.ts'

export const TEXT_TAGGER_FORMAT = 'oqlkit-text-tagger'
export const TEXT_TAGGER_FORMAT_VERSION = 1
export const TEXT_TAGGER_EXTENSION_KEY = 'textTagger'
export const TEXT_TAGGER_DIR = 'text-tagger'
export const TEXT_TAGGER_MODEL_FILE = `${TEXT_TAGGER_DIR}/model.bin`

export interface TextTaggerManifest {
  readonly format: typeof TEXT_TAGGER_FORMAT
  readonly formatVersion: typeof TEXT_TAGGER_FORMAT_VERSION
  /** Catalog-relative path of the model file. */
  readonly file: string
  readonly bytes: number
  /** Picks the training works when the catalog has more than `maxTrainingWorks`. */
  readonly seed: number
  readonly catalogWorks: number
  readonly trainedWorks: number
  readonly vocabularySize: number
  /** Labels per kind the model knows. */
  readonly labels: Readonly<Record<string, number>>
  /**
   * Works added, revised or removed by the updates that kept this model (absent: none since it was trained).
   * An update past a share of the catalog trains it again (ingest's `model-reuse-policy.ts`).
   */
  readonly worksChangedSince?: number
}

/** The catalog manifest with the model recorded: the extension set and its file listed in `files`. */
export function withTextTagger(manifest: CatalogManifest, tagger: TextTaggerManifest): CatalogManifest {
  const others = manifest.files.filter((file) => !file.path.startsWith(`${TEXT_TAGGER_DIR}/`))
  return {
    ...manifest,
    files: [...others, { path: tagger.file, bytes: tagger.bytes, rows: tagger.trainedWorks }],
    extensions: { ...manifest.extensions, [TEXT_TAGGER_EXTENSION_KEY]: tagger },
  }
}

/** The model a catalog records, or undefined when it has none or one of another format version. */
export function textTaggerOf(manifest: CatalogManifest): TextTaggerManifest | undefined {
  const value = manifest.extensions[TEXT_TAGGER_EXTENSION_KEY]
  if (typeof value !== 'object' || value === null) return undefined
  const entry = value as Partial<TextTaggerManifest>
  return entry.format === TEXT_TAGGER_FORMAT &&
    entry.formatVersion === TEXT_TAGGER_FORMAT_VERSION &&
    typeof entry.file === 'string'
    ? (value as TextTaggerManifest)
    : undefined
}
