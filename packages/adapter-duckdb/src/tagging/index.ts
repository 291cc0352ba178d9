// Text tagging over a catalog: the model built at ingest from the works, stored in the catalog folder, and
// loaded as the engine's `Tagger`.
export * from './catalog-text-tagger.ts'
export * from './catalog-training-works.ts'
export * from './text-tagger-builder.ts'
export * from './text-tagger-layout.ts'
