import { autocompleteEntities, type StorageAdapter } from '@oqlkit/engine'
import { type ContextSuggestion, contextCategoryOf, type ParseContext, parseContext } from '@oqlkit/oql'
import { entityPath } from '@oqlkit/oqo-schema'
import type { H3Event } from 'h3'
import { ApiError } from '../errors/api-error.ts'
import { readKnownParameters } from '../request/known-parameters.ts'
import { rawQueryOf } from '../request/query-parameters.ts'
import { diagnosticView } from './query-validate-handler.ts'

const PARAMETERS = ['q', 'pos', 'api_key', 'mailto']

/** Catalog values suggested for an id being typed. */
export const CATALOG_SUGGESTIONS = 10

const fieldView = (field: NonNullable<ParseContext['field']>) => ({
  field: field.word,
  column: field.column,
  value_kind: field.kind,
  ...(field.valueEntity === undefined ? {} : { value_entity: entityPath(field.valueEntity) }),
})

// The value to write for a catalog record: its short id (`I136199984`), or the code of a vocabulary entity.
const idText = (id: string): string => id.slice(id.lastIndexOf('/') + 1)

/**
 * Values of an open id space (institutions, authors, topics, …) whose names match what is being typed,
 * from the catalog: the grammar knows closed vocabularies, the catalog knows the rest.
 */
const catalogValues = async (
  adapter: StorageAdapter,
  context: ParseContext,
): Promise<ContextSuggestion[]> => {
  const entity = context.autocompleteEntity
  if (context.state !== 'value' || entity === undefined || context.prefix.trim() === '') return []
  const results = await autocompleteEntities(adapter, {
    entities: [entity],
    text: context.prefix.trim(),
    limit: CATALOG_SUGGESTIONS,
    filter: null,
  })
  return results.map((result) => ({
    value: idText(result.id),
    kind: 'value' as const,
    detail: result.hint === null ? result.display_name : `${result.display_name} (${result.hint})`,
  }))
}

const readPosition = (text: string, written: string | undefined): number => {
  if (written === undefined || written.trim() === '') return text.length
  if (!/^\s*\d+\s*$/.test(written))
    throw ApiError.of(
      400,
      'invalid_parameter',
      `pos must be a character offset in q, a whole number from 0 to ${text.length} (was '${written}').`,
      'pos',
    )
  return Math.min(Number(written), text.length)
}

/**
 * `GET /parse-context?q=<oql>&pos=<n>`: what the grammar expects at a cursor, for an editor's
 * autocomplete: the category (entity, field, operator, value, connective, …), the prefix being typed and
 * the range a suggestion replaces, the field and its value kind, and suggestions: fields, operators,
 * keywords, closed-vocabulary codes, and for id fields the matching records of the catalog.
 * `pos` defaults to the end of `q`.
 */
export const queryParseContextHandler =
  (adapter: StorageAdapter) =>
  async (event: H3Event): Promise<unknown> => {
    const parameters = readKnownParameters(rawQueryOf(event.req.url), PARAMETERS, '/parse-context')
    const text = parameters.get('q')?.value ?? ''
    const position = readPosition(text, parameters.get('pos')?.value)
    const context = parseContext(text, position)
    const fromCatalog = await catalogValues(adapter, context)
    return {
      entity: context.entity === null ? null : entityPath(context.entity),
      context: {
        category: contextCategoryOf(context.state),
        state: context.state,
        prefix: context.prefix,
        replace_range: context.replaceRange,
        ...(context.field === undefined ? {} : fieldView(context.field)),
        ...(context.operator === undefined ? {} : { operator: context.operator }),
        ...(context.inList === undefined ? {} : { in_list: context.inList }),
        ...(context.openGroups === undefined ? {} : { open_groups: context.openGroups }),
        ...(context.afterConnective === undefined ? {} : { after_connective: context.afterConnective }),
        ...(context.sibling === undefined
          ? {}
          : {
              sibling: {
                ...fieldView(context.sibling.field),
                clause_range: context.sibling.clauseRange,
                value_range: context.sibling.valueRange,
              },
            }),
        ...(context.autocompleteEntity === undefined
          ? {}
          : { autocomplete_entity: entityPath(context.autocompleteEntity) }),
        suggestions: [...context.suggestions, ...fromCatalog],
      },
      diagnostic: context.diagnostic === undefined ? null : diagnosticView(context.diagnostic),
    }
  }
