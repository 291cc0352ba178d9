// The full-text search index: build it from a catalog's entity files, compile searches against it.
export * from './porter-stemmer.ts'
export * from './search-compiler.ts'
export * from './search-fields.ts'
export * from './search-index-builder.ts'
export * from './search-index-layout.ts'
export * from './search-index-manifest.ts'
export * from './search-query.ts'
export * from './search-tokenizer.ts'
