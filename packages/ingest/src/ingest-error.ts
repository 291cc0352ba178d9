// The error an ingest rejects with when its input is bad. It names the file and, where the input has
// lines, the 1-based line, so a user can open the file at the place that is wrong. The detail writers are
// exported so tests (and the CLI) can state the exact messages.

export type IngestErrorCode =
  | 'unknown-layout'
  | 'manifest-missing'
  | 'manifest-invalid'
  | 'manifest-mismatch'
  | 'unreadable-file'
  | 'truncated-gzip'
  | 'corrupt-gzip'
  | 'invalid-json'
  | 'invalid-record'
  | 'missing-id'
  | 'invalid-id'
  | 'invalid-parquet'
  | 'invalid-csv'
  | 'catalog-invalid'
  | 'output-not-catalog'
  | 'catalog-locked'

export interface IngestErrorContext {
  readonly code: IngestErrorCode
  /** Absolute path of the file (or folder) that is wrong. */
  readonly file: string
  /** 1-based line (a row number for Parquet files), when the problem is at one. */
  readonly line?: number
  readonly detail: string
}

export const writeIngestErrorMessage = (context: IngestErrorContext): string =>
  `${context.file}${context.line === undefined ? '' : `:${context.line}`}: ${context.detail}`

export class IngestError extends Error {
  readonly code: IngestErrorCode
  readonly file: string
  readonly line: number | undefined
  readonly detail: string

  constructor(context: IngestErrorContext, options?: { readonly cause?: unknown }) {
    super(writeIngestErrorMessage(context), options)
    this.code = context.code
    this.file = context.file
    this.line = context.line
    this.detail = context.detail
  }

  override get name(): string {
    return 'IngestError'
  }
}

export const isIngestError = (value: unknown): value is IngestError => value instanceof IngestError

/** The detail texts, one writer per situation. */
export const ingestErrorDetails = {
  unknownLayout: () =>
    'expected an OpenAlex snapshot: entity folders with `manifest` files (legacy layout), or `jsonl/` or ' +
    '`parquet/` folders with `manifest.json` (2026 layout)',
  manifestMissing: (entity: string) =>
    `the ${entity} folder has no manifest, so the snapshot may be incomplete (a manifest is written last)`,
  manifestInvalid: (reason: string) => `the manifest is not valid: ${reason}`,
  listedFileMissing: (part: string) => `the manifest lists ${part}, which does not exist`,
  unlistedFile: (part: string) => `${part} is not listed in the manifest`,
  contentLengthMismatch: (part: string, expected: number, actual: number) =>
    `the manifest says ${part} has ${expected} bytes, the file has ${actual}`,
  recordCountMismatch: (part: string, expected: number, actual: number) =>
    `the manifest says ${part} has ${expected} records, the file has ${actual}`,
  totalMismatch: (what: 'record_count' | 'content_length', expected: number, actual: number) =>
    `the manifest's total ${what} is ${expected}, its entries add up to ${actual}`,
  unreadableFile: (reason: string) => `the file cannot be read: ${reason}`,
  truncatedGzip: () => 'the gzip data ends early (truncated file); this line is incomplete',
  corruptGzip: (reason: string) => `the gzip data is corrupt: ${reason}`,
  invalidJson: (reason: string) => `expected one JSON object per line: ${reason}`,
  invalidRecord: (found: string) => `expected a JSON object, found ${found}`,
  missingId: () => 'the record has no `id` (expected a non-empty string)',
  invalidId: (entity: string, id: string) => `${JSON.stringify(id)} is not an id of ${entity}`,
  invalidParquet: (reason: string) => `the Parquet file cannot be read: ${reason}`,
  invalidCsv: (reason: string) => `unexpected CSV row: ${reason}`,
  catalogInvalid: (reason: string) =>
    `the existing catalog cannot be updated: ${reason}; build it from the whole snapshot instead (mode 'replace', oqlkit ingest --replace)`,
  outputNotCatalog: () =>
    'the output folder exists and is not a catalog (no catalog.json); refusing to replace it',
  catalogLocked: (pid: number) => `another ingest (process ${pid}) is writing this catalog`,
} as const
