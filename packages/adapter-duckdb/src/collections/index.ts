// The embedded (single-process, file-backed) collection store.
export {
  COLLECTIONS_LOG_FILE,
  type EmbeddedCollectionStoreOptions,
  openEmbeddedCollectionStore,
} from './embedded-collection-store.ts'
