// The public API of @oqlkit/file-stores: the key, meter and collection stores of one server process, each an
// append-only JSON-lines log in a state folder (fsync before a write is acknowledged, a lock so that two
// processes never share a folder). Several processes share state through @oqlkit/adapter-redis instead; both
// implement the store interfaces of @oqlkit/engine.

export {
  COLLECTIONS_LOG_FILE,
  type FileCollectionStoreOptions,
  openFileCollectionStore,
} from './file-collection-store.ts'
export {
  type FileKeyStoreOptions,
  KEYS_LOG_FILE,
  openFileKeyStore,
} from './file-key-store.ts'
export {
  type FileMeterStore,
  type FileMeterStoreOptions,
  METER_LOG_FILE,
  openFileMeterStore,
} from './file-meter-store.ts'
export { StateDirectoryInUseError } from './state-directory-lock.ts'
