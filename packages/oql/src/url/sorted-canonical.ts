import { canonicalizeOqo, isBranch, type Oqo } from '@oqlkit/oqo-schema'

// Canonicalising is idempotent but for one case: a works query whose top level still holds a yes/no
// `is_xpac` leaf after canonicalising (it had two, and the first one left the corpus at core) turns
// that one into the corpus on the next pass. Everything else that `canonicalizeOqo` returns is its own
// canonical form, so code holding such an OQO can skip canonicalising it again.

/** Whether canonicalising this output of `canonicalizeOqo` again gives an equal OQO. */
export const isCanonicalFixpoint = (canonical: Oqo): boolean =>
  !(
    canonical.get_rows === 'works' &&
    (canonical.corpus ?? 'core') === 'core' &&
    (canonical.filter_rows ?? []).some(
      (row) => !isBranch(row) && row.column_id === 'is_xpac' && typeof row.value === 'boolean',
    )
  )

/** `canonicalizeOqo(sorted, { sortOperands: true })` of an OQO that already is its output, without the work. */
export const sortedAgain = (sorted: Oqo): Oqo =>
  isCanonicalFixpoint(sorted) ? sorted : canonicalizeOqo(sorted, { sortOperands: true })
