// The embedded (single-process, file-backed) stores of metering: API keys and budgets in a state folder.
export { type AppendLogOptions, DurableAppendLog, readLogLines } from './durable-append-log.ts'
export { type EmbeddedKeyStoreOptions, KEYS_LOG_FILE, openEmbeddedKeyStore } from './embedded-key-store.ts'
export {
  type EmbeddedMeterStore,
  type EmbeddedMeterStoreOptions,
  METER_LOG_FILE,
  openEmbeddedMeterStore,
} from './embedded-meter-store.ts'
export { lockStateDirectory, StateDirectoryInUseError } from './state-directory-lock.ts'
