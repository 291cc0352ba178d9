// Completion for the OQL editor. What the grammar expects at the cursor, and the fields, operators,
// keywords and codes that fit, come from @oqlkit/oql's `parseContext` running in the page. Values the
// library has no list of (institutions, authors, sources, …: `autocompleteEntity`) come from the
// server's `GET /autocomplete/{entity}?q=`, asked once typing pauses, abandoned when the text moves on,
// and quietly left out when the request fails: completion is a help, never an error.

import type {
  Completion,
  CompletionContext,
  CompletionResult,
  CompletionSource,
} from '@codemirror/autocomplete'
import { type ContextSuggestion, type ParseContext, parseContext } from '@oqlkit/oql'
import { type EntityType, entityPath, SERVED_ENTITY_TYPES } from '@oqlkit/oqo-schema'
import { type AutocompleteHit, oqlEntityValue, shortId } from './oql-entity-value.ts'
import { apiRoot } from './query-runner.ts'

/** How long typing must pause before the server is asked. */
export const AUTOCOMPLETE_DEBOUNCE_MS = 180

// CodeMirror's icon classes (`cm-completionIcon-<type>`) for the library's kinds of suggestion.
const COMPLETION_TYPES: Readonly<Record<ContextSuggestion['kind'], string>> = {
  entity: 'class',
  keyword: 'keyword',
  corpus: 'namespace',
  field: 'property',
  operator: 'operator',
  value: 'constant',
  connective: 'keyword',
  directive: 'keyword',
}

/** The context at the cursor, or none where nothing can be completed (inside a string or annotation). */
const contextAt = (context: CompletionContext): ParseContext | undefined => {
  const found = parseContext(context.state.doc.toString(), context.pos)
  if (found.state === 'none') return undefined
  // While typing, open only on a word being written or right after a space or `(` (not mid-punctuation).
  if (!context.explicit && found.prefix === '') {
    const before = context.state.sliceDoc(context.pos - 1, context.pos)
    if (before !== ' ' && before !== '(') return undefined
  }
  return found
}

/** The library's own suggestions, in its order (it has filtered them by the prefix already). */
export const oqlLibraryCompletions: CompletionSource = (context) => {
  const found = contextAt(context)
  if (found === undefined || found.suggestions.length === 0) return null
  return {
    from: found.replaceRange.start,
    to: found.replaceRange.end,
    filter: false,
    options: found.suggestions.map(
      (suggestion): Completion => ({
        label: suggestion.value,
        type: COMPLETION_TYPES[suggestion.kind],
        ...(suggestion.detail === undefined ? {} : { detail: suggestion.detail }),
      }),
    ),
  }
}

const pause = (ms: number, context: CompletionContext): Promise<boolean> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => resolve(!context.aborted), ms)
    context.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve(false)
    })
  })

const SERVED: ReadonlySet<EntityType> = new Set(SERVED_ENTITY_TYPES)

const fetchHits = async (
  entity: EntityType,
  prefix: string,
  context: CompletionContext,
): Promise<readonly AutocompleteHit[]> => {
  const controller = new AbortController()
  context.addEventListener('abort', () => controller.abort())
  const url = new URL(`autocomplete/${entityPath(entity)}`, apiRoot())
  url.searchParams.set('q', prefix)
  const response = await fetch(url, { signal: controller.signal, headers: { accept: 'application/json' } })
  if (!response.ok) return []
  const body = (await response.json()) as { results?: readonly AutocompleteHit[] }
  return (body.results ?? []).filter(
    (hit) => typeof hit.id === 'string' && typeof hit.display_name === 'string',
  )
}

/** Names from the catalog for values the library has no list of, inserted as `id [name]`. */
export const oqlCatalogCompletions: CompletionSource = async (context): Promise<CompletionResult | null> => {
  const found = contextAt(context)
  const entity = found?.autocompleteEntity
  const prefix = found?.prefix.trim() ?? ''
  // The server wants some text to look for; an entity it does not serve would only answer 404.
  if (found === undefined || entity === undefined || prefix === '' || !SERVED.has(entity)) return null
  if (!(await pause(AUTOCOMPLETE_DEBOUNCE_MS, context))) return null
  try {
    const hits = await fetchHits(entity, prefix, context)
    if (context.aborted || hits.length === 0) return null
    return {
      from: found.replaceRange.start,
      to: found.replaceRange.end,
      filter: false,
      options: hits.map(
        (hit): Completion => ({
          label: hit.display_name,
          apply: oqlEntityValue(hit),
          type: 'variable',
          detail: shortId(hit.id),
          ...(hit.hint == null || hit.hint === '' ? {} : { info: hit.hint }),
          section: `${entity} in the catalog`,
        }),
      ),
    }
  } catch {
    // Aborted because the text moved on, or the server is unreachable: no names this time.
    return null
  }
}
