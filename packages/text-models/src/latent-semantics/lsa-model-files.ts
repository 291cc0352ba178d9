// The LSA model on disk, beside the vectors it made: the vocabulary in the term vectoriser's own binary form
// and the projection as float32 little-endian, one row of `dimensions` numbers per term. The model's id is a
// digest of both files, so a catalog's vectors name exactly the model that made them.
import { createHash } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { TermVectorizer } from '../text-model/term-vectorizer.ts'
import { LsaModel } from './lsa-model.ts'

export interface LsaModelBytes {
  readonly vocabulary: Uint8Array
  readonly projection: Uint8Array
}

export const lsaModelBytes = (model: LsaModel): LsaModelBytes => {
  const projection = new Uint8Array(model.projection.length * 4)
  const view = new DataView(projection.buffer)
  for (let index = 0; index < model.projection.length; index++)
    view.setFloat32(index * 4, model.projection[index]!, true)
  return { vocabulary: model.vectorizer.serialize(), projection }
}

/** `lsa-<dimensions>:<16 hex digits of the files' SHA-256>`. */
export const lsaModelId = (bytes: LsaModelBytes, dimensions: number): string =>
  `lsa-${dimensions}:${createHash('sha256').update(bytes.vocabulary).update(bytes.projection).digest('hex').slice(0, 16)}`

export async function writeLsaModel(
  model: LsaModel,
  paths: { readonly vocabulary: string; readonly projection: string },
): Promise<{ readonly modelId: string; readonly bytes: LsaModelBytes }> {
  const bytes = lsaModelBytes(model)
  await writeFile(paths.vocabulary, bytes.vocabulary)
  await writeFile(paths.projection, bytes.projection)
  return { modelId: lsaModelId(bytes, model.dimensions), bytes }
}

export async function readLsaModel(
  paths: { readonly vocabulary: string; readonly projection: string },
  dimensions: number,
): Promise<{ readonly model: LsaModel; readonly modelId: string }> {
  const vocabulary = new Uint8Array(await readFile(paths.vocabulary))
  const projection = new Uint8Array(await readFile(paths.projection))
  return lsaModelFromBytes({ vocabulary, projection }, dimensions, paths.projection)
}

/**
 * The model of the two files' bytes, wherever they were kept (a catalog folder, or a table of a catalog loaded
 * into ClickHouse); `projectionName` names the projection in the message when its size is wrong.
 */
export function lsaModelFromBytes(
  bytes: LsaModelBytes,
  dimensions: number,
  projectionName = 'the LSA projection',
): { readonly model: LsaModel; readonly modelId: string } {
  const { vocabulary, projection } = bytes
  const vectorizer = TermVectorizer.deserialize(vocabulary)
  if (projection.length !== vectorizer.size * dimensions * 4)
    throw new Error(
      `${projectionName} holds ${projection.length} bytes; ${vectorizer.size} terms × ${dimensions} dimensions need ${vectorizer.size * dimensions * 4}`,
    )
  const view = new DataView(projection.buffer, projection.byteOffset, projection.byteLength)
  const values = new Float32Array(vectorizer.size * dimensions)
  for (let i = 0; i < values.length; i++) values[i] = view.getFloat32(i * 4, true)
  return {
    model: new LsaModel(vectorizer, values, dimensions),
    modelId: lsaModelId({ vocabulary, projection }, dimensions),
  }
}
