// The engine's `Tagger` over a catalog's trained model: loaded once from `text-tagger/model.bin` when the
// catalog is opened, then every call is in-memory arithmetic.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Tag, Tagger, TaggingInput, TagKind } from '@oqlkit/engine'
import { readCatalogManifest } from '../catalog/catalog-manifest-reader.ts'
import { TextTagModel } from '../text-model/text-tag-model.ts'
import { textTaggerOf } from './text-tagger-layout.ts'

/** A Tagger answering from a trained model. */
export function createModelTagger(model: TextTagModel): Tagger {
  const kinds = model.kinds
  return {
    kinds,
    tag: async (input: TaggingInput, kind: TagKind): Promise<readonly Tag[]> =>
      model.tag(input.abstract === undefined ? input.title : `${input.title}\n${input.abstract}`, kind),
  }
}

/**
 * The tagger of a catalog folder, or undefined when the catalog has no model (built with an older ingest, or
 * with the model turned off): the server then answers `/text` with a clear error instead of failing.
 */
export async function loadCatalogTagger(catalogDir: string): Promise<Tagger | undefined> {
  const read = await readCatalogManifest(catalogDir)
  if (!read.ok) return undefined
  const entry = textTaggerOf(read.manifest)
  if (entry === undefined) return undefined
  const bytes = await readFile(join(catalogDir, ...entry.file.split('/')))
  return createModelTagger(
    TextTagModel.deserialize(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
  )
}
