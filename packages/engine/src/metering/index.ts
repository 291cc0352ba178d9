// Metering, pure: API keys (hashing, masking, issuing, the keys-file reader), the KeyStore and
// MeterStore interfaces, the one charging rule (`decideCharge`) every store applies, the in-memory
// ledger that embedded stores build on, and the usage summary `/rate-limit` reports.
export {
  API_KEY_PATTERN,
  type ApiKeyRecord,
  generateApiKey,
  hashApiKey,
  ISSUED_KEY_PREFIX,
  isWellFormedApiKey,
  maskApiKey,
} from './api-key.ts'
export { allowanceOf, type Caller, subjectOf } from './caller-allowance.ts'
export {
  type ChargeDecision,
  countersOn,
  decideCharge,
  prepaidAvailableMicroUsd,
  type RateWindowState,
  refundCounters,
} from './charge-decision.ts'
export { classRateOf, classRateSubject } from './class-rate-limit.ts'
export {
  type KeyGrant,
  type KeysFileReading,
  keyGrantProblems,
  keyRecordOf,
  readApiKeyRecord,
  readKeysFile,
} from './key-record-reader.ts'
export { createMemoryKeyStore, type KeyStore, layerKeyStores } from './key-store.ts'
export {
  createMemoryMeterStore,
  MeterLedger,
  type MeterLogEntry,
  readMeterLogEntry,
} from './meter-ledger.ts'
export type {
  Allowance,
  ChargeOutcome,
  ChargeReceipt,
  ChargeRequest,
  MeterCounters,
  MeterReading,
  MeterStore,
  RateRule,
  RejectionReason,
} from './meter-store.ts'
export {
  DEFAULT_METERING_LIMITS,
  fromMicroUsd,
  type MeteringLimits,
  MICRO_USD_PER_USD,
  MS_PER_DAY,
  nextUtcMidnightMs,
  secondsUntilUtcMidnight,
  toMicroUsd,
  utcDayOf,
} from './metering-limits.ts'
export { type UsageSummary, usageSummary } from './usage-summary.ts'
