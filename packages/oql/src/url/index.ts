// Classic OpenAlex URLs ⇄ OQO (OQL v2.2 §6): read a list URL into an OQO plus its view parameters, and
// write an OQO back as the URL the corpus and the GUI use, or say why it has none.
export {
  type OqoToUrlOptions,
  type OqoToUrlResult,
  oqoToUrl,
  type ReadUrl,
  sortedOqoToUrl,
  type UrlNotRepresentable,
  type UrlNotRepresentableReason,
} from './oqo-to-url.ts'
export { readSortParameter } from './sort-parameter-reader.ts'
export { isCanonicalFixpoint, sortedAgain } from './sorted-canonical.ts'
export {
  URL_DIAGNOSTIC_CODES,
  type UrlDiagnostic,
  type UrlDiagnosticCode,
  type UrlOnlyDiagnosticCode,
} from './url-diagnostic.ts'
export { decodeUrlComponent, encodeUrlComponent } from './url-encoding.ts'
export { listQueryToOqo, type UrlToOqoOptions, type UrlToOqoResult, urlToOqo } from './url-to-oqo.ts'
export type { UrlView } from './url-view.ts'
export {
  isViewParameterName,
  readSelectText,
  readViewParameter,
  VIEW_PARAMETER_NAMES,
  type ViewParameterName,
  type ViewParameterReading,
  type ViewProblem,
} from './view-parameter-reader.ts'
