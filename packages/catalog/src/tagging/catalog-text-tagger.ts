// The engine's `Tagger` over a catalog's trained model: loaded once from `text-tagger/model.bin` when the
// catalog is opened, then every call is in-memory arithmetic (`createModelTagger` of @oqlkit/text-models).
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Tagger } from '@oqlkit/engine'
import { createModelTagger, TextTagModel } from '@oqlkit/text-models'
import { readCatalogManifest } from '../layout/catalog-manifest-reader.ts'
import { textTaggerOf } from './text-tagger-layout.ts'

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
