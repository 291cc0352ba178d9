// The engine's `Tagger` over a trained model: every call is in-memory arithmetic. Where the model comes from
// (a catalog's `text-tagger/model.bin`) is the storage adapter's business.
import type { Tag, Tagger, TaggingInput, TagKind } from '@oqlkit/engine'
import type { TextTagModel } from './text-tag-model.ts'

/** A Tagger answering from a trained model. */
export function createModelTagger(model: TextTagModel): Tagger {
  const kinds = model.kinds
  return {
    kinds,
    tag: async (input: TaggingInput, kind: TagKind): Promise<readonly Tag[]> =>
      model.tag(input.abstract === undefined ? input.title : `${input.title}\n${input.abstract}`, kind),
  }
}
