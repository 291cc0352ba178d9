import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Oqo } from '@oqlkit/oqo-schema'

export interface CorpusRow {
  readonly id: number
  readonly status: 'ok' | 'error' | 'out-of-scope'
  readonly oql: string
  readonly oqo?: Oqo | null
  readonly oxurl?: string | null
  readonly diagnostic?: string
  readonly tags?: readonly string[]
  readonly note?: string | null
}

const specFile = (name: string): string => resolve(import.meta.dirname, '../../../spec', name)

export const readSpecJson = <T>(name: string): T => JSON.parse(readFileSync(specFile(name), 'utf8')) as T

/** Every row of both corpus files; a newer row replaces the baseline row with the same id. */
export const corpusRows = (): CorpusRow[] => {
  const baseline = readSpecJson<{ rows: CorpusRow[] }>('conformance/oql-corpus.json').rows
  const newer = readSpecJson<{ rows: CorpusRow[] }>('conformance/oql-corpus-newer-rows.json').rows
  const byId = new Map(baseline.map((row) => [row.id, row]))
  for (const row of newer) byId.set(row.id, row)
  return [...byId.values()]
}

export const okRows = (): Array<CorpusRow & { readonly oqo: Oqo }> =>
  corpusRows().filter((row): row is CorpusRow & { oqo: Oqo } => row.status === 'ok' && row.oqo != null)

/**
 * The corpus's own name table (OQL v2.2 §10.7): the first `ID [Name]` pair met in the corpus's OQL
 * strings names that id everywhere. The stored canonical OQL is annotated from it, not from live names.
 */
export const corpusNameLookup = (): ((entity: string, id: string) => string | undefined) => {
  const baseline = readSpecJson<{ rows: CorpusRow[] }>('conformance/oql-corpus.json').rows
  const newer = readSpecJson<{ rows: CorpusRow[] }>('conformance/oql-corpus-newer-rows.json').rows
  const exact = new Map<string, string>()
  const folded = new Map<string, string>()
  for (const text of [...baseline, ...newer].map((row) => row.oql ?? ''))
    for (const [, id, name] of text.matchAll(/([^\s()[\],]+) \[([^\]]*)\]/g)) {
      if (!exact.has(id!)) exact.set(id!, name!)
      if (!folded.has(id!.toUpperCase())) folded.set(id!.toUpperCase(), name!)
    }
  // Ids are case-insensitive; codes match exactly first.
  return (_entity, id) => exact.get(id) ?? folded.get(id.toUpperCase())
}
