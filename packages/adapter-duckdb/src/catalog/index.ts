// The catalog layout: what ingest writes and the query adapter reads (see README.md in this folder).
export * from './catalog-entities.ts'
export * from './catalog-layout.ts'
export * from './catalog-manifest-reader.ts'
export * from './entity-columns.ts'
export * from './external-id-schemes.ts'
export * from './link-tables.ts'
export * from './openalex-id-normalizer.ts'
