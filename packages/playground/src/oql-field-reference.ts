// The OQL reference: for each entity, the fields a query may name, what each is (a number, a date, an id, a
// search…), the operators it takes and, for a closed list, its values. All of it is asked of the library's
// own reading of queries (`parseContext`, what the editor completes with), so the reference says what the
// parser accepts and cannot drift from it. No DOM here: oql-reference-view.ts draws it.
import { type ContextSuggestion, parseContext, translate } from '@oqlkit/oql'

/** What a kind of field holds, for people (the parser's kinds are terse). */
const KIND_NAMES: Readonly<Record<string, string>> = {
  num: 'number',
  date: 'date',
  bool: 'yes/no',
  id: 'id',
  enum: 'one of a list',
  string: 'text',
  search: 'search',
  collection: 'collection',
}

const suggestionsAt = (text: string): readonly ContextSuggestion[] =>
  parseContext(text, text.length, { maxSuggestions: Number.POSITIVE_INFINITY }).suggestions

export interface FieldReference {
  readonly name: string
  readonly kind: string
  readonly operators: readonly string[]
  readonly values: readonly string[]
}

/** The entities a query may start with. */
export const referenceEntities = (): string[] =>
  suggestionsAt('')
    .filter((suggestion) => suggestion.kind === 'entity')
    .map((suggestion) => suggestion.value)

/**
 * The OQL name of the entity an API path names (`work-types` → `types`), as the library translates the path;
 * undefined for a path that names none.
 */
export const referenceEntityOfPath = (path: string): string | undefined => {
  const entity = translate({ oxurl: `/${path}` }).oql?.split(' ')[0]
  return entity !== undefined && referenceEntities().includes(entity) ? entity : undefined
}

/** Every field of `entity`, as the parser offers them after `where`. */
export const fieldReference = (entity: string): FieldReference[] => {
  const operatorsOfKind = new Map<string, string[]>()
  return suggestionsAt(`${entity} where `)
    .filter((suggestion) => suggestion.kind === 'field')
    .map((field) => {
      const kind = field.detail ?? ''
      let operators = operatorsOfKind.get(kind)
      if (operators === undefined) {
        operators = suggestionsAt(`${entity} where ${field.value} `)
          .filter((suggestion) => suggestion.kind === 'operator')
          .map((suggestion) => suggestion.value)
        operatorsOfKind.set(kind, operators)
      }
      const values =
        kind === 'enum' || kind === 'bool'
          ? suggestionsAt(`${entity} where ${field.value} is `)
              .filter((suggestion) => suggestion.kind === 'value')
              .map((suggestion) => suggestion.value)
          : []
      return { name: field.value, kind: KIND_NAMES[kind] ?? kind, operators, values }
    })
}
