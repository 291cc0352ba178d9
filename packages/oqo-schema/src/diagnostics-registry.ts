import { VALIDATION_CODES } from './diagnostic.ts'

export interface DiagnosticsRegistryEntry {
  readonly code: string
  readonly severity: 'error' | 'warning'
  readonly source: 'validation' | 'parse' | 'url'
  readonly summary: string
}

/**
 * The code registry published as `spec/diagnostics.json`. Parse and URL codes come from `@oqlkit/oql`,
 * which passes them in; this package only knows the validation codes.
 */
export const buildDiagnosticsRegistry = (
  oqlCodes: readonly DiagnosticsRegistryEntry[] = [],
): { readonly codes: readonly DiagnosticsRegistryEntry[] } => ({
  codes: [
    ...oqlCodes,
    ...Object.entries(VALIDATION_CODES).map(([code, summary]) => ({
      code,
      severity: summary.startsWith('Warning:') ? ('warning' as const) : ('error' as const),
      source: 'validation' as const,
      summary: summary.replace(/^Warning: /, ''),
    })),
  ],
})
